"""The one exception tree of memkit.

Every error a user can cause (a bad world file, a bad expression, a bad data
file, bad LLM output, a store that cannot be opened) is a subclass of
:class:`MemkitError` whose message names what went wrong and where. Errors from
third-party libraries (sqlite3, chromadb, openai) are translated with
``raise ... from exc`` so the original stays attached.

Tree::

    MemkitError
    ├── ConfigError                 bad argument, option or environment setting
    ├── DataFormatError             a malformed data file (file, line)
    ├── WorldError                  a world file that breaks worldshift/1 (file, location)
    │   └── WorldValidationError    schema or static-check failure in a world file
    ├── ExpressionError             a rule expression (text, position)
    │   ├── ExpressionSyntaxError   tokenizer / parser
    │   └── ExpressionCheckError    static check against a schema (unknown table/field, arity)
    ├── WriteError                  a write the platform refuses (schema violation)
    │   └── DepthLimitError         a cascade deeper than 16 writes; the action is rolled back
    ├── RuleModelError              an invalid operation on a learned rule model
    ├── LLMError                    the chat endpoint failed
    │   └── LLMOutputError          the model's output stayed invalid after repair retries
    ├── StoreError                  a memory backend failed (sqlite3, chromadb, files)
    │   └── NotFoundError           an id that is not in the store
    └── AccessError                 an operation the platform's access level forbids
"""

from __future__ import annotations

__all__ = [
    "MemkitError",
    "ConfigError",
    "DataFormatError",
    "WorldError",
    "WorldValidationError",
    "ExpressionError",
    "ExpressionSyntaxError",
    "ExpressionCheckError",
    "WriteError",
    "DepthLimitError",
    "RuleModelError",
    "LLMError",
    "LLMOutputError",
    "StoreError",
    "NotFoundError",
    "AccessError",
]


class MemkitError(Exception):
    """Root of every error memkit raises on purpose."""


class ConfigError(MemkitError):
    """A bad argument, option or environment setting."""


class DataFormatError(MemkitError):
    """A malformed data file; the message names the file and, where known, the line."""

    def __init__(self, message: str, *, path: str | None = None, line: int | None = None) -> None:
        where = ""
        if path is not None:
            where = f"{path}"
            if line is not None:
                where += f":{line}"
            where += ": "
        super().__init__(where + message)
        self.path = path
        self.line = line


class WorldError(MemkitError):
    """A world file that breaks the worldshift/1 format.

    ``path`` is the file, ``location`` names the rule, record, test or key
    (e.g. ``rule R03``, ``records.task[2]``).
    """

    def __init__(self, message: str, *, path: str | None = None, location: str | None = None) -> None:
        parts = [p for p in (path, location) if p]
        prefix = ": ".join(parts)
        super().__init__(f"{prefix}: {message}" if prefix else message)
        self.path = path
        self.location = location
        self.problem = message


class WorldValidationError(WorldError):
    """A world file failed schema validation or the static checks."""


class ExpressionError(MemkitError):
    """An error in a rule expression; ``position`` is a 0-based offset into ``text``."""

    def __init__(self, message: str, *, text: str = "", position: int | None = None) -> None:
        where = f" at position {position}" if position is not None else ""
        shown = f" in {text!r}" if text else ""
        super().__init__(f"{message}{where}{shown}")
        self.text = text
        self.position = position
        self.problem = message


class ExpressionSyntaxError(ExpressionError):
    """The tokenizer or parser rejected an expression."""


class ExpressionCheckError(ExpressionError):
    """An expression names an unknown table or field, or calls a function with the wrong arity."""


class WriteError(MemkitError):
    """A write the platform refuses: unknown table/field, wrong type, unknown choice, dangling reference."""


class DepthLimitError(WriteError):
    """A chain of writes went deeper than the limit; the whole action changed nothing."""


class RuleModelError(MemkitError):
    """An invalid operation on a learned rule model (unknown rule, invalid rule text)."""


class LLMError(MemkitError):
    """The chat endpoint could not be reached or answered with an error."""


class LLMOutputError(LLMError):
    """The model's output stayed invalid after the bounded repair retries."""


class StoreError(MemkitError):
    """A memory backend failed; the original error is chained as ``__cause__``."""


class NotFoundError(StoreError):
    """An id that is not in the store."""


class AccessError(MemkitError):
    """An operation that the platform's access level does not allow."""
