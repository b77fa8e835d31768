"""The shipped WorldShift families (ews, holdout, fresh, novel, sealed): regenerated exactly, meeting their quotas, built without agent code.

Every check runs for every family; what differs between families (sizes,
quotas, what B changes, what C adds, the effect D retires, the rule pairs
whose order matters) is in ``SPECS``; checks of one family's own shift are
small separate tests at the end.
"""

from __future__ import annotations

import ast
import importlib
import inspect
import itertools
import re
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass
from decimal import ROUND_HALF_UP, Decimal
from functools import cache
from types import ModuleType
from typing import Any

import pytest

from memkit.rules import Engine, World, parse_rule, score_world
from memkit.rules.model import RuleModel
from memkit.rules.predict import effects_of_tests

from evals.worldshift import (generate_campus, generate_factory, generate_fleet, generate_fresh, generate_harbor, generate_holdout,
                              generate_hotel, generate_lease, generate_payroll, generate_sealed, generate_vault)
from evals.worldshift._selection import condition_fields
from evals.worldshift._world_writer import WORLD_DIR, WorldFamily
from evals.worldshift.worlds_index import load_named_world


@dataclass(frozen=True)
class Spec:
    """What one family must look like."""

    sizes: tuple[int, int, int]  # world A's tables, records, rules
    tests: int  # per world
    trigger: tuple[int, int]  # tests per world whose effects are not empty: at least, at most
    near: int  # near misses per world, at least
    unrelated: int  # unrelated writes per world, at least
    per_op: int  # inserts, updates and deletes per world, each at least
    b_change: tuple[str, str, str]  # B's rule: which part changes (condition or actions), from what to what
    c_creates: tuple[str, str, str]  # C's rule creates a record: of which table, with which field set to what
    d_effect: Callable[[tuple[Any, ...]], bool]  # an effect of the rule D deletes
    conditions: tuple[str, ...]  # patterns the conditions of A's rules must show between them
    order_pairs: tuple[tuple[str, int], ...]  # a rule and an order: A's tests change when that rule runs at that order


SPECS = {
    "ews": Spec((9, 252, 25), 150, (70, 85), 30, 30, 15, ("condition", "5000", "2000"), ("approval", "level", "'finance'"),
                lambda e: e[:2] == ("delete", "approval"), (r"current\.\w+\.\w+",), (("R02", 30),)),
    "holdout": Spec((8, 133, 18), 60, (27, 40), 10, 10, 5, ("actions", f"* {generate_holdout.FEE_PER_KG_A},", f"* {generate_holdout.FEE_PER_KG_B},"),
                    ("purchase_order", "state", "'draft'"), lambda e: e[:2] == ("create", "alert"), (r"current\.\w+\.\w+",),
                    (("H01", 30), ("H08", 30))),
    "fresh": Spec((8, 194, 20), 60, (27, 40), 10, 10, 5,
                  ("condition", str(generate_fresh.REVIEW_MG_A), str(generate_fresh.REVIEW_MG_B)),
                  ("ward_task", "kind", "'discharge_planning'"), lambda e: e[:2] == ("set", "prescription") and e[3:] == ("active", False),
                  (r"current\.\w+\.\w+\.\w+", r"current\.\w+ [<>]=? current\.\w+", r"is_empty\("), (("M01", 30), ("M14", 30))),
    "novel": Spec((8, 205, 21), 60, (27, 40), 10, 10, 5, ("condition", "== 'child'", "in ['child', 'senior']"),
                  ("notice", "kind", "'loan_limit'"), lambda e: e[:2] == ("create", "notice") and e[2:] == ("kind", "overdue"),
                  (r"current\.\w+\.\w+\.\w+", r"current\.\w+ [<>]=? current\.\w+", r"is_empty\("), (("L01", 30), ("L05", 35))),
    "sealed": Spec((8, 201, 22), 60, (27, 40), 10, 10, 5,
                   ("condition", f">= {generate_sealed.SIU_SCORE_A} ", f">= {generate_sealed.SIU_SCORE_B} "),
                   ("diary", "kind", "'large_loss_report'"), lambda e: e[:2] == ("create", "letter") and e[2:] == ("kind", "denial"),
                   (r"current\.\w+\.\w+\.\w+", r"current\.\w+ [<>]=? current\.\w+", r"is_empty\("), (("P01", 30), ("P05", 35))),
    "vault": Spec((8, 217, 22), 60, (27, 40), 10, 10, 5,
                  ("actions", f"* {generate_vault.LATE_FEE_RATE_A},", f"* {generate_vault.LATE_FEE_RATE_B},"),
                  ("field_order", "kind", "'meter_exchange'"),
                  lambda e: e[:2] == ("create", "disconnection_notice") and e[2:] == ("kind", "final_notice"),
                  (r"current\.\w+\.\w+\.\w+", r"current\.\w+ [<>]=? current\.\w+", r"is_empty\("), (("V11", 20), ("V12", 25))),
    "harbor": Spec((8, 200, 22), 60, (27, 40), 10, 10, 5,
                   ("condition", f"> {generate_harbor.WEIGHT_CHECK_A} ", f"> {generate_harbor.WEIGHT_CHECK_B} "),
                   ("terminal_invoice", "kind", "'reefer_power'"),
                   lambda e: e[:2] == ("create", "customs_hold") and e[2:] == ("reason", "dangerous_goods"),
                   (r"current\.\w+\.\w+\.\w+", r"current\.\w+ [<>]=? current\.\w+", r"is_empty\("), (("Q01", 30), ("Q08", 25))),
    # lease: most tests have side effects (its rules cascade widely), so fewer near misses and unrelated writes remain
    "lease": Spec((8, 200, 22), 60, (30, 50), 5, 5, 5,
                  ("condition", f"> {generate_lease.GRACE_DAYS_A} ", f"> {generate_lease.GRACE_DAYS_B} "),
                  ("lease_notice", "kind", "'inspection'"),
                  lambda e: e[:2] == ("create", "lease_notice") and e[2:] == ("kind", "late_rent"),
                  (r"current\.\w+\.\w+\.\w+", r"current\.\w+ [<>]=? current\.\w+", r"is_empty\("), (("L01", 30), ("L11", 25))),
    "fleet": Spec((8, 200, 24), 60, (27, 40), 10, 10, 5,
                  ("condition", f"> {generate_fleet.SERVICE_KM_A} ", f"> {generate_fleet.SERVICE_KM_B} "),
                  ("service_order", "kind", "'inspection'"),
                  lambda e: e[:2] == ("create", "service_order") and e[2:] == ("kind", "scheduled_service"),
                  (r"current\.\w+\.\w+\.\w+", r"current\.\w+ [<>]=? current\.\w+", r"is_empty\("), (("F02", 5), ("F08", 15))),
    "campus": Spec((8, 214, 24), 60, (27, 40), 10, 10, 5,
                   ("condition", f"< {generate_campus.PROBATION_GPA_A:g} ", f"< {generate_campus.PROBATION_GPA_B:g} "),
                   ("advising_notice", "kind", "'seat_offered'"),
                   lambda e: e[:2] == ("create", "tuition_charge") and e[2:] == ("kind", "lab_fee"),
                   (r"current\.\w+\.\w+\.\w+", r"current\.\w+ [<>]=? current\.\w+", r"is_empty\("), (("U01", 35), ("U18", 35))),
    "payroll": Spec((9, 209, 24), 60, (27, 40), 10, 10, 5,
                    ("actions", f"* {generate_payroll.TOP_RATE_A},", f"* {generate_payroll.TOP_RATE_B},"),
                    ("hr_notice", "kind", "'pay_review'"),
                    lambda e: e[:2] == ("set", "employee") and e[3:] == ("status", "on_leave"),
                    (r"current\.\w+\.\w+\.\w+", r"current\.\w+ [<>]=? current\.\w+", r"is_empty\("), (("P01", 35), ("P07", 35))),
    "factory": Spec((9, 200, 24), 60, (27, 40), 10, 10, 5,
                    ("actions", f"> {generate_factory.DEFECT_LIMIT_A:g},", f"> {generate_factory.DEFECT_LIMIT_B:g},"),
                    ("inspection", "stage", "'first_article'"),
                    lambda e: e[:2] == ("create", "buy_order"),
                    (r"current\.\w+\.\w+\.\w+", r"current\.\w+ [<>]=? current\.\w+", r"is_empty\("), (("M01", 30), ("M22", 30))),
    "hotel": Spec((10, 200, 24), 60, (27, 40), 10, 10, 5,
                  ("actions", f"'gold', {generate_hotel.GOLD_DISCOUNT_A}, 0)", f"'gold', {generate_hotel.GOLD_DISCOUNT_B}, 0)"),
                  ("housekeeping_task", "kind", "'stayover'"),
                  lambda e: e[:2] == ("create", "housekeeping_task") and e[2:] in (("kind", "departure_clean"), ("kind", "deep_clean")),
                  (r"current\.\w+\.\w+\.\w+", r"current\.\w+ [<>]=? current\.\w+", r"is_empty\("), (("H01", 35), ("H02", 35))),
}
FAMILIES = tuple(SPECS)
ORDER_PAIRS = [(f, rule, order) for f in FAMILIES for rule, order in SPECS[f].order_pairs]


def _module(family: str) -> ModuleType:
    return importlib.import_module(f"evals.worldshift.generate_{family}")


def _family(family: str) -> WorldFamily:
    return _module(family).FAMILY


@cache
def _worlds(family: str) -> dict[str, World]:
    return {k: load_named_world(f"{family}-{k}") for k in "ABCD"}


@cache
def _results(family: str) -> dict[str, list[Any]]:
    out = {}
    for k, w in _worlds(family).items():
        engine = Engine(w.schema, w.rules)
        initial = w.initial_state()
        out[k] = [engine.run(initial, t) for t in w.tests]
    return out


def _effects(world: World, test: Any) -> list[Any]:
    return Engine(world.schema, world.rules).run(world.initial_state(), test).effects


def _imports(module: ModuleType) -> set[str]:
    """Modules that ``module`` imports, and those the private evals.worldshift helpers it imports import, and so on."""
    seen: set[str] = set()
    todo = [module]
    while todo:
        tree = ast.parse(inspect.getsource(todo.pop()))
        names = {n.module or "" for n in ast.walk(tree) if isinstance(n, ast.ImportFrom)}
        names |= {a.name for n in ast.walk(tree) if isinstance(n, ast.Import) for a in n.names}
        for name in names - seen:
            if name.startswith("evals.worldshift._"):
                todo.append(importlib.import_module(name))
        seen |= names
    return seen


@pytest.mark.parametrize("family", FAMILIES)
def test_shipped_files_are_the_generator_output(family):
    files = _family(family).generate()
    assert sorted(files) == [f"{family}-{k}.yaml" for k in "ABCD"]
    for name, text in files.items():
        assert (WORLD_DIR / name).read_text() == text, f"{name} differs: run python -m evals.worldshift.generate_{family}"


@pytest.mark.parametrize("family", FAMILIES)
def test_generator_uses_no_agent_code(family):
    imported = _imports(_module(family))
    assert any(m.startswith("evals.worldshift._") for m in imported), "the shared writer is followed"
    assert not {m for m in imported if m.split(".")[0] in ("agents", "stores")}, imported
    # the benchmark module imports the agent, so the generator must not lean on it either
    assert "evals.worldshift.benchmark" not in imported


@pytest.mark.parametrize("family", FAMILIES)
def test_world_a_sizes(family):
    a = _worlds(family)["A"]
    assert (len(a.schema.tables), sum(len(rows) for rows in a.records.values()), len(a.rules)) == SPECS[family].sizes


@pytest.mark.parametrize(("one", "other"), list(itertools.combinations(FAMILIES, 2)))
def test_families_share_no_table_name(one, other):
    assert not set(_worlds(one)["A"].schema.tables) & set(_worlds(other)["A"].schema.tables)


@pytest.mark.parametrize("family", FAMILIES)
def test_shifts_chain_modify_add_delete(family):
    worlds, rules = _worlds(family), _family(family).shift_rules
    assert worlds["B"].shift["modify"] == [rules["B"]] and worlds["B"].base.name == f"{family}-A"
    assert worlds["C"].shift["add"] == [rules["C"]] and worlds["C"].base.name == f"{family}-B"
    assert worlds["D"].shift["delete"] == [rules["D"]] and worlds["D"].base.name == f"{family}-C"
    assert rules["C"] not in {r.id for r in worlds["B"].rules}
    assert {r.id for r in worlds["D"].rules} == {r.id for r in worlds["C"].rules} - {rules["D"]}


@pytest.mark.parametrize("family", FAMILIES)
def test_b_changes_only_what_its_description_says(family):
    rules = _family(family).shift_rules
    before, after = _worlds(family)["A"].rule(rules["B"]).to_dict(), _worlds(family)["B"].rule(rules["B"]).to_dict()
    part, old, new = SPECS[family].b_change
    kept = "actions" if part == "condition" else "condition"
    assert str(before[part]) != str(after[part])
    assert str(before[part]).replace(old, new) == str(after[part])
    assert before.get(kept) == after.get(kept) and before["table"] == after["table"]


@pytest.mark.parametrize("family", FAMILIES)
def test_c_adds_a_rule_that_creates_a_record(family):
    table, field, value = SPECS[family].c_creates
    create = _worlds(family)["C"].rule(_family(family).shift_rules["C"]).to_dict()["actions"][0]["create"]
    assert create["table"] == table and create["values"][field] == value


@pytest.mark.parametrize("family", FAMILIES)
def test_rule_language_coverage(family):
    rules = [r.to_dict() for r in _worlds(family)["A"].rules]
    assert {next(iter(a)) for r in rules for a in r["actions"]} == {"set", "update", "update_where", "create", "delete_where"}
    assert {e for r in rules for e in r["events"]} == {"insert", "update", "delete"}
    assert {r["when"] for r in rules} == {"before", "after"}
    conditions = " ".join(r.get("condition", "") for r in rules)
    assert re.search(r"[<>]=? \d+", conditions), "numeric thresholds"
    for pattern in SPECS[family].conditions:
        assert re.search(pattern, conditions), pattern
    text = " ".join(str(r) for r in rules)
    assert "sum(" in text and "count(" in text
    assert "concat(" not in text, "values must stay learnable: no concatenated ids"


def test_novel_rounds_a_money_value():
    text = " ".join(str(r.to_dict()) for r in _worlds("novel")["A"].rules)
    assert re.search(r"round\(.*, 2\)", text), "a money value rounded to 2 decimals"


@pytest.mark.parametrize("family", FAMILIES)
def test_tests_per_world_half_trigger_quarter_near_quarter_unrelated(family):
    spec = SPECS[family]
    assert _family(family).tests_per_world == spec.tests
    for k, w in _worlds(family).items():
        results = _results(family)[k]
        assert len(w.tests) == spec.tests
        ops = Counter(t.op for t in w.tests)
        assert set(ops) == {"insert", "update", "delete"} and min(ops.values()) >= spec.per_op, (k, ops)
        assert all(r.error is None for r in results)
        cond = condition_fields(w)
        on_trigger = {(r.table, e) for r in w.rules for e in r.events}
        kinds: Counter[str] = Counter()
        for t, r in zip(w.tests, results):
            if r.effects:
                kinds["trigger"] += 1
            elif r.fired or ((t.table, t.op) in on_trigger and (t.op != "update" or set(t.values) & cond.get((t.table, t.op), set()))):
                kinds["near"] += 1
            else:
                kinds["unrelated"] += 1
        assert spec.trigger[0] <= kinds["trigger"] <= spec.trigger[1], (k, kinds)
        assert kinds["near"] >= spec.near and kinds["unrelated"] >= spec.unrelated, (k, kinds)


@pytest.mark.parametrize("family", FAMILIES)
def test_inserted_records_look_like_their_table(family):
    worlds = _worlds(family)
    prefixes = {t: re.match(r"[A-Z]+", rows[0]["id"]).group() for t, rows in worlds["A"].records.items()}
    for w in worlds.values():
        for t in w.tests:
            if t.op == "insert":
                assert t.id.startswith(prefixes[t.table]), t
            assert all(not isinstance(v, (int, float)) or isinstance(v, bool) or v >= 0 for v in t.values.values()), t


@pytest.mark.parametrize("family", FAMILIES)
def test_every_rule_fires_in_at_least_three_tests(family):
    for k, w in _worlds(family).items():
        counts = Counter(rid for r in _results(family)[k] for rid in set(r.fired))
        low = {r.id: counts[r.id] for r in w.rules if counts[r.id] < 3}
        assert not low, (k, low)


@pytest.mark.parametrize("family", FAMILIES)
def test_cascades_three_writes_deep(family):
    assert sum(1 for r in _results(family)["A"] if r.writes >= 3) >= 2


@pytest.mark.parametrize("family", FAMILIES)
def test_oracle_scores_one(family):
    # the true rules, held in a rule model and predicted through it, reproduce every test exactly
    for w in _worlds(family).values():
        model = RuleModel(w.schema, w.name)
        for rule in w.rules:
            model.add(rule, reason="oracle", rule_id=rule.id)
        initial = w.initial_state()
        truth = effects_of_tests(w.schema, w.rules, initial, w.tests)
        score = score_world(model.predict_many(w.tests, initial), truth)
        assert (score.precision, score.recall, score.iou) == (1.0, 1.0, 1.0), w.name


@pytest.mark.parametrize("family", FAMILIES)
def test_changed_and_added_rules_have_ten_tests_on_their_trigger(family):
    rules, results = _family(family).shift_rules, _results(family)
    assert sum(1 for r in results["B"] if rules["B"] in r.fired) >= 10
    assert sum(1 for r in results["C"] if rules["C"] in r.fired) >= 10


def _b_differs_from_a(family: str) -> list[tuple[Any, Any]]:
    """B's tests whose effects differ from A's, with their result in B."""
    a, b = _worlds(family)["A"], _worlds(family)["B"]
    return [(t, r) for t, r in zip(b.tests, _results(family)["B"]) if _effects(a, t) != r.effects]


@pytest.mark.parametrize("family", FAMILIES)
def test_b_tests_show_the_changed_rule_at_work(family):
    differ = _b_differs_from_a(family)
    assert len(differ) >= 5
    for t, r in differ:
        assert _family(family).shift_rules["B"] in r.fired, t


def test_holdout_b_charges_the_new_fee():
    # B's tests on the fee trigger show the new rate, not A's
    b, results = _worlds("holdout")["B"], _results("holdout")["B"]
    assert [e for r in results for e in r.effects if e[:2] == ("set", "shipment") and e[3] == "fee"]
    for test, r in zip(b.tests, results):
        for e in r.effects:
            if e[:2] == ("set", "shipment") and e[3] == "fee" and e[2] == test.id and "weight" in test.values:
                # the spec rounds half away from zero on the shortest decimal form (50.625 -> 50.63)
                exact = Decimal(repr(test.values["weight"])) * Decimal(repr(generate_holdout.FEE_PER_KG_B))
                assert e[4] == float(exact.quantize(Decimal("0.01"), ROUND_HALF_UP))


def test_fresh_b_reviews_what_a_left_alone():
    # some of B's tests mark a prescription for review that A's threshold would have left alone
    for t, r in _b_differs_from_a("fresh"):
        assert any(e[:2] == ("create", "ward_task") and e[2:] == ("kind", "pharmacy_review") for e in r.effects), t


def test_novel_b_waives_what_a_left_open():
    # some of B's tests waive a senior's overdue fine that A's rule would have left open
    for t, r in _b_differs_from_a("novel"):
        waived = any(e[:2] == ("create", "fine") and e[2:] == ("state", "waived") for e in r.effects)
        assert waived or (t.op == "insert" and t.table == "fine"), t


def test_sealed_b_refers_what_a_left_alone():
    # B's tests that differ from A's refer a claim to SIU (or investigate it) where A's threshold left it alone
    for t, r in _b_differs_from_a("sealed"):
        referred = any(e[:2] == ("set", "claim") and e[3:] in (("siu_referral", True), ("status", "investigating")) for e in r.effects)
        assert referred or (t.op == "insert" and t.table == "claim"), t


@pytest.mark.parametrize("family", FAMILIES)
def test_deleted_rule_tests_show_its_effect_gone(family):
    c, d = _worlds(family)["C"], _worlds(family)["D"]
    shows = SPECS[family].d_effect
    on_trigger = [t for t in d.tests if _family(family).shift_rules["D"] in Engine(c.schema, c.rules).run(c.initial_state(), t).fired]
    assert len(on_trigger) >= 10
    for t in on_trigger:
        assert any(shows(e) for e in _effects(c, t)), t
        assert not any(shows(e) for e in _effects(d, t)), t


@pytest.mark.parametrize(("family", "late", "order"), ORDER_PAIRS)
def test_pairs_of_rules_whose_order_matters(family, late, order):
    # ews: R02 fills a line's price before R01 computes its total; holdout: H01 (cost) before H02, H08 (low) before H09 (out);
    # fresh: M01 (rate) before M02, M14 (daily dose) before M16; novel: L01 (period) before L02, L04 (overdue) before L05 (lost);
    # sealed: P01 before P02, P04 before P05; harbor: Q01 (line) before Q02 (free days), Q08 (dues) before Q09 (discount)
    # fleet: F01 (km since service) before F02 (service due), F06 (discount) and F07 (mileage fee) before F08 (total)
    # campus: U01 (an enrollment's credits) before U03 (its tuition), U18 (a student's balance) before U19 (hold above the limit)
    # payroll: P01 (a timesheet's rate) before P03 (its pay), P07 (a payslip's tax) before P09 (its net pay)
    # factory: M01 (a BOM line's unit cost) before M02 (its cost), M22 (an inspection's defect rate) before M23 (its result)
    # hotel: H01 (a reservation's nights) and H02 (its nightly rate) before H03 (its room total)
    a = _worlds(family)["A"]
    swapped = [parse_rule({**r.to_dict(), "order": order}, a.schema) if r.id == late else r for r in a.rules]
    true_engine, swapped_engine = Engine(a.schema, a.rules), Engine(a.schema, swapped)
    initial = a.initial_state()
    assert any(true_engine.run(initial, t).effects != swapped_engine.run(initial, t).effects for t in a.tests)


def test_vault_b_charges_the_higher_late_fee():
    # B's tests that differ from A's charge a late fee at B's rate (with its minimum), where A's rate gave less
    b = _worlds("vault")["B"]
    amounts = {r["id"]: r["amount"] for r in b.records["bill"]}
    differ = _b_differs_from_a("vault")
    assert differ
    for t, r in differ:
        fees = [e[4] for e in r.effects if e[:2] == ("set", "bill") and e[2] == t.id and e[3] == "late_fee"]
        exact = Decimal(repr(amounts[t.id])) * Decimal(repr(generate_vault.LATE_FEE_RATE_B))
        assert fees == [max(generate_vault.MIN_LATE_FEE, float(exact.quantize(Decimal("0.01"), ROUND_HALF_UP)))], t


def test_harbor_b_weighs_what_a_let_through():
    # B's tests that differ from A's hold a box for a weight check that A's threshold let through
    for t, r in _b_differs_from_a("harbor"):
        assert any(e[:2] == ("create", "customs_hold") and e[2:] == ("reason", "weight_check") for e in r.effects), t


def test_payroll_b_taxes_at_the_new_rate():
    # B's tests that differ from A's tax a payslip above the band more than A's rate did; a gross written directly is taxed at B's rate
    a = _worlds("payroll")["A"]
    differ = _b_differs_from_a("payroll")
    assert differ
    for t, r in differ:
        taxes_b = sorted(e[-1] for e in r.effects if e[1] == "payslip" and e[-2] == "tax")
        taxes_a = sorted(e[-1] for e in _effects(a, t) if e[1] == "payslip" and e[-2] == "tax")
        assert taxes_b != taxes_a and sum(taxes_b) > sum(taxes_a), t
        if t.op == "update" and t.table == "payslip" and "gross" in t.values:
            above = Decimal(repr(t.values["gross"])) - generate_payroll.TAX_BAND
            exact = generate_payroll.BAND_TAX + above * Decimal(repr(generate_payroll.TOP_RATE_B))
            assert taxes_b == [float(exact.quantize(Decimal("0.01"), ROUND_HALF_UP))], t


def test_factory_b_fails_what_a_passed():
    # B's tests that differ from A's leave an inspection failed whose defect rate is above B's limit and at or below A's,
    # which A's limit passes
    a, b = _worlds("factory")["A"], _worlds("factory")["B"]
    initial = {r["id"]: r for r in b.records["inspection"]}

    def final(effects: list[Any], t: Any, field: str) -> Any:
        mine = [e[4] for e in effects if e[:3] == ("set", "inspection", t.id) and e[3] == field]
        return mine[-1] if mine else t.values.get(field, initial.get(t.id, {}).get(field))

    differ = _b_differs_from_a("factory")
    assert differ
    for t, r in differ:
        assert t.table == "inspection", t
        assert (final(r.effects, t, "result"), final(_effects(a, t), t, "result")) == ("fail", "pass"), t
        assert generate_factory.DEFECT_LIMIT_B < final(r.effects, t, "defect_rate") <= generate_factory.DEFECT_LIMIT_A, t


def test_hotel_b_gives_gold_guests_the_new_discount():
    # B's tests that differ from A's set the room total of a gold guest's reservation at B's discount (A's took less off)
    b = _worlds("hotel")["B"]
    reservations = {r["id"]: r for r in b.records["reservation"]}
    tiers = {g["id"]: g["tier"] for g in b.records["guest"]}
    differ = _b_differs_from_a("hotel")
    assert differ
    for t, r in differ:
        assert t.table == "reservation", t
        sets = {e[3]: e[4] for e in r.effects if e[:3] == ("set", "reservation", t.id)}
        final = {**reservations.get(t.id, {}), **t.values, **sets}
        assert "room_total" in sets and tiers[final["guest"]] == "gold", t
        exact = (Decimal(repr(final["nights"])) * Decimal(repr(final["nightly_rate"])) * (100 - generate_hotel.GOLD_DISCOUNT_B)
                 / 100)
        assert sets["room_total"] == float(exact.quantize(Decimal("0.01"), ROUND_HALF_UP)), t
