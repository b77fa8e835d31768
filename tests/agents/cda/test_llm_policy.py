"""The LLM discovery policy against a real local chat-completions server with scripted replies.

Each test runs the real discovery graph on the built-in world ``example-A``:
the scripted model reads records, queues writes, edits the rule model, makes
mistakes that must come back to it as tool errors, and stops.
"""

from __future__ import annotations

import json
from typing import Any

import pytest

from memkit.llm import OpenAIChat
from memkit.rules.model import RuleModel

from agents.cda.graph import discover
from agents.cda.llm_policy import LLMPolicy, load_prompts, render_effect
from agents.cda.session import DiscoveryPolicy
from evals.worldshift.platform import Platform
from evals.worldshift.worlds_index import load_named_world

LINE_AMOUNT = {
    "table": "order_line",
    "events": ["insert", "update"],
    "when": "before",
    "condition": "changed(quantity) or changed(unit_price)",
    "actions": [{"set": {"amount": "round(current.quantity * current.unit_price, 2)"}}],
}
ORDER_TOTAL = {
    "table": "order_line",
    "events": ["insert", "update", "delete"],
    "when": "after",
    "actions": [{"update": {"target": "current.order", "set": {"total": "sum(order_line, amount, row.order == current.order)"}}}],
}
# an unbalanced parenthesis: the parser refuses it
BROKEN = dict(LINE_AMOUNT, condition="changed(quantity) or (changed(unit_price)")


@pytest.fixture(scope="module")
def world():
    return load_named_world("example-A")


def setup(world, access: str = "blind") -> tuple[Platform, RuleModel]:
    platform = Platform(world, access=access)
    return platform, RuleModel(world.schema, world.name)


def policy_for(server, **kwargs: Any) -> LLMPolicy:
    return LLMPolicy(OpenAIChat("scripted", base_url=server.base_url, max_retries=0, timeout=10), **kwargs)


def calls(*items: tuple[str, dict[str, Any]]) -> dict[str, Any]:
    return {"tool_calls": [{"name": name, "arguments": args} for name, args in items]}


def last_tool_result(request: dict[str, Any]) -> str:
    return next(m["content"] for m in reversed(request["messages"]) if m["role"] == "tool")


def tool_names(request: dict[str, Any]) -> set[str]:
    return {t["function"]["name"] for t in request.get("tools", [])}


def test_llm_policy_queries_writes_fixes_a_refused_rule_and_stops(world, chat_server):
    seen: dict[str, Any] = {}

    def propose_from_query(request: dict[str, Any]) -> dict[str, Any]:
        # the write must use what the query returned
        rows = json.loads(last_tool_result(request))["rows"]
        line = rows[0]
        seen["line"] = line["id"]
        return calls(("propose_writes", {"writes": [
            {"op": "update", "table": "order_line", "id": line["id"], "values": {"quantity": line["quantity"] + 1},
             "why": "does amount follow quantity?"},
            {"op": "insert", "table": "order_line", "values": {"order": line["order"], "quantity": 1, "unit_price": 5}},
        ]}))

    def fix_after_error(request: dict[str, Any]) -> dict[str, Any]:
        seen["error_shown"] = last_tool_result(request)
        return calls(("model_add", {"rule": LINE_AMOUNT, "reason": "amount = quantity * unit_price", "evidence": []}))

    def induce_from_observations(request: dict[str, Any]) -> dict[str, Any]:
        seen["induce_prompt"] = request["messages"][1]["content"]
        seen["induce_tools"] = tool_names(request)
        return calls(("model_add", {"rule": ORDER_TOTAL, "reason": "order total is the sum of line amounts",
                                    "evidence": [0, 1]}))

    server = chat_server([
        calls(("query", {"table": "order_line"})),
        propose_from_query,
        calls(("model_add", {"rule": BROKEN, "reason": "first try"})),
        fix_after_error,
        calls(("done", {})),
        # induce: the two writes ran
        induce_from_observations,
        calls(("done", {})),
        # the next round: nothing more to try
        calls(("done", {"note": "the model explains every experiment"})),
    ])
    platform, model = setup(world)
    policy = policy_for(server)
    assert isinstance(policy, DiscoveryPolicy)

    report = discover(platform, model, budget=5, policy=policy)

    assert server.remaining == 0
    # the parser's message went back to the model in the very next request
    parser_message = next(e for e in policy.errors if "model_add" in e)
    assert "invalid rule" in parser_message
    assert seen["error_shown"].startswith("Error:") and "invalid rule" in seen["error_shown"]
    assert {"role": "tool", "tool_call_id": server.requests[3]["messages"][-1]["tool_call_id"],
            "content": f"Error: {parser_message}"} == server.requests[3]["messages"][-1]
    assert len(policy.errors) == 1
    # both writes ran on the platform and count against the budget
    assert platform.writes == 2 == report.writes <= 5
    assert [(e.action["op"], e.action["id"]) for e in model.trajectory] == [("update", seen["line"]), ("insert", "X00001")]
    assert model.trajectory[0].note == "llm: does amount follow quantity?"
    # the induce step saw the experiments with the effects and what the model predicted
    assert "set order/O1.total = 60" in seen["induce_prompt"]
    assert "model: predicts" in seen["induce_prompt"]
    assert seen["induce_tools"] == {"model_add", "model_revise", "model_retire", "done"}
    # the model holds the LLM's rules, unchanged by the final audit
    adds = [h for h in model.history if h.op == "add"]
    assert [h.reason for h in adds] == ["amount = quantity * unit_price", "order total is the sum of line amounts"]
    assert report.added == [h.rule_id for h in adds] and report.revised == report.retired == []
    line_amount, order_total = (model.get(h.rule_id) for h in adds)
    assert line_amount.status == order_total.status == "active"
    assert {k: line_amount.rule[k] for k in LINE_AMOUNT} == LINE_AMOUNT
    assert {k: order_total.rule[k] for k in ORDER_TOTAL} == ORDER_TOTAL
    assert len(order_total.evidence) == 2
    # and they predict the world's tests on order lines exactly
    truth = platform.world
    for test in truth.tests[:2]:
        expected = Platform(truth).write(test).effects
        assert sorted(map(repr, model.predict(test, truth.initial_state()))) == sorted(map(repr, expected))


def test_invalid_writes_and_too_many_writes_are_shown_back_and_nothing_runs_from_them(world, chat_server):
    def after_errors(request: dict[str, Any]) -> dict[str, Any]:
        return calls(("propose_writes", {"writes": [{"op": "update", "table": "customer", "id": "C2", "values": {"tier": "gold"}}]}))

    server = chat_server([
        calls(("propose_writes", {"writes": [
            {"op": "update", "table": "order_line", "id": "NOPE", "values": {"quantity": 2}},
            {"op": "update", "table": "customer", "id": "C1", "values": {"tier": "platinum"}},
        ]})),
        calls(("propose_writes", {"writes": [{"op": "delete", "table": "order_line", "id": "L1"}] * 3})),
        calls(("get", {"table": "nowhere", "id": "X"})),
        after_errors,
        calls(("done", {})),
        "nothing to change",  # induce: a plain answer ends the loop
        calls(("done", {})),
    ])
    platform, model = setup(world)
    policy = policy_for(server, writes_per_round=2)
    report = discover(platform, model, budget=10, policy=policy, audit=False)

    assert server.remaining == 0
    assert len(policy.errors) == 3
    assert "NOPE does not exist" in policy.errors[0] and "platinum" in policy.errors[0]
    assert "the limit is 2" in policy.errors[1]
    assert "unknown table 'nowhere'" in policy.errors[2]
    # each error was the tool result the model saw next
    for step, error in zip((1, 2, 3), policy.errors):
        assert last_tool_result(server.requests[step]) == f"Error: {error}"
    # only the valid write ran
    assert report.writes == platform.writes == 1
    assert any("llm plan mistake" in line for line in report.log)


def test_done_without_writes_ends_discovery_within_budget(world, chat_server):
    server = chat_server([calls(("done", {}))])
    platform, model = setup(world)
    policy = policy_for(server)
    report = discover(platform, model, budget=3, policy=policy)
    assert len(server.requests) == 1
    assert report.writes == platform.writes == 0
    assert policy.errors == []


@pytest.mark.parametrize(
    ("access", "offered"),
    [("blind", set()), ("listing", {"list_rules"}), ("definitions", {"list_rules", "read_rule"})],
)
def test_rule_tools_are_offered_only_as_access_allows(world, chat_server, access, offered):
    server = chat_server([calls(("done", {}))])
    platform, model = setup(world, access)
    discover(platform, model, budget=3, policy=policy_for(server))
    names = tool_names(server.requests[0])
    assert names & {"list_rules", "read_rule"} == offered
    assert {"query", "get", "propose_writes", "model_add", "model_revise", "model_retire", "done"} <= names
    system = server.requests[0]["messages"][0]["content"]
    assert ("list_rules" in system) == bool(offered)


def test_listing_access_lets_the_model_read_the_rule_list(world, chat_server):
    def check_listing(request: dict[str, Any]) -> dict[str, Any]:
        listed = json.loads(last_tool_result(request))
        assert {r["id"] for r in listed} == {r.id for r in world.rules}
        return calls(("read_rule", {"id": "line_amount"}))

    server = chat_server([calls(("list_rules", {})), check_listing, calls(("done", {}))])
    platform, model = setup(world, "listing")
    policy = policy_for(server)
    discover(platform, model, budget=3, policy=policy)
    # read_rule is not offered on listing access: calling it anyway is an unknown tool, shown back
    assert len(policy.errors) == 1 and "unknown tool 'read_rule'" in policy.errors[0]


def test_prompts_are_package_data_and_effects_render_compactly():
    prompts = load_prompts()
    assert "expr := or" in prompts.language
    assert set(prompts.tools) >= {"query", "get", "list_rules", "read_rule", "propose_writes", "model_add",
                                  "model_revise", "model_retire", "done"}
    assert render_effect(("set", "order", "O1", "total", 60)) == "set order/O1.total = 60"
    assert render_effect(("create", "approval", "state", "requested")) == 'create approval with state = "requested"'
    assert render_effect(("delete", "approval", "A1")) == "delete approval/A1"
