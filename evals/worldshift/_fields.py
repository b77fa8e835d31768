"""Field specs of a worldshift/1 schema, written short in the WorldShift generators.

Each helper returns the mapping the format spec gives a field
(``{"type": ..., "ref"/"choices": ..., "default": ...}``, keys in that
order, so that the dumped YAML reads as before); ``table`` gathers the fields
of one table in the order given.
"""

from __future__ import annotations

from typing import Any

__all__ = ["boolean", "choice", "number", "reference", "string", "table"]

_NO_DEFAULT: Any = object()


def _field(kind: str, default: Any = _NO_DEFAULT, **spec: Any) -> dict[str, Any]:
    out = {"type": kind, **spec}
    if default is not _NO_DEFAULT:
        out["default"] = default
    return out


def string() -> dict[str, Any]:
    """A text field."""
    return _field("string")


def number(default: float | int = _NO_DEFAULT) -> dict[str, Any]:
    """A number field, with ``default`` when given."""
    return _field("number", default)


def boolean(default: bool) -> dict[str, Any]:
    """A true/false field with its default."""
    return _field("boolean", default)


def choice(choices: list[str], default: str = _NO_DEFAULT) -> dict[str, Any]:
    """A field holding one of ``choices``, with ``default`` when given."""
    return _field("choice", default, choices=choices)


def reference(target: str) -> dict[str, Any]:
    """A field holding the id of a record of table ``target``."""
    return _field("reference", ref=target)


def table(**fields: dict[str, Any]) -> dict[str, Any]:
    """A table's spec from its fields, in the order given."""
    return {"fields": fields}
