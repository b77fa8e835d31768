"""Every kind of bad world file gets a MemkitError naming the file, the rule/record/test and the problem."""

from __future__ import annotations

import copy
import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
import yaml

from memkit.errors import MemkitError, WorldError
from memkit.rules import load_world

BASE: dict[str, Any] = {
    "format": "worldshift/1",
    "name": "base",
    "tables": {
        "customer": {"fields": {"name": {"type": "string"}, "tier": {"type": "choice", "choices": ["basic", "gold"]}}},
        "order": {
            "fields": {
                "customer": {"type": "reference", "ref": "customer"},
                "total": {"type": "number", "default": 0},
                "state": {"type": "choice", "choices": ["draft", "done"], "default": "draft"},
            }
        },
    },
    "records": {
        "customer": [{"id": "C1", "name": "Ada", "tier": "gold"}],
        "order": [{"id": "O1", "customer": "C1", "total": 5}],
    },
    "rules": [
        {
            "id": "R1",
            "table": "order",
            "events": ["update"],
            "when": "before",
            "condition": "changed(total)",
            "actions": [{"set": {"state": "'done'"}}],
        },
        {
            "id": "R2",
            "table": "order",
            "events": ["update"],
            "when": "after",
            "actions": [{"update": {"target": "current.customer", "set": {"name": "'x'"}}}],
        },
    ],
    "tests": [{"op": "update", "table": "order", "id": "O1", "values": {"total": 6}}],
}


def _dump(tmp_path: Path, data: Any, name: str = "world.yaml") -> Path:
    path = tmp_path / name
    if name.endswith(".json"):
        path.write_text(json.dumps(data))
    else:
        path.write_text(yaml.safe_dump(data, sort_keys=False))
    return path


def _rule(i: int) -> Callable[[dict[str, Any]], dict[str, Any]]:
    return lambda w: w["rules"][i]


def test_the_base_world_loads(tmp_path):
    w = load_world(_dump(tmp_path, BASE))
    assert [r.id for r in w.rules] == ["R1", "R2"] and len(w.tests) == 1
    assert load_world(_dump(tmp_path, BASE, "w.json")).rules == w.rules


def _set(path: tuple[Any, ...], value: Any) -> Callable[[dict[str, Any]], None]:
    def edit(w: dict[str, Any]) -> None:
        node = w
        for key in path[:-1]:
            node = node[key]
        node[path[-1]] = value

    return edit


def _delete(path: tuple[Any, ...]) -> Callable[[dict[str, Any]], None]:
    def edit(w: dict[str, Any]) -> None:
        node = w
        for key in path[:-1]:
            node = node[key]
        del node[path[-1]]

    return edit


def _append(path: tuple[Any, ...], value: Any) -> Callable[[dict[str, Any]], None]:
    def edit(w: dict[str, Any]) -> None:
        node = w
        for key in path:
            node = node[key]
        node.append(value)

    return edit


def _rule_with(**changes: Any) -> dict[str, Any]:
    rule = copy.deepcopy(BASE["rules"][0])
    rule.update(changes)
    return rule


# (case id, edit of BASE, substrings the message must contain besides the file name)
SINGLE_FILE_CASES: list[tuple[str, Callable[[dict[str, Any]], None], tuple[str, ...]]] = [
    ("wrong format string", _set(("format",), "worldshift/2"), ("worldshift/1",)),
    ("unknown top-level key", _set(("colour",), "blue"), ("colour",)),
    ("unknown key in a rule", _set(("rules", 0, "on"), ["update"]), ("R1", "on")),
    ("bad table name", _set(("tables", "bad-name"), {"fields": {}}), ("bad-name",)),
    ("bad field name", _set(("tables", "customer", "fields", "2nd"), {"type": "string"}), ("2nd",)),
    ("bad rule id", _append(("rules",), _rule_with(id="R-3")), ("R-3",)),
    ("unknown field type", _set(("tables", "customer", "fields", "age"), {"type": "integer"}), ("integer",)),
    ("choice without choices", _set(("tables", "customer", "fields", "kind"), {"type": "choice"}), ("choices",)),
    ("reference to unknown table", _set(("tables", "order", "fields", "owner"), {"type": "reference", "ref": "user"}), ("user", "owner")),
    ("bad default", _set(("tables", "order", "fields", "total", "default"), "zero"), ("total", "zero")),
    ("bad choice default", _set(("tables", "order", "fields", "state", "default"), "open"), ("state", "open")),
    ("duplicate record id", _append(("records", "customer"), {"id": "C1", "name": "Bo"}), ("C1", "duplicate")),
    ("record with unknown field", _set(("records", "customer", 0, "age"), 3), ("C1", "age")),
    ("record value of wrong type", _set(("records", "order", 0, "total"), "five"), ("O1", "total")),
    ("record with unknown choice", _set(("records", "customer", 0, "tier"), "platinum"), ("C1", "platinum")),
    ("dangling reference", _set(("records", "order", 0, "customer"), "C9"), ("O1", "C9")),
    ("records of unknown table", _set(("records", "invoice"), [{"id": "I1"}]), ("invoice",)),
    ("duplicate rule id", _append(("rules",), _rule_with()), ("R1", "duplicate")),
    ("rule on unknown table", _append(("rules",), _rule_with(id="R3", table="invoice")), ("R3", "invoice")),
    ("set in an after rule", _append(("rules",), _rule_with(id="R3", when="after")), ("R3", "set")),
    (
        "update in a before rule",
        _append(("rules",), {**copy.deepcopy(BASE["rules"][1]), "id": "R3", "when": "before"}),
        ("R3", "update"),
    ),
    ("unknown field in set", _append(("rules",), _rule_with(id="R3", actions=[{"set": {"colour": "'red'"}}])), ("R3", "colour")),
    ("writing id", _append(("rules",), _rule_with(id="R3", actions=[{"set": {"id": "'X'"}}])), ("R3", "id")),
    ("expression syntax error", _append(("rules",), _rule_with(id="R3", condition="current.total >")), ("R3", "position")),
    ("unknown field in an expression", _append(("rules",), _rule_with(id="R3", condition="current.customer.age > 3")), ("R3", "age")),
    ("unknown field in changed", _append(("rules",), _rule_with(id="R3", condition="changed(colour)")), ("R3", "colour")),
    ("unknown table in count", _append(("rules",), _rule_with(id="R3", condition="count(invoice, true) > 0")), ("R3", "invoice")),
    ("unknown field in sum", _append(("rules",), _rule_with(id="R3", condition="sum(order, price, true) > 0")), ("R3", "price")),
    ("path through a non-reference", _append(("rules",), _rule_with(id="R3", condition="current.total.x == 1")), ("R3", "total")),
    ("row outside where", _append(("rules",), _rule_with(id="R3", condition="row.total == 1")), ("R3", "row")),
    ("wrong arity", _append(("rules",), _rule_with(id="R3", condition="round(current.total) > 1")), ("R3", "round")),
    ("unknown function", _append(("rules",), _rule_with(id="R3", condition="floor(current.total) > 1")), ("R3", "floor")),
    (
        "update target not ending at a reference",
        _append(("rules",), {**copy.deepcopy(BASE["rules"][1]), "id": "R3", "actions": [{"update": {"target": "current.total", "set": {"name": "'x'"}}}]}),
        ("R3", "current.total"),
    ),
    (
        "update target through an unknown field",
        _append(("rules",), {**copy.deepcopy(BASE["rules"][1]), "id": "R3", "actions": [{"update": {"target": "current.owner", "set": {"name": "'x'"}}}]}),
        ("R3", "owner"),
    ),
    ("test on unknown record", _append(("tests",), {"op": "update", "table": "order", "id": "O9", "values": {"total": 1}}), ("test #1", "O9")),
    ("test delete of unknown record", _append(("tests",), {"op": "delete", "table": "order", "id": "O9"}), ("test #1", "O9")),
    ("test insert of an existing id", _append(("tests",), {"op": "insert", "table": "order", "id": "O1", "values": {}}), ("test #1", "O1")),
    ("test on unknown table", _append(("tests",), {"op": "insert", "table": "invoice", "id": "I1"}), ("test #1", "invoice")),
    ("test with unknown field", _append(("tests",), {"op": "update", "table": "order", "id": "O1", "values": {"colour": 1}}), ("test #1", "colour")),
    ("test with wrong type", _append(("tests",), {"op": "update", "table": "order", "id": "O1", "values": {"total": "x"}}), ("test #1", "total")),
    ("test with dangling reference", _append(("tests",), {"op": "update", "table": "order", "id": "O1", "values": {"customer": "C9"}}), ("test #1", "C9")),
    ("test with unknown op", _append(("tests",), {"op": "upsert", "table": "order", "id": "O1"}), ("test #1", "upsert")),
]


@pytest.mark.parametrize("edit, needles", [(e, n) for _, e, n in SINGLE_FILE_CASES], ids=[c for c, _, _ in SINGLE_FILE_CASES])
def test_bad_world_file(tmp_path, edit, needles):
    data = copy.deepcopy(BASE)
    edit(data)
    path = _dump(tmp_path, data)
    with pytest.raises(MemkitError) as info:
        load_world(path)
    assert isinstance(info.value, WorldError)
    message = str(info.value)
    assert str(path) in message
    for needle in needles:
        assert needle in message, f"{needle!r} not in {message!r}"


@pytest.mark.parametrize(
    "edit",
    [
        pytest.param(_set(("extends",), "base.yaml"), id="tables together with extends"),
        pytest.param(_set(("shift",), {"delete": ["R1"]}), id="shift without extends"),
    ],
)
def test_extends_and_shift_misuse_is_explained(tmp_path, edit):
    data = copy.deepcopy(BASE)
    edit(data)
    path = _dump(tmp_path, data)
    with pytest.raises(WorldError) as info:
        load_world(path)
    message = str(info.value)
    assert str(path) in message
    problem = info.value.problem
    # says which keys clash, without echoing the file's content
    assert "extends" in problem and len(problem) < 300, problem
    assert "'customer'" not in problem


@pytest.mark.parametrize(
    "edit",
    [_set(("extends",), "base.yaml"), _set(("shift",), {"delete": ["R1"]})],
    ids=["tables together with extends", "shift without extends"],
)
def test_extends_and_shift_misuse_is_rejected(tmp_path, edit):
    data = copy.deepcopy(BASE)
    edit(data)
    path = _dump(tmp_path, data)
    with pytest.raises(WorldError) as info:
        load_world(path)
    assert str(path) in str(info.value)


def test_every_single_file_message_is_short(tmp_path):
    for case, edit, _ in SINGLE_FILE_CASES:
        data = copy.deepcopy(BASE)
        edit(data)
        with pytest.raises(WorldError) as info:
            load_world(_dump(tmp_path, data))
        assert len(info.value.problem) < 400, (case, info.value.problem)


def test_missing_file(tmp_path):
    path = tmp_path / "nope.yaml"
    with pytest.raises(WorldError) as info:
        load_world(path)
    assert str(path) in str(info.value) and "no such file" in str(info.value)


def test_bad_yaml_names_the_line(tmp_path):
    path = tmp_path / "bad.yaml"
    path.write_text("format: worldshift/1\nname: x\ntables:\n  t: {fields: {a: {type: string}}\nrules: []\n")
    with pytest.raises(WorldError) as info:
        load_world(path)
    message = str(info.value)
    assert str(path) in message and "YAML" in message and "line 5" in message


def test_bad_json_names_the_line(tmp_path):
    path = tmp_path / "bad.json"
    path.write_text('{"format": "worldshift/1",\n "name": "x",\n "tables": {,}\n}')
    with pytest.raises(WorldError) as info:
        load_world(path)
    message = str(info.value)
    assert str(path) in message and "JSON" in message and "line 3" in message


def test_unknown_extension(tmp_path):
    path = tmp_path / "world.txt"
    path.write_text(yaml.safe_dump(BASE))
    with pytest.raises(WorldError) as info:
        load_world(path)
    assert str(path) in str(info.value)


def test_top_level_not_a_mapping(tmp_path):
    path = tmp_path / "list.yaml"
    path.write_text("- 1\n- 2\n")
    with pytest.raises(WorldError) as info:
        load_world(path)
    assert str(path) in str(info.value)


# -- extends and shift -----------------------------------------------------------------


def _family(tmp_path: Path, shift: dict[str, Any] | None = None, extends: str = "base.yaml", tests: list[Any] | None = None) -> Path:
    _dump(tmp_path, BASE, "base.yaml")
    child: dict[str, Any] = {"format": "worldshift/1", "name": "child", "extends": extends}
    if shift is not None:
        child["shift"] = shift
    if tests is not None:
        child["tests"] = tests
    return _dump(tmp_path, child, "child.yaml")


def test_a_valid_shift_loads(tmp_path):
    new_rule = _rule_with(id="R0", condition="changed(state)")
    modified = _rule_with(condition="changed(customer)")
    w = load_world(_family(tmp_path, {"modify": [modified], "add": [new_rule], "delete": ["R2"]}))
    assert [r.id for r in w.rules] == ["R1", "R0"]
    assert w.tests == []  # tests are not inherited
    assert w.rule("R1").condition != load_world(tmp_path / "base.yaml").rule("R1").condition


def _expect(path: Path, *needles: str) -> None:
    with pytest.raises(MemkitError) as info:
        load_world(path)
    assert isinstance(info.value, WorldError)
    message = str(info.value)
    assert str(path) in message, message
    for needle in needles:
        assert needle in message, f"{needle!r} not in {message!r}"


def test_extends_missing_file(tmp_path):
    _expect(_family(tmp_path, extends="nowhere.yaml"), "nowhere.yaml")


def test_extends_loop(tmp_path):
    a = {"format": "worldshift/1", "name": "a", "extends": "b.yaml"}
    b = {"format": "worldshift/1", "name": "b", "extends": "a.yaml"}
    _dump(tmp_path, b, "b.yaml")
    path = _dump(tmp_path, a, "a.yaml")
    with pytest.raises(WorldError) as info:
        load_world(path)
    message = str(info.value)
    # the loop closes in b.yaml, pointing back at a.yaml: both files are named
    assert "loop" in message and str(tmp_path / "b.yaml") in message and "a.yaml" in message


def test_extends_itself(tmp_path):
    _expect(_dump(tmp_path, {"format": "worldshift/1", "name": "a", "extends": "a.yaml"}, "a.yaml"), "loop")


def test_modify_of_a_missing_rule(tmp_path):
    _expect(_family(tmp_path, {"modify": [_rule_with(id="R9")]}), "R9")


def test_delete_of_a_missing_rule(tmp_path):
    _expect(_family(tmp_path, {"delete": ["R9"]}), "R9")


def test_add_of_an_existing_id(tmp_path):
    _expect(_family(tmp_path, {"add": [_rule_with(id="R2")]}), "R2")


def test_bad_rule_in_a_shift_names_the_rule(tmp_path):
    _expect(_family(tmp_path, {"add": [_rule_with(id="R7", condition="current.nope == 1")]}), "R7", "nope")


def test_child_test_on_unknown_record(tmp_path):
    _expect(_family(tmp_path, {}, tests=[{"op": "delete", "table": "order", "id": "O7"}]), "test #0", "O7")


def test_error_in_the_base_names_the_base_file(tmp_path):
    bad = copy.deepcopy(BASE)
    bad["records"]["order"][0]["customer"] = "C9"
    _dump(tmp_path, bad, "base.yaml")
    child = _dump(tmp_path, {"format": "worldshift/1", "name": "c", "extends": "base.yaml"}, "child.yaml")
    with pytest.raises(WorldError) as info:
        load_world(child)
    assert "base.yaml" in str(info.value) and "O1" in str(info.value)


def test_chain_of_three_shifts(tmp_path):
    _dump(tmp_path, BASE, "a.yaml")
    _dump(tmp_path, {"format": "worldshift/1", "name": "b", "extends": "a.yaml", "shift": {"add": [_rule_with(id="R3")]}}, "b.yaml")
    _dump(tmp_path, {"format": "worldshift/1", "name": "c", "extends": "b.yaml", "shift": {"delete": ["R1"]}}, "c.yaml")
    sub = tmp_path / "sub"
    sub.mkdir()
    _dump(sub, {"format": "worldshift/1", "name": "d", "extends": "../c.yaml", "shift": {"modify": [_rule_with(id="R3", order=5)]}}, "d.yaml")
    w = load_world(sub / "d.yaml")
    assert [r.id for r in w.rules] == ["R2", "R3"] and w.rule("R3").order == 5
