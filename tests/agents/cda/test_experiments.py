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


_PEOPLE = {
    "format": "worldshift/1",
    "name": "people-A",
    "tables": {
        "user": {"fields": {"role": {"type": "choice", "choices": ["employee", "manager"], "default": "employee"},
                            "vip": {"type": "boolean", "default": False},
                            "active": {"type": "boolean", "default": True}}},
        "task": {"fields": {"assigned_to": {"type": "reference", "ref": "user"}}},
        "team": {"fields": {"lead": {"type": "reference", "ref": "user"}}},
    },
    "records": {
        # U1 is written first (most referenced) and has left role and vip's defaults; U2 and U3
        # both have tasks and differ from U1 in as many fields, but only U3 is at the defaults
        "user": [{"id": "U1", "role": "manager", "vip": True, "active": True},
                 {"id": "U2", "role": "employee", "vip": True, "active": False},
                 {"id": "U3", "role": "employee", "vip": False, "active": True}],
        "task": [{"id": "T1", "assigned_to": "U2"}, {"id": "T2", "assigned_to": "U3"}],
        "team": [{"id": "M1", "lead": "U1"}, {"id": "M2", "lead": "U1"}, {"id": "M3", "lead": "U1"}],
    },
    "rules": [],
    "tests": [],
}


def test_the_second_record_is_one_whose_flags_are_at_the_defaults_the_first_has_left(tmp_path):
    from agents.cda.experiments import pick_records

    path = tmp_path / "people-A.yaml"
    path.write_text(yaml.safe_dump(_PEOPLE))
    state = load_world(path).initial_state()
    # a manager already VIP shows no "becomes manager -> VIP" rule, a user already inactive no
    # "deactivated -> tasks unassigned" rule: the second record must be one that can show both
    seconds = {pick_records(state, "user", 2, random.Random(seed))[1]["id"] for seed in range(20)}
    assert seconds == {"U3"}
