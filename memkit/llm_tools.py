"""Tools for a chat model and the loop that lets the model call them.

A :class:`Tool` is a name, a description, a pydantic model for its arguments
and a function taking that model. :func:`run_tool_loop` asks the model, runs
each tool call, appends the assistant message and the tool results, and loops
until the model answers without tool calls, calls the ``stop_tool``, or uses up
``max_steps`` chat requests.

Model mistakes never raise (as in smolagents): an unknown tool, arguments that
are not a JSON object, arguments the pydantic model rejects, or a tool raising
a :class:`~memkit.errors.MemkitError` are recorded on the step and shown back to
the model as the tool result ``"Error: ..."``. Any other exception from a tool
is a bug and is re-raised.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Generic, Literal, TypeVar

from pydantic import BaseModel, Field, ValidationError

from memkit.errors import ConfigError, MemkitError
from memkit.llm import ChatModel, ToolCall, TokenUsage

__all__ = ["Tool", "ToolStep", "ToolLoopResult", "StopReason", "run_tool_loop", "format_tool_output"]

A = TypeVar("A", bound=BaseModel)

_NAME = re.compile(r"^[a-zA-Z0-9_-]{1,64}$")

StopReason = Literal["answer", "stop_tool", "max_steps"]


@dataclass(frozen=True)
class Tool(Generic[A]):
    """A function the model may call: ``fn(args_model(**arguments))`` returns a str or a JSON-able value."""

    name: str
    description: str
    args_model: type[A]
    fn: Callable[[A], Any]

    def __post_init__(self) -> None:
        if not _NAME.match(self.name):
            raise ConfigError(f"tool name {self.name!r} must be 1-64 letters, digits, '_' or '-'")

    def schema(self) -> dict[str, Any]:
        """The tool in the OpenAI ``tools`` JSON form."""
        return {
            "type": "function",
            "function": {
                "name": self.name,
                "description": self.description,
                "parameters": self.args_model.model_json_schema(),
            },
        }

    def __call__(self, arguments: dict[str, Any]) -> Any:
        """Validate ``arguments`` (pydantic ValidationError when invalid) and run the function."""
        return self.fn(self.args_model.model_validate(arguments))


def format_tool_output(value: Any) -> str:
    """The text a tool result becomes in the conversation: str as is, pydantic as JSON, else json.dumps."""
    if isinstance(value, str):
        return value
    if isinstance(value, BaseModel):
        return value.model_dump_json()
    return json.dumps(value, ensure_ascii=False)


class ToolStep(BaseModel):
    """One chat request of the loop: the model's text, its tool calls, and for each call its result text and error.

    ``results[i]`` is what the model was shown for ``tool_calls[i]``; ``errors[i]``
    is None when that call ran, else the mistake (also shown in ``results[i]``).
    ``values[i]`` is the tool's return value (None for a failed call).
    """

    content: str | None = None
    tool_calls: list[ToolCall] = Field(default_factory=list)
    results: list[str] = Field(default_factory=list)
    errors: list[str | None] = Field(default_factory=list)
    values: list[Any] = Field(default_factory=list)

    @property
    def has_errors(self) -> bool:
        """Whether any call of this step was a model mistake."""
        return any(e is not None for e in self.errors)


class ToolLoopResult(BaseModel):
    """What a tool loop did and why it stopped.

    ``content`` is the model's final text (for ``stopped == "answer"``; else the
    last text it wrote, possibly None). ``stop_call``/``stop_value`` are the
    call of the stop tool and its return value when ``stopped == "stop_tool"``.
    ``usage`` counts this loop's requests only.
    """

    steps: list[ToolStep] = Field(default_factory=list)
    content: str | None = None
    messages: list[dict[str, Any]] = Field(default_factory=list)
    usage: TokenUsage = Field(default_factory=TokenUsage)
    stopped: StopReason = "answer"
    stop_call: ToolCall | None = None
    stop_value: Any = None

    @property
    def errors(self) -> list[str]:
        """Every model mistake of the loop, in order."""
        return [e for step in self.steps for e in step.errors if e is not None]


def _run_call(call: ToolCall, tools: dict[str, Tool[Any]]) -> tuple[str, str | None, Any]:
    """(result text, error or None, value) of one call; bugs propagate."""
    tool = tools.get(call.name)
    if tool is None:
        error = f"unknown tool {call.name!r}; available tools: {', '.join(sorted(tools))}"
    elif call.arguments is None:
        error = f"invalid arguments for tool {call.name!r}: {call.error}"
    else:
        try:
            args = tool.args_model.model_validate(call.arguments)
        except ValidationError as exc:
            error = f"invalid arguments for tool {call.name!r}: {exc}"
        else:
            try:
                value = tool.fn(args)
            except MemkitError as exc:
                error = f"tool {call.name!r} failed: {exc}"
            else:
                return format_tool_output(value), None, value
    return f"Error: {error}", error, None


def run_tool_loop(
    model: ChatModel,
    messages: list[dict[str, Any]],
    tools: list[Tool[Any]],
    *,
    max_steps: int = 20,
    stop_tool: str | None = None,
    temperature: float | None = None,
) -> ToolLoopResult:
    """Let ``model`` call ``tools`` until it answers, calls ``stop_tool``, or ``max_steps`` requests are made.

    ``messages`` is not modified; the whole conversation is in the result.
    Calls after a successful ``stop_tool`` call in the same reply are not run
    (they are recorded with an error saying so).
    """
    if max_steps < 1:
        raise ConfigError(f"max_steps must be >= 1, got {max_steps}")
    by_name: dict[str, Tool[Any]] = {}
    for tool in tools:
        if tool.name in by_name:
            raise ConfigError(f"two tools are named {tool.name!r}")
        by_name[tool.name] = tool
    if stop_tool is not None and stop_tool not in by_name:
        raise ConfigError(f"stop_tool {stop_tool!r} is not one of the tools: {', '.join(sorted(by_name))}")
    schemas = [tool.schema() for tool in tools] or None
    conversation = [dict(m) for m in messages]
    result = ToolLoopResult()
    # assigned, not passed to the constructor: validation would copy the list
    result.messages = conversation

    for _ in range(max_steps):
        reply = model.chat(conversation, tools=schemas, temperature=temperature)
        result.usage.add(reply.usage)
        if reply.content is not None:
            result.content = reply.content
        conversation.append(reply.to_message())
        step = ToolStep(content=reply.content, tool_calls=reply.tool_calls)
        result.steps.append(step)
        if not reply.tool_calls:
            result.stopped = "answer"
            result.content = reply.content
            return result
        stopped_by: ToolCall | None = None
        for call in reply.tool_calls:
            if stopped_by is not None:
                text, error, value = "Error: not run, the loop already stopped", "not run after the stop tool", None
            else:
                text, error, value = _run_call(call, by_name)
                if error is None and call.name == stop_tool:
                    stopped_by = call
                    result.stop_call, result.stop_value = call, value
            step.results.append(text)
            step.errors.append(error)
            step.values.append(value)
            conversation.append({"role": "tool", "tool_call_id": call.id, "content": text})
        if stopped_by is not None:
            result.stopped = "stop_tool"
            return result
    result.stopped = "max_steps"
    return result
