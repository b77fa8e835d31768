"""A number or reference that every record holds as a copy of a related record's field (a line's
unit price is its product's) is left out of one insert in the sweep: a rule that fills it on
insert shows nothing on a clone, which carries the value, and would never be learned."""

from __future__ import annotations

import random

from agents.cda.experiments import sweep
from agents.cda.hypotheses import copied_fields
from tests.agents.cda.helpers import discovered, hand_made_world, iou_on_tests


def test_the_sweep_inserts_a_line_without_the_price_it_copies_from_its_product():
    world = hand_made_world("till-A")
    planned = [(p, a) for phase in sweep(world.schema, world.initial_state(), random.Random(0)) for p, a in phase]
    omitted = [a for p, a in planned if p.startswith("insert order_line without unit_price")]
    assert omitted and "unit_price" not in omitted[0].values and "product" in omitted[0].values
    assert "insert order_line without unit_price (it holds product.price)" in [p for p, _ in planned]
    assert "insert order_line without warehouse (it holds product.warehouse)" in [p for p, _ in planned]


def test_a_field_that_copies_nothing_is_not_left_out():
    world = hand_made_world("till-A")
    planned = [p for phase in sweep(world.schema, world.initial_state(), random.Random(0)) for p, _ in phase]
    assert not any(p.startswith("insert order_line without qty") for p in planned)
    assert not any(p.startswith("insert product without") for p in planned)


def test_a_line_inserted_without_a_price_or_a_warehouse_is_predicted_to_take_its_products():
    world = hand_made_world("till-A")
    model = discovered(world, 60)
    assert iou_on_tests(model, world) == 1.0, [lr.text for lr in model.active()]


def test_chance_matches_do_not_count_as_copies():
    # the quantity is its product's price in one line of four, the discount its product's bonus
    # only where both are zero but once, and a line that is its own parent copies itself
    world = hand_made_world("ledger-A")
    assert copied_fields(world.initial_state(), "order_line") == {"unit_price": "product.price"}


def test_the_sweep_skips_those_inserts_when_told_to():
    # the fill rules were seen in the first world; in later ones the writes would only cost budget
    world = hand_made_world("till-A")
    planned = [p for phase in sweep(world.schema, world.initial_state(), random.Random(0), omit_copies=False) for p, _ in phase]
    assert not any(" without " in p for p in planned)


def test_the_insert_without_a_copied_field_clones_a_record_whose_status_is_at_its_default():
    # the tests' inserts leave the status out too: a fill rule that holds only for submitted
    # claims shows nothing on a clone of an approved one
    world = hand_made_world("approvals-A")
    planned = [a for phase in sweep(world.schema, world.initial_state(), random.Random(0)) for p, a in phase
               if p.startswith("insert expense_claim without approver")]
    assert [a.values.get("status") for a in planned] == ["submitted"]
    assert "approver" not in planned[0].values


def test_a_fill_rule_that_holds_only_at_the_default_status_is_learned():
    world = hand_made_world("approvals-A")
    model = discovered(world, 60)
    assert iou_on_tests(model, world) == 1.0, [lr.text for lr in model.active()]


def test_later_phases_put_the_aimed_writes_first_and_take_turns_across_tables():
    world = hand_made_world("assets-A")
    later = sweep(world.schema, world.initial_state(), random.Random(0))[2:]
    phase = later[0]
    aimed = [i for i, (p, _) in enumerate(phase) if p.startswith("insert expense_claim without approver")]
    # the insert aimed at a fill rule comes before every variation (a second asset's choices)
    assert aimed and all(i > aimed[0] for i, (p, a) in enumerate(phase) if a.table == "asset" and a.op == "update")
    is_aimed = [" without " in p or " at its defaults " in p or p.endswith(("default)", "defaults)", "with references only"))
                or p.startswith("insert") and " under " in p for p, _ in phase]
    # the aimed writes (numbers on a claim at its default status, the inserts that show fill rules) lead the phase
    assert is_aimed == sorted(is_aimed, reverse=True)
    rest = [a.table for (p, a), flag in zip(phase, is_aimed) if not flag]
    # the variations take turns: no table has two before every table has had one
    tables = list(dict.fromkeys(rest))
    assert sorted(rest[:len(tables)]) == sorted(tables)


def test_a_fill_rule_on_a_late_table_is_learned_when_the_budget_ends_inside_the_phase():
    # the asset table's second-record choice changes fill most of the phase that holds the
    # claim's insert without its approver; 45 writes end inside that phase
    world = hand_made_world("assets-A")
    model = discovered(world, 45)
    assert iou_on_tests(model, world) == 1.0, [lr.text for lr in model.active()]
