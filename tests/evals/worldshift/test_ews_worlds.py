"""The shipped EnterpriseWorldShift worlds: regenerated exactly by their script, and meeting their quotas."""

from __future__ import annotations

import re
from collections import Counter

import pytest

from memkit.rules import Engine, parse_rule

from evals.worldshift import generate_ews
from evals.worldshift.generate_ews import SHIFT_RULES, condition_fields
from evals.worldshift.worlds_index import load_named_world


@pytest.fixture(scope="module")
def worlds():
    return {k: load_named_world(f"ews-{k}") for k in "ABCD"}


@pytest.fixture(scope="module")
def results(worlds):
    out = {}
    for k, w in worlds.items():
        engine = Engine(w.schema, w.rules)
        initial = w.initial_state()
        out[k] = [engine.run(initial, t) for t in w.tests]
    return out


def test_shipped_files_are_the_generator_output():
    files = generate_ews.generate()
    assert sorted(files) == [f"ews-{k}.yaml" for k in "ABCD"]
    for name, text in files.items():
        assert (generate_ews.WORLD_DIR / name).read_text() == text, f"{name} differs: run python -m evals.worldshift.generate_ews"


def test_world_a_sizes(worlds):
    a = worlds["A"]
    assert len(a.schema.tables) == 9
    assert sum(len(rows) for rows in a.records.values()) == 252
    assert len(a.rules) == 25


def test_shifts_chain_modify_add_delete(worlds):
    assert worlds["B"].shift["modify"] == [SHIFT_RULES["B"]] and worlds["B"].base.name == "ews-A"
    assert worlds["C"].shift["add"] == [SHIFT_RULES["C"]] and worlds["C"].base.name == "ews-B"
    assert worlds["D"].shift["delete"] == [SHIFT_RULES["D"]] and worlds["D"].base.name == "ews-C"
    assert worlds["A"].rule("R05").condition != worlds["B"].rule("R05").condition
    assert {r.id for r in worlds["D"].rules} == {r.id for r in worlds["C"].rules} - {"R12"}


def test_rule_language_coverage(worlds):
    rules = [r.to_dict() for r in worlds["A"].rules]
    kinds = {next(iter(a)) for r in rules for a in r["actions"]}
    assert kinds == {"set", "update", "update_where", "create", "delete_where"}
    assert {e for r in rules for e in r["events"]} == {"insert", "update", "delete"}
    assert {r["when"] for r in rules} == {"before", "after"}
    conditions = " ".join(r.get("condition", "") for r in rules)
    assert re.search(r"current\.\w+\.\w+", conditions), "a dot-walked condition"
    assert re.search(r"[<>]=? \d+", conditions), "numeric thresholds"
    text = " ".join(str(r) for r in rules)
    assert "sum(" in text and "count(" in text
    assert "concat(" not in text, "values must stay learnable: no concatenated ids"


def test_150_tests_half_trigger_quarter_near_quarter_unrelated(worlds, results):
    for k, w in worlds.items():
        assert len(w.tests) == 150
        ops = Counter(t.op for t in w.tests)
        assert min(ops[o] for o in ("insert", "update", "delete")) >= 15, (k, ops)
        assert all(r.error is None for r in results[k])
        cond = condition_fields(w)
        on_trigger = {(r.table, e) for r in w.rules for e in r.events}
        kinds = Counter()
        for t, r in zip(w.tests, results[k]):
            if r.effects:
                kinds["trigger"] += 1
            elif r.fired or ((t.table, t.op) in on_trigger and (t.op != "update" or set(t.values) & cond.get((t.table, t.op), set()))):
                kinds["near"] += 1
            else:
                kinds["unrelated"] += 1
        assert 70 <= kinds["trigger"] <= 85 and kinds["near"] >= 30 and kinds["unrelated"] >= 30, (k, kinds)


def test_inserted_records_look_like_their_table(worlds):
    prefixes = {t: re.match(r"[A-Z]+", rows[0]["id"]).group() for t, rows in worlds["A"].records.items()}
    for w in worlds.values():
        for t in w.tests:
            if t.op == "insert":
                assert t.id.startswith(prefixes[t.table]), t
            assert all(not isinstance(v, (int, float)) or isinstance(v, bool) or v >= 0 for v in t.values.values()), t


def test_every_rule_fires_in_at_least_three_tests(worlds, results):
    for k, w in worlds.items():
        counts = Counter(rid for r in results[k] for rid in set(r.fired))
        low = {r.id: counts[r.id] for r in w.rules if counts[r.id] < 3}
        assert not low, (k, low)


def test_cascades_three_writes_deep_exist(results):
    assert sum(1 for r in results["A"] if r.writes >= 3) >= 2


def test_changed_rule_tests_show_the_new_threshold(worlds, results):
    on_trigger = [(t, r) for t, r in zip(worlds["B"].tests, results["B"]) if "R05" in r.fired]
    assert len(on_trigger) >= 10
    a_engine = Engine(worlds["A"].schema, worlds["A"].rules)
    differ = [t for t, r in on_trigger if a_engine.run(worlds["A"].initial_state(), t).effects != r.effects]
    assert len(differ) >= 5


def test_added_rule_has_ten_tests_on_its_trigger(results):
    assert sum(1 for r in results["C"] if "R26" in r.fired) >= 10


def test_deleted_rule_tests_show_its_effect_gone(worlds):
    # D's tests on R12's trigger (cancelling a request with pending approvals) withdrew them in C and no longer do
    c_world, d_world = worlds["C"], worlds["D"]
    c_engine, d_engine = Engine(c_world.schema, c_world.rules), Engine(d_world.schema, d_world.rules)
    withdrew = [t for t in d_world.tests if "R12" in (r := c_engine.run(c_world.initial_state(), t)).fired
                and any(e[:2] == ("delete", "approval") for e in r.effects)]
    assert len(withdrew) >= 10
    for t in withdrew:
        assert not any(e[:2] == ("delete", "approval") for e in d_engine.run(d_world.initial_state(), t).effects)


def test_a_pair_of_rules_whose_order_matters(worlds):
    # R02 fills a new line's unit price before R01 computes its total: run R02 last and some tests change
    a = worlds["A"]
    swapped = [parse_rule({**r.to_dict(), "order": 30}, a.schema) if r.id == "R02" else r for r in a.rules]
    true_engine, swapped_engine = Engine(a.schema, a.rules), Engine(a.schema, swapped)
    initial = a.initial_state()
    assert any(true_engine.run(initial, t).effects != swapped_engine.run(initial, t).effects for t in a.tests)
