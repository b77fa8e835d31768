"""OpenAIChat against a real local chat-completions server: chat, tool calls, usage, structured output, errors."""

from __future__ import annotations

import json

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from pydantic import BaseModel, Field

from memkit.errors import ConfigError, LLMError, LLMOutputError
from memkit.llm import ChatModel, OpenAIChat, TokenUsage, ToolCall, extract_json_object


class Verdict(BaseModel):
    label: str
    confidence: float = Field(ge=0, le=1)


def make_client(server, **kwargs) -> OpenAIChat:
    return OpenAIChat("test-model", base_url=server.base_url, max_retries=0, timeout=10, **kwargs)


USER = [{"role": "user", "content": "classify this"}]


def test_openai_chat_satisfies_the_protocol(chat_server):
    assert isinstance(make_client(chat_server()), ChatModel)


def test_plain_chat_returns_text_and_sends_model_and_messages(chat_server):
    server = chat_server(["hello back"])
    client = make_client(server)
    reply = client.chat([{"role": "user", "content": "hello"}], temperature=0.0)
    assert reply.content == "hello back"
    assert reply.tool_calls == []
    assert reply.finish_reason == "stop"
    (request,) = server.requests
    assert request["model"] == "test-model"
    assert request["messages"] == [{"role": "user", "content": "hello"}]
    assert request["temperature"] == 0.0
    assert "tools" not in request and "response_format" not in request


def test_tool_calls_are_decoded_and_tools_are_sent(chat_server):
    server = chat_server([{"tool_calls": [{"name": "lookup", "arguments": {"q": "x"}, "id": "c1"}]}])
    tools = [{"type": "function", "function": {"name": "lookup", "parameters": {"type": "object"}}}]
    reply = make_client(server).chat(USER, tools=tools)
    assert reply.tool_calls == [ToolCall(id="c1", name="lookup", arguments={"q": "x"}, raw_arguments='{"q": "x"}')]
    assert reply.finish_reason == "tool_calls"
    assert server.requests[0]["tools"] == tools
    # the reply goes back into the conversation in the wire form
    message = reply.to_message()
    assert message["tool_calls"][0]["function"] == {"name": "lookup", "arguments": '{"q": "x"}'}


@pytest.mark.parametrize(
    ("raw", "arguments", "error_part"),
    [
        ('{"a": 1}', {"a": 1}, None),
        ("", {}, None),
        ("{not json", None, "not valid JSON"),
        ("[1, 2]", None, "must be a JSON object"),
    ],
)
def test_tool_call_arguments_that_are_not_an_object_carry_an_error(chat_server, raw, arguments, error_part):
    server = chat_server([{"tool_calls": [{"name": "f", "arguments": raw}]}])
    (call,) = make_client(server).chat(USER).tool_calls
    assert call.arguments == arguments
    assert call.raw_arguments == raw
    if error_part is None:
        assert call.error is None
    else:
        assert error_part in call.error


def test_usage_is_counted_per_reply_and_cumulatively(chat_server):
    server = chat_server(
        [
            {"content": "a", "usage": {"prompt_tokens": 10, "completion_tokens": 2, "total_tokens": 12}},
            {"content": "b", "usage": {"prompt_tokens": 7, "completion_tokens": 3, "total_tokens": 10}},
            {"content": "c", "usage": None},  # a server that reports no usage still counts the call
        ]
    )
    client = make_client(server)
    first = client.chat(USER)
    assert first.usage == TokenUsage(prompt_tokens=10, completion_tokens=2, total_tokens=12, calls=1)
    client.chat(USER)
    third = client.chat(USER)
    assert third.usage == TokenUsage(calls=1)
    assert client.usage == TokenUsage(prompt_tokens=17, completion_tokens=5, total_tokens=22, calls=3)


def test_token_usage_add_and_plus():
    a = TokenUsage(prompt_tokens=1, completion_tokens=2, total_tokens=3, calls=1)
    b = TokenUsage(prompt_tokens=10, completion_tokens=20, total_tokens=30, calls=2)
    assert a + b == TokenUsage(prompt_tokens=11, completion_tokens=22, total_tokens=33, calls=3)
    assert a.calls == 1  # + does not mutate
    a.add(b)
    assert a.total_tokens == 33


def test_structured_valid_at_once_puts_schema_in_prompt_and_asks_json_mode(chat_server):
    server = chat_server(['{"label": "flu", "confidence": 0.8}'])
    verdict = make_client(server).structured([{"role": "system", "content": "You judge."}, *USER], Verdict)
    assert verdict == Verdict(label="flu", confidence=0.8)
    (request,) = server.requests
    assert request["response_format"] == {"type": "json_object"}
    system = request["messages"][0]
    assert system["role"] == "system" and system["content"].startswith("You judge.")
    assert '"confidence"' in system["content"]  # the JSON schema is in the prompt
    assert sum(m["role"] == "system" for m in request["messages"]) == 1


def test_structured_reads_json_inside_a_fence_or_prose(chat_server):
    server = chat_server(
        [
            'Here it is:\n```json\n{"label": "cold", "confidence": 0.5}\n```',
            'Sure! {"label": "ok", "confidence": 1} hope that helps',
        ]
    )
    client = make_client(server)
    assert client.structured(USER, Verdict).label == "cold"
    assert client.structured(USER, Verdict).label == "ok"


def test_structured_repairs_after_one_bad_reply(chat_server):
    server = chat_server(['{"label": "flu", "confidence": 7}', '{"label": "flu", "confidence": 0.7}'])
    verdict = make_client(server).structured(USER, Verdict)
    assert verdict.confidence == 0.7
    assert len(server.requests) == 2
    repair = server.requests[1]["messages"]
    # the bad reply and the validation error are shown back to the model
    assert repair[-2] == {"role": "assistant", "content": '{"label": "flu", "confidence": 7}'}
    assert repair[-1]["role"] == "user" and "confidence" in repair[-1]["content"]
    assert "less than or equal to 1" in repair[-1]["content"]


@pytest.mark.parametrize("retries", [0, 1, 2])
def test_structured_raises_after_exhausting_retries_with_bounded_requests(chat_server, retries):
    server = chat_server(["not json at all"] * 5)
    client = make_client(server)
    with pytest.raises(LLMOutputError, match="no JSON object") as info:
        client.structured(USER, Verdict, retries=retries)
    assert "Verdict" in str(info.value)
    assert len(server.requests) == 1 + retries
    assert client.usage.calls == 1 + retries


@pytest.mark.parametrize(
    ("reply", "problem"),
    [
        ("[1, 2, 3]", "expected a JSON object"),
        ('{"label": "x"}', "confidence"),
        ("", "no text content"),
    ],
)
def test_structured_error_says_what_was_wrong(chat_server, reply, problem):
    server = chat_server([reply])
    with pytest.raises(LLMOutputError, match=problem):
        make_client(server).structured(USER, Verdict, retries=0)


def test_structured_falls_back_when_server_rejects_response_format(chat_server):
    def strict_server(request):
        if "response_format" in request:
            return {"status": 400, "body": {"error": {"message": "response_format not supported"}}}
        return '{"label": "a", "confidence": 0}'

    server = chat_server([strict_server, strict_server, strict_server])
    client = make_client(server)
    assert client.structured(USER, Verdict).label == "a"
    assert client.json_mode is False
    assert client.structured(USER, Verdict).label == "a"
    assert ["response_format" in r for r in server.requests] == [True, False, False]


def test_http_500_becomes_llm_error_naming_the_status(chat_server):
    server = chat_server([{"status": 500, "body": {"error": {"message": "overloaded"}}}])
    with pytest.raises(LLMError, match="HTTP 500") as info:
        make_client(server).chat(USER)
    assert "overloaded" in str(info.value)
    assert info.value.__cause__ is not None


@pytest.mark.parametrize("raw", ["this is not json", "{}", '{"choices": []}'])
def test_malformed_body_becomes_llm_error(chat_server, raw):
    server = chat_server([{"raw": raw}])
    client = make_client(server)
    with pytest.raises(LLMError):
        client.chat(USER)
    assert client.usage.calls == 0


def test_exhausted_script_fails_loudly(chat_server):
    server = chat_server(["only one"])
    client = make_client(server)
    client.chat(USER)
    with pytest.raises(LLMError, match="script exhausted"):
        client.chat(USER)


def test_unreachable_endpoint_becomes_llm_error(chat_server):
    server = chat_server([])
    url = server.base_url
    server.stop()
    with pytest.raises(LLMError, match="could not reach"):
        OpenAIChat("m", base_url=url, max_retries=0, timeout=5).chat(USER)


def test_sdk_retries_are_passed_through(chat_server):
    # max_retries=1: the SDK retries a 500 itself, so the second item answers
    server = chat_server([{"status": 500, "body": "busy"}, "recovered"])
    client = OpenAIChat("m", base_url=server.base_url, max_retries=1, timeout=10)
    assert client.chat(USER).content == "recovered"
    assert len(server.requests) == 2


def test_from_env_reads_the_three_variables(chat_server):
    server = chat_server(["hi"])
    env = {"MEMKIT_LLM_BASE_URL": server.base_url, "MEMKIT_LLM_MODEL": "env-model", "MEMKIT_LLM_API_KEY": "sk-x"}
    client = OpenAIChat.from_env(env, max_retries=0)
    assert client.model == "env-model"
    assert client.chat(USER).content == "hi"
    assert server.requests[0]["model"] == "env-model"


def test_from_env_defaults_to_os_environ(monkeypatch):
    monkeypatch.setenv("MEMKIT_LLM_BASE_URL", "http://127.0.0.1:9/v1")
    monkeypatch.setenv("MEMKIT_LLM_MODEL", "m")
    monkeypatch.delenv("MEMKIT_LLM_API_KEY", raising=False)
    assert OpenAIChat.from_env().base_url == "http://127.0.0.1:9/v1"


@pytest.mark.parametrize(
    ("env", "missing"),
    [
        ({}, "MEMKIT_LLM_BASE_URL"),
        ({"MEMKIT_LLM_BASE_URL": "http://127.0.0.1:1/v1"}, "MEMKIT_LLM_MODEL"),
        ({"MEMKIT_LLM_BASE_URL": "  ", "MEMKIT_LLM_MODEL": "m"}, "MEMKIT_LLM_BASE_URL"),
    ],
)
def test_from_env_names_the_missing_variable(env, missing):
    with pytest.raises(ConfigError, match=missing):
        OpenAIChat.from_env(env)


@pytest.mark.parametrize(
    ("kwargs", "problem"),
    [
        ({"model": "", "base_url": "http://x"}, "model"),
        ({"model": "m", "base_url": ""}, "base_url"),
        ({"model": "m", "base_url": "http://x", "max_retries": -1}, "max_retries"),
    ],
)
def test_bad_constructor_arguments_raise_config_error(kwargs, problem):
    model = kwargs.pop("model")
    with pytest.raises(ConfigError, match=problem):
        OpenAIChat(model, **kwargs)


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ('{"a": 1}', {"a": 1}),
        ('```json\n{"a": [1, {"b": 2}]}\n```', {"a": [1, {"b": 2}]}),
        ('```\n{"a": 1}\n```', {"a": 1}),
        ('I think {"a": "}"} is right', {"a": "}"}),
        ('{bad} then {"a": 2}', {"a": 2}),
    ],
)
def test_extract_json_object(text, expected):
    assert extract_json_object(text) == expected


json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.text(),
    lambda children: st.lists(children, max_size=3) | st.dictionaries(st.text(), children, max_size=3),
    max_leaves=10,
)


@settings(max_examples=60, deadline=None)
@given(
    st.dictionaries(st.text(), json_values, max_size=4),
    st.sampled_from(["{}", "```json\n{}\n```", "Answer: {} ."]),
)
def test_extract_json_object_round_trips_any_object(obj, frame):
    text = frame.replace("{}", json.dumps(obj))
    assert extract_json_object(text) == obj
