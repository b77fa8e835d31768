"""The shipped EnterpriseWorldShift worlds: regenerated exactly by their script, and meeting their quotas."""

from __future__ import annotations

import re
from collections import Counter

import pytest

from memkit.rules import Engine

from evals.worldshift import generate_ews
from evals.worldshift.worlds_index import load_named_world


@pytest.fixture(scope="module")
def worlds():
    return {k: load_named_world(f"ews-{k}") for k in "ABCD"}


@pytest.fixture(scope="module")
def fired(worlds):
    out = {}
    for k, w in worlds.items():
        engine = Engine(w.schema, w.rules)
        initial = w.initial_state()
        out[k] = [engine.run(initial, t) for t in w.tests]
    return out


def test_shipped_files_are_the_generator_output():
    files = generate_ews.generate()
    for name, text in files.items():
        assert (generate_ews.WORLD_DIR / name).read_text() == text, f"{name} differs: run python -m evals.worldshift.generate_ews"


def test_world_a_sizes(worlds):
    a = worlds["A"]
    assert len(a.schema.tables) == 9
    assert sum(len(rows) for rows in a.records.values()) == 252
    assert len(a.rules) == 25


def test_shifts_chain_modify_add_delete(worlds):
    assert worlds["B"].shift["modify"] == ["R05"] and worlds["B"].base.name == "ews-A"
    assert worlds["C"].shift["add"] == ["R26"] and worlds["C"].base.name == "ews-B"
    assert worlds["D"].shift["delete"] == ["R12"] and worlds["D"].base.name == "ews-C"
    assert worlds["A"].rule("R05").condition != worlds["B"].rule("R05").condition


def test_rule_language_coverage(worlds):
    rules = [r.to_dict() for r in worlds["A"].rules]
    kinds = {next(iter(a)) for r in rules for a in r["actions"]}
    assert kinds == {"set", "update", "update_where", "create", "delete_where"}
    assert {e for r in rules for e in r["events"]} == {"insert", "update", "delete"}
    assert {r["when"] for r in rules} == {"before", "after"}
    text = " ".join(str(r) for r in rules)
    assert re.search(r"current\.\w+\.\w+", text), "dot-walked paths"
    assert re.search(r"[<>]=? \d+", text), "numeric thresholds"
    assert "sum(" in text and "count(" in text


def test_150_tests_per_world_with_a_mix_of_ops(worlds, fired):
    for k, w in worlds.items():
        assert len(w.tests) == 150
        ops = Counter(t.op for t in w.tests)
        assert set(ops) == {"insert", "update", "delete"}, ops
        triggering = sum(1 for r in fired[k] if r.effects)
        assert 60 <= triggering <= 100, (k, triggering)


def test_every_rule_fires_in_at_least_three_tests(worlds, fired):
    for k, w in worlds.items():
        counts = Counter(rid for r in fired[k] for rid in set(r.fired))
        low = {r.id: counts[r.id] for r in w.rules if counts[r.id] < 3}
        assert not low, (k, low)


def test_cascades_three_writes_deep_exist(worlds):
    w = worlds["A"]
    engine = Engine(w.schema, w.rules)
    deep = [t for t in w.tests if engine.run(w.initial_state(), t).writes >= 3]
    assert len(deep) >= 2


def test_shifted_rules_have_ten_tests_on_their_trigger(worlds, fired):
    b_r05 = sum(1 for r in fired["B"] if "R05" in r.fired)
    c_r26 = sum(1 for r in fired["C"] if "R26" in r.fired)
    assert b_r05 >= 10 and c_r26 >= 10
    # D: tests on R12's trigger (cancelling a request with pending approvals) show the effect is gone
    c_world, d_world = worlds["C"], worlds["D"]
    c_engine = Engine(c_world.schema, c_world.rules)
    on_trigger = [t for t in d_world.tests if "R12" in c_engine.run(c_world.initial_state(), t).fired]
    assert len(on_trigger) >= 10
    d_engine = Engine(d_world.schema, d_world.rules)
    for t in on_trigger:
        effects = d_engine.run(d_world.initial_state(), t).effects
        assert not any(e[0] == "delete" and e[1] == "approval" for e in effects)
