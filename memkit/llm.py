"""The one LLM client of memkit: chat, tool calls and validated structured output.

Every LLM-driven step talks to a :class:`ChatModel`. :class:`OpenAIChat` is the
implementation over the ``openai`` SDK against any OpenAI-compatible base URL
(a vLLM/llama.cpp/Ollama server, or OpenAI itself). Configuration is explicit:
constructor arguments, or :meth:`OpenAIChat.from_env` at the CLI edge only
(``MEMKIT_LLM_BASE_URL``, ``MEMKIT_LLM_API_KEY``, ``MEMKIT_LLM_MODEL``).

Errors::

    LLMError          the endpoint could not be reached, answered an HTTP error,
    │                 or sent a body that is not a chat completion
    └── LLMOutputError structured output stayed invalid after the repair retries

:meth:`ChatModel.structured` never returns junk: it validates the reply with a
pydantic model, shows the model its own bad reply and the validation error,
retries a bounded number of times, and then raises :class:`LLMOutputError`.
"""

from __future__ import annotations

import json
import os
import re
import threading
from collections.abc import Mapping
from typing import Any, Protocol, TypeVar, runtime_checkable

import openai
from pydantic import BaseModel, Field, ValidationError

from memkit.errors import ConfigError, LLMError, LLMOutputError

__all__ = [
    "TokenUsage",
    "ToolCall",
    "ChatReply",
    "ChatModel",
    "OpenAIChat",
    "extract_json_object",
    "parse_structured",
    "schema_instruction",
    "ENV_BASE_URL",
    "ENV_API_KEY",
    "ENV_MODEL",
]

ENV_BASE_URL = "MEMKIT_LLM_BASE_URL"
ENV_API_KEY = "MEMKIT_LLM_API_KEY"
ENV_MODEL = "MEMKIT_LLM_MODEL"

T = TypeVar("T", bound=BaseModel)


class TokenUsage(BaseModel):
    """Token counts of one reply or, summed, of many; ``calls`` counts chat requests."""

    prompt_tokens: int = 0
    completion_tokens: int = 0
    total_tokens: int = 0
    calls: int = 0

    def add(self, other: TokenUsage) -> TokenUsage:
        """Add ``other`` into this object in place and return it."""
        self.prompt_tokens += other.prompt_tokens
        self.completion_tokens += other.completion_tokens
        self.total_tokens += other.total_tokens
        self.calls += other.calls
        return self

    def __add__(self, other: TokenUsage) -> TokenUsage:
        return self.model_copy().add(other)


class ToolCall(BaseModel):
    """One tool call of an assistant reply.

    ``arguments`` is the decoded JSON object, or ``None`` when ``raw_arguments``
    is not a JSON object; then ``error`` says why (a model mistake, shown back
    to the model by the tool loop rather than raised).
    """

    id: str
    name: str
    arguments: dict[str, Any] | None = None
    raw_arguments: str = ""
    error: str | None = None

    @classmethod
    def parse(cls, id: str, name: str, raw_arguments: str | None) -> ToolCall:  # noqa: A002
        """Build a call from the wire form, decoding the arguments string."""
        raw = raw_arguments or ""
        if not raw.strip():
            # some servers send "" for a tool without parameters
            return cls(id=id, name=name, arguments={}, raw_arguments=raw)
        try:
            value = json.loads(raw)
        except json.JSONDecodeError as exc:
            return cls(id=id, name=name, raw_arguments=raw, error=f"arguments are not valid JSON: {exc}")
        if not isinstance(value, dict):
            return cls(
                id=id, name=name, raw_arguments=raw, error=f"arguments must be a JSON object, got {type(value).__name__}"
            )
        return cls(id=id, name=name, arguments=value, raw_arguments=raw)

    def to_message(self) -> dict[str, Any]:
        """The call in the OpenAI wire form, as it goes back into the conversation."""
        return {"id": self.id, "type": "function", "function": {"name": self.name, "arguments": self.raw_arguments}}


class ChatReply(BaseModel):
    """One assistant reply: text and/or tool calls, why it ended, and its token usage."""

    content: str | None = None
    tool_calls: list[ToolCall] = Field(default_factory=list)
    finish_reason: str | None = None
    usage: TokenUsage = Field(default_factory=TokenUsage)

    def to_message(self) -> dict[str, Any]:
        """The reply as an assistant message to append to the conversation."""
        message: dict[str, Any] = {"role": "assistant", "content": self.content}
        if self.tool_calls:
            message["tool_calls"] = [call.to_message() for call in self.tool_calls]
        return message


@runtime_checkable
class ChatModel(Protocol):
    """What every LLM-driven step of memkit needs from a chat model."""

    model: str
    usage: TokenUsage

    def chat(
        self,
        messages: list[dict[str, Any]],
        *,
        tools: list[dict[str, Any]] | None = None,
        temperature: float | None = None,
    ) -> ChatReply:
        """One chat-completion request; ``tools`` in the OpenAI tools JSON form."""
        ...

    def structured(
        self,
        messages: list[dict[str, Any]],
        schema: type[T],
        *,
        retries: int = 2,
        temperature: float | None = None,
    ) -> T:
        """A reply validated as ``schema``, repaired at most ``retries`` times, else LLMOutputError."""
        ...


# -- structured output helpers (shared by any ChatModel implementation) -------

_FENCE = re.compile(r"```(?:json|JSON)?\s*\n?(.*?)```", re.DOTALL)


def extract_json_object(text: str) -> dict[str, Any]:
    """The JSON object in a model reply: the whole text, a ```json fence, or the first ``{...}``.

    Raises ValueError saying what was wrong when no JSON object is found.
    """
    stripped = text.strip()
    candidates = [stripped] + [m.group(1).strip() for m in _FENCE.finditer(text)]
    for candidate in candidates:
        try:
            value = json.loads(candidate)
        except json.JSONDecodeError:
            continue
        if isinstance(value, dict):
            return value
        raise ValueError(f"expected a JSON object, got a JSON {type(value).__name__}")
    # prose around the object: try each '{' until one decodes to an object
    decoder = json.JSONDecoder()
    for match in re.finditer(r"\{", text):
        try:
            value, _ = decoder.raw_decode(text, match.start())
        except json.JSONDecodeError:
            continue
        if isinstance(value, dict):
            return value
    raise ValueError("the reply contains no JSON object")


def parse_structured(text: str | None, schema: type[T]) -> T:
    """Extract and validate ``schema`` from a reply text; ValueError (with the reason) when invalid."""
    if text is None or not text.strip():
        raise ValueError("the reply had no text content")
    data = extract_json_object(text)
    try:
        return schema.model_validate(data)
    except ValidationError as exc:
        raise ValueError(f"the JSON object does not match {schema.__name__}: {exc}") from exc


def schema_instruction(schema: type[BaseModel]) -> str:
    """The prompt text asking for one JSON object matching ``schema``."""
    return (
        "Reply with a single JSON object and nothing else (no prose, no code fence). "
        f"It must validate against this JSON schema:\n{json.dumps(schema.model_json_schema(), indent=1)}"
    )


def _with_instruction(messages: list[dict[str, Any]], instruction: str) -> list[dict[str, Any]]:
    """A copy of ``messages`` whose system message ends with ``instruction``.

    Appended to the first system message rather than added as a second one,
    because many chat templates accept only one system message, and only first.
    """
    out = [dict(m) for m in messages]
    for message in out:
        if message.get("role") == "system":
            content = message.get("content")
            if isinstance(content, list):
                message["content"] = [*content, {"type": "text", "text": instruction}]
            else:
                message["content"] = f"{content or ''}\n\n{instruction}".strip()
            return out
    return [{"role": "system", "content": instruction}, *out]


def _repair_message(problem: str) -> dict[str, Any]:
    return {
        "role": "user",
        "content": (
            f"Your previous reply was invalid: {problem}\n"
            "Reply again with only the corrected JSON object matching the schema."
        ),
    }


class OpenAIChat:
    """A :class:`ChatModel` over the ``openai`` SDK against an OpenAI-compatible endpoint.

    ``usage`` accumulates the token counts of every reply (thread-safe, since
    LangGraph runs parallel branches in threads). ``json_mode`` sends
    ``response_format={"type": "json_object"}`` for structured output; a server
    that rejects it with HTTP 400 is asked again without it, and from then on
    the client relies on the schema in the prompt alone.
    """

    def __init__(
        self,
        model: str,
        *,
        base_url: str,
        api_key: str = "not-needed",
        timeout: float = 60.0,
        max_retries: int = 2,
        json_mode: bool = True,
    ) -> None:
        if not model:
            raise ConfigError("OpenAIChat needs a model name")
        if not base_url:
            raise ConfigError("OpenAIChat needs a base_url")
        if timeout <= 0:
            raise ConfigError(f"timeout must be positive, got {timeout}")
        if max_retries < 0:
            raise ConfigError(f"max_retries must be >= 0, got {max_retries}")
        self.model = model
        self.base_url = base_url
        self.json_mode = json_mode
        self.usage = TokenUsage()
        self._lock = threading.Lock()
        self._client = openai.OpenAI(base_url=base_url, api_key=api_key, timeout=timeout, max_retries=max_retries)

    @classmethod
    def from_env(cls, environ: Mapping[str, str] | None = None, **kwargs: Any) -> OpenAIChat:
        """Build from MEMKIT_LLM_BASE_URL, MEMKIT_LLM_MODEL and (optional) MEMKIT_LLM_API_KEY.

        For the CLI edge only; library code takes a ChatModel argument. Raises
        ConfigError naming the missing variable.
        """
        env = os.environ if environ is None else environ
        values = {}
        for name in (ENV_BASE_URL, ENV_MODEL):
            value = env.get(name, "").strip()
            if not value:
                raise ConfigError(f"environment variable {name} is not set (needed to reach the LLM endpoint)")
            values[name] = value
        api_key = env.get(ENV_API_KEY, "").strip() or "not-needed"
        return cls(values[ENV_MODEL], base_url=values[ENV_BASE_URL], api_key=api_key, **kwargs)

    def __repr__(self) -> str:
        return f"OpenAIChat(model={self.model!r}, base_url={self.base_url!r})"

    # -- chat ----------------------------------------------------------------

    def chat(
        self,
        messages: list[dict[str, Any]],
        *,
        tools: list[dict[str, Any]] | None = None,
        temperature: float | None = None,
    ) -> ChatReply:
        """One chat-completion request; transport and API errors become LLMError."""
        return self._request(messages, tools=tools, temperature=temperature)

    def _request(
        self,
        messages: list[dict[str, Any]],
        *,
        tools: list[dict[str, Any]] | None = None,
        temperature: float | None = None,
        response_format: dict[str, Any] | None = None,
    ) -> ChatReply:
        kwargs: dict[str, Any] = {"model": self.model, "messages": messages}
        if tools:
            kwargs["tools"] = tools
        if temperature is not None:
            kwargs["temperature"] = temperature
        if response_format is not None:
            kwargs["response_format"] = response_format
        try:
            completion = self._client.chat.completions.create(**kwargs)
        except openai.APIStatusError as exc:
            raise LLMError(
                f"chat endpoint {self.base_url} answered HTTP {exc.status_code} for model {self.model!r}: {exc.message}"
            ) from exc
        except openai.APIConnectionError as exc:
            raise LLMError(f"could not reach chat endpoint {self.base_url}: {exc}") from exc
        except openai.OpenAIError as exc:
            raise LLMError(f"chat request to {self.base_url} failed: {exc}") from exc
        except json.JSONDecodeError as exc:
            # the SDK lets a non-JSON 200 body through as a decode error
            raise LLMError(f"chat endpoint {self.base_url} sent a body that is not JSON: {exc}") from exc
        reply = self._to_reply(completion)
        with self._lock:
            self.usage.add(reply.usage)
        return reply

    def _to_reply(self, completion: Any) -> ChatReply:
        # the SDK builds responses without validation, so any field may be missing
        choices = getattr(completion, "choices", None)
        if not choices:
            raise LLMError(f"chat endpoint {self.base_url} sent a reply without choices")
        choice = choices[0]
        message = getattr(choice, "message", None)
        if message is None:
            raise LLMError(f"chat endpoint {self.base_url} sent a choice without a message")
        calls = []
        for index, call in enumerate(getattr(message, "tool_calls", None) or []):
            function = getattr(call, "function", None)
            name = getattr(function, "name", None)
            if not name:
                raise LLMError(f"chat endpoint {self.base_url} sent a tool call without a function name")
            call_id = getattr(call, "id", None) or f"call_{index}"
            calls.append(ToolCall.parse(call_id, name, getattr(function, "arguments", None)))
        raw_usage = getattr(completion, "usage", None)
        usage = TokenUsage(
            prompt_tokens=getattr(raw_usage, "prompt_tokens", None) or 0,
            completion_tokens=getattr(raw_usage, "completion_tokens", None) or 0,
            total_tokens=getattr(raw_usage, "total_tokens", None) or 0,
            calls=1,
        )
        content = getattr(message, "content", None)
        return ChatReply(
            content=content if isinstance(content, str) else None,
            tool_calls=calls,
            finish_reason=getattr(choice, "finish_reason", None),
            usage=usage,
        )

    # -- structured output ---------------------------------------------------

    def structured(
        self,
        messages: list[dict[str, Any]],
        schema: type[T],
        *,
        retries: int = 2,
        temperature: float | None = None,
    ) -> T:
        """Ask for one JSON object, validate it as ``schema``, repair at most ``retries`` times.

        Each invalid reply is appended to the conversation with the reason it
        was rejected, so the model can correct itself. After ``1 + retries``
        invalid replies, raises LLMOutputError naming the last problem.
        """
        if retries < 0:
            raise ConfigError(f"retries must be >= 0, got {retries}")
        conversation = _with_instruction(messages, schema_instruction(schema))
        problem = ""
        for _attempt in range(1 + retries):
            reply = self._structured_request(conversation, temperature)
            try:
                return parse_structured(reply.content, schema)
            except ValueError as exc:
                problem = str(exc)
            conversation.append({"role": "assistant", "content": reply.content or ""})
            conversation.append(_repair_message(problem))
        raise LLMOutputError(
            f"model {self.model!r} gave no valid {schema.__name__} in {1 + retries} attempts; last problem: {problem}"
        )

    def _structured_request(self, conversation: list[dict[str, Any]], temperature: float | None) -> ChatReply:
        if not self.json_mode:
            return self._request(conversation, temperature=temperature)
        try:
            return self._request(conversation, temperature=temperature, response_format={"type": "json_object"})
        except LLMError as exc:
            cause = exc.__cause__
            if not isinstance(cause, openai.BadRequestError):
                raise
            # maybe the server does not support response_format: ask again without it,
            # and when that works rely on the schema in the prompt from now on
            reply = self._request(conversation, temperature=temperature)
            self.json_mode = False
            return reply
