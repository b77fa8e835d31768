"""The tool loop against a real local chat-completions server: mistakes shown back, bugs raised, stop reasons."""

from __future__ import annotations

import json

import pytest
from pydantic import BaseModel

from memkit.errors import ConfigError, StoreError
from memkit.llm import OpenAIChat
from memkit.llm_tools import Tool, format_tool_output, run_tool_loop


class AddArgs(BaseModel):
    a: int
    b: int


class LookupArgs(BaseModel):
    key: str


class AnswerArgs(BaseModel):
    text: str


TABLE = {"flu": "viral", "strep": "bacterial"}


def lookup(args: LookupArgs) -> dict[str, str]:
    if args.key not in TABLE:
        raise StoreError(f"no entry {args.key!r}")
    return {"key": args.key, "kind": TABLE[args.key]}


ADD = Tool("add", "Add two integers.", AddArgs, lambda args: args.a + args.b)
LOOKUP = Tool("lookup", "Look up a disease.", LookupArgs, lookup)
ANSWER = Tool("answer", "Give the final answer.", AnswerArgs, lambda args: args.text.upper())

USER = [{"role": "user", "content": "what is 2+3?"}]


def client(server) -> OpenAIChat:
    return OpenAIChat("m", base_url=server.base_url, max_retries=0, timeout=10)


def call(name: str, arguments, id: str | None = None) -> dict:  # noqa: A002
    item = {"name": name, "arguments": arguments}
    if id:
        item["id"] = id
    return item


def test_tool_schema_is_the_openai_tools_form():
    schema = ADD.schema()
    assert schema["type"] == "function"
    assert schema["function"]["name"] == "add"
    assert schema["function"]["description"] == "Add two integers."
    assert schema["function"]["parameters"]["required"] == ["a", "b"]


@pytest.mark.parametrize("name", ["", "has space", "x" * 65, "dot.name"])
def test_bad_tool_names_are_config_errors(name):
    with pytest.raises(ConfigError, match="tool name"):
        Tool(name, "d", AddArgs, lambda a: 0)


def test_loop_runs_tools_and_ends_on_plain_answer(chat_server):
    server = chat_server([{"tool_calls": [call("add", {"a": 2, "b": 3}, id="c1")]}, "It is 5."])
    result = run_tool_loop(client(server), USER, [ADD, LOOKUP])
    assert result.stopped == "answer"
    assert result.content == "It is 5."
    assert len(result.steps) == 2
    assert result.steps[0].results == ["5"] and result.steps[0].errors == [None] and result.steps[0].values == [5]
    assert result.errors == []
    # the second request carries the assistant tool call and the tool result
    second = server.requests[1]
    assert [t["function"]["name"] for t in second["tools"]] == ["add", "lookup"]
    assert second["messages"][-2]["tool_calls"][0]["function"] == {"name": "add", "arguments": '{"a": 2, "b": 3}'}
    assert second["messages"][-1] == {"role": "tool", "tool_call_id": "c1", "content": "5"}
    assert result.messages == [*second["messages"], {"role": "assistant", "content": "It is 5."}]
    assert result.usage.calls == 2
    assert USER == [{"role": "user", "content": "what is 2+3?"}]  # the caller's list is not modified


def test_json_results_are_serialized():
    assert format_tool_output({"a": [1, "é"]}) == '{"a": [1, "é"]}'
    assert format_tool_output("text") == "text"
    assert json.loads(format_tool_output(AddArgs(a=1, b=2))) == {"a": 1, "b": 2}


@pytest.mark.parametrize(
    ("bad_call", "shown"),
    [
        (call("multiply", {"a": 1}), "unknown tool 'multiply'; available tools: add, lookup"),
        (call("add", "{a: 1"), "invalid arguments for tool 'add': arguments are not valid JSON"),
        (call("add", {"a": "two", "b": 3}), "invalid arguments for tool 'add'"),
        (call("add", {"a": 1}), "b\n  Field required"),
        (call("lookup", {"key": "measles"}), "tool 'lookup' failed: no entry 'measles'"),
    ],
)
def test_model_mistakes_are_shown_back_not_raised(chat_server, bad_call, shown):
    server = chat_server(
        [{"tool_calls": [bad_call]}, {"tool_calls": [call("add", {"a": 2, "b": 3})]}, "5"]
    )
    result = run_tool_loop(client(server), USER, [ADD, LOOKUP])
    assert result.stopped == "answer" and result.content == "5"
    first = result.steps[0]
    assert first.has_errors and shown in first.errors[0]
    assert first.results[0].startswith("Error: ") and shown in first.results[0]
    # the model saw the error as the tool result, then recovered
    tool_message = server.requests[1]["messages"][-1]
    assert tool_message["role"] == "tool" and tool_message["content"] == first.results[0]
    assert result.steps[1].errors == [None] and result.steps[1].results == ["5"]
    assert len(result.errors) == 1


def test_several_calls_in_one_reply_each_get_a_result(chat_server):
    server = chat_server(
        [
            {"tool_calls": [call("add", {"a": 1, "b": 1}, "x"), call("nope", {}, "y"), call("lookup", {"key": "flu"}, "z")]},
            "done",
        ]
    )
    result = run_tool_loop(client(server), USER, [ADD, LOOKUP])
    step = result.steps[0]
    assert step.results[0] == "2"
    assert step.errors[1] is not None and step.results[1].startswith("Error:")
    assert json.loads(step.results[2]) == {"key": "flu", "kind": "viral"}
    tool_messages = [m for m in server.requests[1]["messages"] if m["role"] == "tool"]
    assert [m["tool_call_id"] for m in tool_messages] == ["x", "y", "z"]


def test_bugs_in_tools_are_re_raised(chat_server):
    def broken(args: AddArgs) -> int:
        raise ZeroDivisionError("a bug, not a model mistake")

    server = chat_server([{"tool_calls": [call("div", {"a": 1, "b": 0})]}])
    with pytest.raises(ZeroDivisionError):
        run_tool_loop(client(server), USER, [Tool("div", "Divide.", AddArgs, broken)])


def test_stop_tool_ends_the_loop_with_its_value(chat_server):
    server = chat_server(
        [{"tool_calls": [call("answer", {"text": "five"}, "s"), call("add", {"a": 1, "b": 1})]}]
    )
    result = run_tool_loop(client(server), USER, [ADD, ANSWER], stop_tool="answer")
    assert result.stopped == "stop_tool"
    assert result.stop_value == "FIVE"
    assert result.stop_call is not None and result.stop_call.arguments == {"text": "five"}
    # a call after the stop tool is not run, and the loop made only one request
    assert result.steps[0].errors[1] is not None
    assert len(server.requests) == 1


def test_invalid_stop_tool_call_does_not_stop(chat_server):
    server = chat_server([{"tool_calls": [call("answer", {})]}, {"tool_calls": [call("answer", {"text": "ok"})]}])
    result = run_tool_loop(client(server), USER, [ANSWER], stop_tool="answer")
    assert result.stopped == "stop_tool" and result.stop_value == "OK"
    assert len(result.steps) == 2 and result.steps[0].has_errors


def test_max_steps_bounds_the_requests(chat_server):
    server = chat_server([{"tool_calls": [call("add", {"a": 1, "b": 1})]}] * 10)
    result = run_tool_loop(client(server), USER, [ADD], max_steps=3)
    assert result.stopped == "max_steps"
    assert len(server.requests) == 3 and len(result.steps) == 3
    assert result.content is None


@pytest.mark.parametrize(
    ("tools", "kwargs", "problem"),
    [
        ([ADD, ADD], {}, "two tools are named 'add'"),
        ([ADD], {"stop_tool": "answer"}, "stop_tool 'answer'"),
        ([ADD], {"max_steps": 0}, "max_steps"),
    ],
)
def test_bad_loop_configuration_is_a_config_error(chat_server, tools, kwargs, problem):
    server = chat_server([])
    with pytest.raises(ConfigError, match=problem):
        run_tool_loop(client(server), USER, tools, **kwargs)
    assert server.requests == []
