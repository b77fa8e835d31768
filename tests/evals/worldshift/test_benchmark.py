"""The benchmark runner: the oracle proves the pipeline, the floor follows the empty-set rules, the JSON has its shape."""

from __future__ import annotations

import json

import pytest

from memkit.errors import ConfigError

from evals.cli import main
from memkit.rules import load_world
from memkit.rules.model import RuleModel

from evals.worldshift.benchmark import (
    BenchmarkSettings,
    deleted_rule_probes,
    deleted_rule_retired,
    rule_probes,
    rule_recovery,
    run_benchmark,
)
from evals.worldshift.worlds_index import load_named_world, resolve_world

FAMILY = ["example-A", "example-B"]


@pytest.fixture(scope="module")
def worlds():
    return [load_named_world(w) for w in FAMILY]


def test_oracle_scores_one_and_recovers_every_probed_rule(worlds):
    out = run_benchmark(BenchmarkSettings(worlds=FAMILY, methods=["oracle"]), worlds)
    for row in out["results"]:
        assert (row["precision"], row["recall"], row["iou"]) == (1.0, 1.0, 1.0)
        assert row["rules_recovered"] == row["rules_probed"]
        assert row["writes"] == 0


def test_none_follows_the_empty_set_convention(worlds):
    out = run_benchmark(BenchmarkSettings(worlds=FAMILY, methods=["none"]), worlds)
    a = out["results"][0]
    # example-A: one of four tests has no side effects (both empty: 1), the others score 0
    assert a["iou"] == pytest.approx(0.25)
    assert out["results"][1]["iou"] == 0.0


def test_json_shape_has_one_row_per_method_world_seed(worlds):
    out = run_benchmark(BenchmarkSettings(worlds=FAMILY, methods=["none", "continual+audit"], seeds=2, budget=40), worlds)
    assert set(out["settings"]) >= {"worlds", "access", "budget", "methods", "seeds"}
    assert len(out["results"]) == 2 * 2 * 2
    keys = {"method", "world", "seed", "precision", "recall", "iou", "rules_recovered", "rules_true",
            "deleted_rule_retired", "writes", "reads", "seconds", "writes_to_iou_95"}
    for row in out["results"]:
        assert keys <= set(row)
        assert row["writes"] <= 40
    json.dumps(out)  # JSON-able


def test_rule_recovery_is_behavioural(worlds):
    world = worlds[0]
    empty = RuleModel(world.schema, world.name)
    recovered, total, probed = rule_recovery(world, empty)
    assert (recovered, total) == (0, len(world.rules)) and probed >= 1


def _only(world, **rules) -> RuleModel:
    model = RuleModel(world.schema, world.name)
    for rule in world.rules:
        model.add(rules.get(rule.id, rule), reason="t", rule_id=rule.id)
    return model


def test_probes_add_perturbed_writes_that_catch_an_overfitted_rule(worlds):
    world = worlds[0]
    probes = rule_probes(world, "line_amount")
    fired_in_tests = 2  # example-A: the quantity update and the line insert
    assert fired_in_tests < len(probes) <= fired_in_tests + 10
    assert all(p.adds for p in probes)  # each probe shows an effect of the rule
    exact = _only(world)
    overfit = world.rule("line_amount").to_dict() | {"condition": "current.quantity == 3 or current.quantity == 1"}
    fitted = _only(world, line_amount=overfit)
    # the overfitted rule reproduces every test...
    initial = world.initial_state()
    for probe in probes[:fired_in_tests]:
        assert fitted.predict(probe.action, initial) == exact.predict(probe.action, initial)
    # ...but not the perturbed probes, so it does not count as recovered
    table = {r.id: rule_probes(world, r.id) for r in world.rules}
    recovered, _, probed = rule_recovery(world, exact, table)
    assert recovered == probed
    assert any(fitted.predict(p.action, initial) != exact.predict(p.action, initial) for p in probes[fired_in_tests:])
    assert rule_recovery(world, fitted, table)[0] < probed


def _family_with_a_deletion(tmp_path):
    base = resolve_world("example-A")
    path = tmp_path / "example-D.yaml"
    path.write_text(
        "format: worldshift/1\nname: example-D\n"
        f"extends: {base}\n"
        "shift: {delete: [cancel_clears_approvals]}\n"
        "tests:\n"
        "  - {op: update, table: order, id: O1, values: {state: cancelled}}\n"
        "  - {op: update, table: order_line, id: L1, values: {quantity: 3}}\n"
    )
    return load_world(base), load_world(path)


def test_deleted_rule_retired_needs_the_effect_gone_and_an_edit_in_this_world(tmp_path):
    a, d = _family_with_a_deletion(tmp_path)
    probes = deleted_rule_probes(a, d)
    assert list(probes) == ["cancel_clears_approvals"] and probes["cancel_clears_approvals"]
    assert deleted_rule_probes(None, a) == {} and deleted_rule_retired(a, RuleModel(a.schema, "A"), {}) is None
    inherited = _only(a).inherit(d.name)
    assert deleted_rule_retired(d, inherited, probes) is False  # still predicts the deleted effect
    inherited.retire("cancel_clears_approvals", reason="its effect is gone")
    assert deleted_rule_retired(d, inherited, probes) is True
    never_learned = RuleModel(a.schema, "A").inherit(d.name)
    assert deleted_rule_retired(d, never_learned, probes) is False  # nothing was retired or revised in D


def test_benchmark_reports_deletion_only_for_inheriting_methods(tmp_path):
    a, d = _family_with_a_deletion(tmp_path)
    out = run_benchmark(BenchmarkSettings(worlds=["A", "D"], methods=["oracle", "continual+audit"], budget=30), [a, d])
    flags = {(r["method"], r["world"]): r["deleted_rule_retired"] for r in out["results"]}
    assert flags[("oracle", "example-D")] is None and flags[("continual+audit", "example-A")] is None
    assert isinstance(flags[("continual+audit", "example-D")], bool)


def test_an_exported_model_passes_worldshift_check(tmp_path, capsys):
    world = load_named_world("example-A")
    path = _only(world).export(tmp_path / "learned.yaml", name="learned", records=world.records)
    assert main(["worldshift", "check", str(path)]) == 0
    assert "learned" in capsys.readouterr().out


def test_unknown_method_or_llm_without_endpoint_is_a_config_error(worlds, monkeypatch):
    with pytest.raises(ConfigError):
        run_benchmark(BenchmarkSettings(worlds=FAMILY, methods=["magic"]), worlds)
    with pytest.raises(ConfigError):
        run_benchmark(BenchmarkSettings(worlds=FAMILY, methods=["llm"]), worlds)


def test_cli_run_writes_json_and_plot(tmp_path, capsys):
    out_json, out_png = tmp_path / "r.json", tmp_path / "r.png"
    code = main(["worldshift", "run", "--worlds", *FAMILY, "--methods", "none,oracle", "--json", str(out_json), "--plot", str(out_png)])
    assert code == 0
    data = json.loads(out_json.read_text())
    assert {r["method"] for r in data["results"]} == {"none", "oracle"}
    assert out_png.read_bytes()[:4] == b"\x89PNG"
    out = capsys.readouterr().out
    assert "oracle" in out
    # each world's result is logged as it is scored, before the table
    lines = out.splitlines()
    first = next(i for i, line in enumerate(lines) if line.startswith("oracle example-A seed 0: IoU 1.000"))
    assert first < next(i for i, line in enumerate(lines) if "EnterpriseWorldShift: side-effect" in line)
    assert any(line.startswith("none example-B seed 0: IoU 0.000") and "deleted rule" not in line for line in lines)


@pytest.mark.parametrize(
    "argv",
    [
        ["worldshift", "run", "--worlds", "example-A", "--methods", "nope"],
        ["worldshift", "run", "--worlds", "no-such-world"],
        ["worldshift", "run", "--worlds", "example-A", "--methods", "llm"],
        ["worldshift", "run", "--worlds", "example-A", "--access", "psychic"],
        ["worldshift", "run", "--worlds", "example-A", "--budget", "lots"],
        ["worldshift", "run", "--worlds", "example-A", "--budget", "-1"],
        ["worldshift", "run", "--worlds", "example-A", "--seeds", "0"],
        ["worldshift", "check", "no-such-world"],
    ],
)
def test_user_errors_exit_2_with_one_line(argv, capsys, monkeypatch):
    monkeypatch.delenv("MEMKIT_LLM_BASE_URL", raising=False)
    monkeypatch.delenv("MEMKIT_LLM_MODEL", raising=False)
    assert main(argv) == 2
    err = capsys.readouterr().err.strip()
    assert err.startswith("memkit: error:") and "\n" not in err


def test_cli_store_saves_each_learned_model_per_world(tmp_path, worlds):
    from stores.rule_store import SQLiteRuleStore

    db = tmp_path / "models.db"
    code = main(["worldshift", "run", "--worlds", *FAMILY, "--methods", "oracle,continual", "--budget", "10",
                 "--store", str(db)])
    assert code == 0
    store = SQLiteRuleStore(db, worlds[0].schema)
    try:
        assert store.worlds() == ["continual/0/example-A", "continual/0/example-B"]
        a, b = store.load("continual/0/example-A"), store.load("continual/0/example-B")
        assert (a.world, b.world) == ("example-A", "example-B")
        # B's model was inherited from A's: it starts with A's whole history
        assert [h.model_dump() for h in b.history[: len(a.history)]] == [h.model_dump() for h in a.history]
    finally:
        store.close()


def test_a_deleted_rule_is_retired_though_a_kept_rule_makes_a_look_alike(tmp_path):
    # the deleted notice and a kept one go to the same member on the same write: predicting the
    # kept notice is right in D and must not count as the deleted rule surviving
    rule = ("  - {{id: {id}, table: loan, events: [update], when: after, condition: \"changes_to(state, 'overdue')\",\n"
            "     actions: [{{create: {{table: notice, values: {{member: current.member, kind: \"'{kind}'\"}}}}}}]}}\n")
    (tmp_path / "loans-A.yaml").write_text(
        "format: worldshift/1\nname: loans-A\n"
        "tables:\n"
        "  member: {fields: {name: {type: string}}}\n"
        "  loan: {fields: {member: {type: reference, ref: member}, state: {type: choice, choices: [out, overdue], default: out}}}\n"
        "  notice: {fields: {member: {type: reference, ref: member}, kind: {type: choice, choices: [overdue, limit]}}}\n"
        "records:\n  member: [{id: M1, name: a}]\n  loan: [{id: L1, member: M1}]\n  notice: []\n"
        "rules:\n" + rule.format(id="overdue_notice", kind="overdue") + rule.format(id="limit_notice", kind="limit")
        + "tests:\n  - {op: update, table: loan, id: L1, values: {state: overdue}}\n")
    (tmp_path / "loans-D.yaml").write_text(
        "format: worldshift/1\nname: loans-D\nextends: loans-A.yaml\nshift: {delete: [overdue_notice]}\n"
        "tests:\n  - {op: update, table: loan, id: L1, values: {state: overdue}}\n")
    a, d = load_world(tmp_path / "loans-A.yaml"), load_world(tmp_path / "loans-D.yaml")
    probes = deleted_rule_probes(a, d)
    kept = _only(a).inherit(d.name)
    assert deleted_rule_retired(d, kept, probes) is False
    kept.retire("overdue_notice", reason="no overdue notice any more")
    assert deleted_rule_retired(d, kept, probes) is True
