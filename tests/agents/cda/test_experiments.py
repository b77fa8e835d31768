"""The systematic sweep: experiments that can show a rule's effect at all."""

from __future__ import annotations

import random
from pathlib import Path

import yaml

from memkit.rules import load_world

from agents.cda.experiments import sweep

_WORLD = {
    "format": "worldshift/1",
    "name": "dose-A",
    "tables": {
        "ward": {"fields": {"name": {"type": "string"}}},
        "rx": {"fields": {"ward": {"type": "reference", "ref": "ward"},
                          "daily_mg": {"type": "number", "default": 0},
                          "review": {"type": "boolean", "default": False}}},
    },
    "records": {
        "ward": [{"id": "W1", "name": "a"}],
        # RX1 is the record the sweep writes first (most referenced): its flag is already raised
        "rx": [{"id": "RX1", "ward": "W1", "daily_mg": 4000, "review": True},
               {"id": "RX2", "ward": "W1", "daily_mg": 100, "review": False}],
    },
    "rules": [{"id": "review_high", "table": "rx", "events": ["update"], "when": "before",
               "condition": "changed(daily_mg) and current.daily_mg > 3000", "actions": [{"set": {"review": "true"}}]}],
    "tests": [],
}


def _world(tmp_path: Path, raised: bool):
    data = yaml.safe_load(yaml.safe_dump(_WORLD))
    data["records"]["rx"][0]["review"] = raised
    path = tmp_path / "dose-A.yaml"
    path.write_text(yaml.safe_dump(data))
    return load_world(path)


def _number_writes(world) -> dict[str, list[float]]:
    out: dict[str, list[float]] = {}
    for phase in sweep(world.schema, world.initial_state(), random.Random(0)):
        for _, action in phase:
            if action.op == "update" and action.table == "rx" and set(action.values) == {"daily_mg"}:
                out.setdefault(action.id, []).append(action.values["daily_mg"])
    return out


def test_numbers_are_also_written_on_a_record_whose_flag_a_rule_could_still_raise(tmp_path):
    world = _world(tmp_path, raised=True)
    writes = _number_writes(world)
    first = max(writes, key=lambda rid: len(writes[rid]))
    assert world.initial_state().get("rx", first)["review"] is True
    # the other record gets both ends: the flag goes up at one, stays down at the other
    other = [rid for rid in writes if world.initial_state().get("rx", rid)["review"] is False]
    assert other and 0.0 in writes[other[0]] and any(v > 4000 for v in writes[other[0]])


def test_no_extra_writes_when_the_first_records_flags_are_at_their_defaults(tmp_path):
    world = _world(tmp_path, raised=False)
    writes = _number_writes(world)
    plain = [a for phase in sweep(world.schema, world.initial_state(), random.Random(0)) for p, a in phase if "flags at their defaults" in p]
    assert plain == []
    assert writes
