"""A threshold that sets a status, found on a record whose status is at its default."""

from __future__ import annotations

from pathlib import Path

import yaml

from memkit.rules import Action, load_world
from memkit.rules.model import RuleModel

from agents.cda import discover
from evals.worldshift.platform import Platform
from tests.agents.cda.helpers import discovery_run

_STOCK = {
    "format": "worldshift/1",
    "name": "stock-A",
    "tables": {
        "stock": {"fields": {"on_hand": {"type": "number", "default": 0},
                             "status": {"type": "choice", "choices": ["ok", "low", "out"], "default": "ok"}}},
    },
    # the first record is low already: writes on it never show the 'low' boundary
    "records": {
        "stock": [{"id": "S1", "on_hand": 8, "status": "low"},
                  {"id": "S2", "on_hand": 40, "status": "ok"},
                  {"id": "S3", "on_hand": 100, "status": "ok"}],
    },
    "rules": [
        {"id": "low", "table": "stock", "events": ["update"], "when": "before", "order": 10,
         "condition": "changed(on_hand) and current.on_hand < 25", "actions": [{"set": {"status": "'low'"}}]},
        {"id": "out", "table": "stock", "events": ["update"], "when": "before", "order": 20,
         "condition": "changed(on_hand) and current.on_hand <= 0", "actions": [{"set": {"status": "'out'"}}]},
    ],
    "tests": [],
}


def test_a_status_boundary_hidden_on_the_first_record_is_found_on_one_at_its_default(tmp_path: Path):
    path = tmp_path / "stock-A.yaml"
    path.write_text(yaml.safe_dump(_STOCK))
    world = load_world(path)
    model = RuleModel(world.schema, world.name)
    discover(Platform(world), model, budget=80)
    state = world.initial_state()
    assert ("set", "stock", "S3", "status", "low") in model.predict(Action("update", "stock", "S3", {"on_hand": 10}), state)
    assert ("set", "stock", "S3", "status", "out") in model.predict(Action("update", "stock", "S3", {"on_hand": 0}), state)
    assert model.predict(Action("update", "stock", "S3", {"on_hand": 30}), state) == []


def _purposes(world, budget: int) -> list[str]:
    return [o.purpose for o in discovery_run(world, budget)[1]]


def test_numbers_go_to_a_record_at_its_default_status_only_where_a_rule_of_the_table_sets_it(tmp_path: Path):
    path = tmp_path / "stock-A.yaml"
    path.write_text(yaml.safe_dump(_STOCK))
    assert any("(status status at its default)" in p for p in _purposes(load_world(path), 80))
    # the same records with no rule: the status only ever changes by hand, so the writes are skipped
    path.write_text(yaml.safe_dump({**_STOCK, "rules": []}))
    purposes = _purposes(load_world(path), 80)
    assert any("with choices #0" in p for p in purposes)  # the sweep's phase 2 did run
    assert not any("at its default)" in p for p in purposes)
