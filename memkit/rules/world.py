"""Loading worldshift/1 world files: YAML or JSON, ``extends`` chains, shifts, validation.

Every problem raises a :class:`WorldError` subclass naming the file, the rule,
record or test, and what is wrong.
"""

from __future__ import annotations

import json
import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from functools import lru_cache
from importlib import resources
from pathlib import Path
from typing import Any

import yaml

from memkit.errors import WorldError, WorldValidationError
from memkit.rules.engine import Action
from memkit.rules.rule import Rule, parse_rule
from memkit.rules.schema import FIELD_TYPES, FieldSpec, Schema, TableSpec

__all__ = ["World", "load_world", "parse_world", "world_schema_validator", "read_world_file"]

_NAME = re.compile(r"^[A-Za-z_][A-Za-z0-9_]*$")


@dataclass
class World:
    """A loaded world: schema, initial records, rules (shift applied) and its own tests."""

    name: str
    schema: Schema
    records: dict[str, list[dict[str, Any]]]
    rules: list[Rule]
    tests: list[Action]
    path: Path | None = None
    description: str = ""
    base: World | None = field(default=None, repr=False)
    shift: dict[str, list[str]] = field(default_factory=dict)

    def rule(self, rule_id: str) -> Rule:
        """The rule with ``rule_id``; KeyError when absent."""
        for r in self.rules:
            if r.id == rule_id:
                return r
        raise KeyError(rule_id)

    def initial_state(self):  # -> State (import kept local: state imports nothing of world)
        """A fresh State holding the initial records."""
        from memkit.rules.state import State

        return State.from_records(self.schema, self.records)


@lru_cache(maxsize=1)
def world_schema_validator():
    """The JSON-Schema validator of worldshift/1 (schema shipped as package data)."""
    import jsonschema

    text = resources.files("memkit.rules").joinpath("worldshift.schema.json").read_text()
    schema = json.loads(text)
    return jsonschema.Draft202012Validator(schema)


def read_world_file(path: Path) -> Any:
    """Read YAML or JSON by extension; parse errors become WorldError with the line."""
    if not path.exists():
        raise WorldError("no such file", path=str(path))
    text = path.read_text(encoding="utf-8")
    suffix = path.suffix.lower()
    try:
        if suffix == ".json":
            return json.loads(text)
        if suffix in (".yaml", ".yml"):
            return yaml.safe_load(text)
    except json.JSONDecodeError as exc:
        raise WorldError(f"invalid JSON at line {exc.lineno}, column {exc.colno}: {exc.msg}", path=str(path)) from exc
    except yaml.YAMLError as exc:
        mark = getattr(exc, "problem_mark", None)
        where = f" at line {mark.line + 1}, column {mark.column + 1}" if mark else ""
        problem = getattr(exc, "problem", None) or str(exc)
        raise WorldError(f"invalid YAML{where}: {problem}", path=str(path)) from exc
    raise WorldError("a world file must end in .yaml, .yml or .json", path=str(path))


def _location(raw: Any, path: list[Any]) -> str:
    """Name the rule, record or test a JSON path points into."""
    if not path:
        return "top level"
    head = path[0]
    try:
        if head == "rules" and len(path) > 1:
            rid = raw["rules"][path[1]].get("id", f"#{path[1]}")
            rest = ".".join(str(p) for p in path[2:])
            return f"rule {rid}" + (f" ({rest})" if rest else "")
        if head == "shift" and len(path) > 2 and path[1] in ("modify", "add"):
            item = raw["shift"][path[1]][path[2]]
            rid = item.get("id", f"#{path[2]}") if isinstance(item, Mapping) else f"#{path[2]}"
            rest = ".".join(str(p) for p in path[3:])
            return f"shift.{path[1]} rule {rid}" + (f" ({rest})" if rest else "")
        if head == "records" and len(path) > 2:
            rec = raw["records"][path[1]][path[2]]
            rid = rec.get("id", f"#{path[2]}") if isinstance(rec, Mapping) else f"#{path[2]}"
            rest = ".".join(str(p) for p in path[3:])
            return f"record {path[1]}/{rid}" + (f" ({rest})" if rest else "")
        if head == "tests" and len(path) > 1:
            rest = ".".join(str(p) for p in path[2:])
            return f"test #{path[1]}" + (f" ({rest})" if rest else "")
    except (KeyError, IndexError, TypeError, AttributeError):
        pass
    return ".".join(str(p) for p in path)


def _schema_errors(raw: Any, path: Path) -> None:
    # the schema's if/then for extends gives unreadable messages: say it plainly first
    if "extends" in raw:
        clash = [k for k in ("tables", "records", "rules") if k in raw]
        if clash:
            raise WorldValidationError(
                f"{', '.join(clash)} not allowed with extends: a shifted world takes them from its base "
                "(change rules with shift: modify/add/delete)", path=str(path), location="top level")
    else:
        if "shift" in raw:
            raise WorldValidationError("shift needs extends (the base world it shifts)", path=str(path), location="top level")
        if "tables" not in raw and "format" in raw and "name" in raw:
            raise WorldValidationError("tables is required (or extends a base world)", path=str(path), location="top level")
    validator = world_schema_validator()
    errors = sorted(validator.iter_errors(raw), key=lambda e: (len(e.absolute_path), list(map(str, e.absolute_path))))
    if errors:
        import jsonschema.exceptions

        err = jsonschema.exceptions.best_match(errors)
        loc = _location(raw, list(err.absolute_path))
        raise WorldValidationError(f"does not follow worldshift/1: {err.message}", path=str(path), location=loc)


def _parse_tables(raw_tables: Mapping[str, Any], path: Path) -> Schema:
    tables: dict[str, TableSpec] = {}
    for tname, tdef in raw_tables.items():
        fields: dict[str, FieldSpec] = {}
        for fname, fdef in (tdef.get("fields") or {}).items():
            loc = f"table {tname}, field {fname}"
            if fname == "id":
                raise WorldValidationError("'id' is implicit and cannot be declared", path=str(path), location=loc)
            ftype = fdef["type"]
            if ftype not in FIELD_TYPES:
                raise WorldValidationError(f"unknown type {ftype!r}", path=str(path), location=loc)
            ref = fdef.get("ref")
            if ftype == "reference" and ref not in raw_tables:
                raise WorldValidationError(f"reference to unknown table {ref!r}", path=str(path), location=loc)
            spec = FieldSpec(
                fname,
                ftype,
                tuple(fdef["choices"]) if "choices" in fdef else None,
                ref,
                fdef.get("default"),
                "default" in fdef,
            )
            if spec.has_default and spec.type != "reference":
                problem = spec.accepts(spec.default)
                if problem:
                    raise WorldValidationError(f"default: {problem}", path=str(path), location=loc)
            fields[fname] = spec
        tables[tname] = TableSpec(tname, fields)
    return Schema(tables)


def _check_records(schema: Schema, records: Mapping[str, list[dict[str, Any]]], path: Path) -> None:
    ids: dict[str, set[str]] = {}
    for tname, rows in records.items():
        if tname not in schema.tables:
            raise WorldValidationError(f"records for unknown table {tname!r}", path=str(path), location=f"records.{tname}")
        seen = ids.setdefault(tname, set())
        for row in rows:
            rid = row["id"]
            if rid in seen:
                raise WorldValidationError("duplicate id", path=str(path), location=f"record {tname}/{rid}")
            seen.add(rid)
    for tname, rows in records.items():
        spec = schema.tables[tname]
        for row in rows:
            loc = f"record {tname}/{row['id']}"
            for fname, value in row.items():
                if fname == "id":
                    continue
                fspec = spec.fields.get(fname)
                if fspec is None:
                    raise WorldValidationError(f"unknown field {fname!r} of table {tname!r}", path=str(path), location=loc)
                problem = fspec.accepts(value)
                if problem:
                    raise WorldValidationError(problem, path=str(path), location=loc)
                if fspec.type == "reference" and value is not None and value not in ids.get(fspec.ref or "", set()):
                    raise WorldValidationError(
                        f"field {fname!r} refers to {fspec.ref}/{value}, which is not a record", path=str(path), location=loc
                    )


def _check_tests(schema: Schema, records: Mapping[str, list[dict[str, Any]]], tests: list[Action], path: Path) -> None:
    ids = {t: {r["id"] for r in rows} for t, rows in records.items()}
    for i, test in enumerate(tests):
        loc = f"test #{i} ({test.op} {test.table}/{test.id})"
        spec = schema.tables.get(test.table)
        if spec is None:
            raise WorldValidationError(f"unknown table {test.table!r}", path=str(path), location=loc)
        exists = test.id in ids.get(test.table, set())
        if test.op == "insert" and exists:
            raise WorldValidationError("inserts an id that already exists", path=str(path), location=loc)
        if test.op in ("update", "delete") and not exists:
            raise WorldValidationError(f"no record {test.table}/{test.id}", path=str(path), location=loc)
        if test.op == "delete" and test.values:
            raise WorldValidationError("a delete takes no values", path=str(path), location=loc)
        for fname, value in test.values.items():
            fspec = spec.fields.get(fname)
            if fspec is None:
                raise WorldValidationError(f"unknown field {fname!r} of table {test.table!r}", path=str(path), location=loc)
            problem = fspec.accepts(value)
            if problem:
                raise WorldValidationError(problem, path=str(path), location=loc)
            if fspec.type == "reference" and value is not None and value not in ids.get(fspec.ref or "", set()):
                raise WorldValidationError(f"field {fname!r} refers to {fspec.ref}/{value}, which is not a record", path=str(path), location=loc)


def _parse_rules(raw_rules: list[Any], schema: Schema, path: Path, where: str = "") -> list[Rule]:
    rules: list[Rule] = []
    for raw in raw_rules:
        try:
            rules.append(parse_rule(raw, schema))
        except WorldValidationError as exc:
            raise WorldValidationError(exc.problem, path=str(path), location=f"{where}{exc.location}" if exc.location else where or None) from exc
    return rules


def parse_world(raw: Any, path: Path, _chain: tuple[Path, ...] = ()) -> World:
    """Build a World from already-read file content (``path`` is for messages and ``extends``)."""
    if not isinstance(raw, Mapping):
        raise WorldError("a world file must hold a mapping at the top level", path=str(path))
    _schema_errors(raw, path)
    tests = [Action.from_dict(t) for t in raw.get("tests") or []]
    if "extends" in raw:
        base_path = (path.parent / raw["extends"]).resolve()
        if base_path in _chain or base_path == path.resolve():
            raise WorldError(f"extends chain loops back to {base_path.name}", path=str(path), location="extends")
        try:
            base = _load(base_path, _chain + (path.resolve(),))
        except WorldError as exc:
            if exc.path == str(base_path) and exc.problem == "no such file":
                raise WorldError(f"extends {raw['extends']!r}: no such file", path=str(path), location="extends") from exc
            raise
        schema = base.schema
        rules = list(base.rules)
        shift = raw.get("shift") or {}
        ids = [r.id for r in rules]
        for rule in _parse_rules(shift.get("modify") or [], schema, path, "shift.modify "):
            if rule.id not in ids:
                raise WorldValidationError(f"modifies rule {rule.id!r}, which the base world does not have", path=str(path), location=f"shift.modify rule {rule.id}")
            rules[ids.index(rule.id)] = rule
        for rid in shift.get("delete") or []:
            if rid not in [r.id for r in rules]:
                raise WorldValidationError(f"deletes rule {rid!r}, which the base world does not have", path=str(path), location=f"shift.delete {rid}")
            rules = [r for r in rules if r.id != rid]
        for rule in _parse_rules(shift.get("add") or [], schema, path, "shift.add "):
            if rule.id in [r.id for r in rules]:
                raise WorldValidationError(f"adds rule {rule.id!r}, whose id is already in use", path=str(path), location=f"shift.add rule {rule.id}")
            rules.append(rule)
        _check_unique([r.id for r in rules], path)
        _check_tests(schema, base.records, tests, path)
        shift_ids = {k: [r["id"] if isinstance(r, Mapping) else r for r in shift.get(k) or []] for k in ("modify", "add", "delete")}
        return World(raw["name"], schema, base.records, rules, tests, path, raw.get("description", ""), base, shift_ids)
    schema = _parse_tables(raw["tables"], path)
    records = {t: [dict(r) for r in rows] for t, rows in (raw.get("records") or {}).items()}
    _check_records(schema, records, path)
    rules = _parse_rules(raw.get("rules") or [], schema, path)
    _check_unique([r.id for r in rules], path)
    _check_tests(schema, records, tests, path)
    return World(raw["name"], schema, records, rules, tests, path, raw.get("description", ""))


def _check_unique(ids: list[str], path: Path) -> None:
    seen: set[str] = set()
    for rid in ids:
        if rid in seen:
            raise WorldValidationError("duplicate rule id", path=str(path), location=f"rule {rid}")
        seen.add(rid)


def _load(path: Path, chain: tuple[Path, ...]) -> World:
    return parse_world(read_world_file(path), path, chain)


def load_world(path: str | Path) -> World:
    """Load a world file (YAML or JSON), following ``extends`` and applying its shift."""
    return _load(Path(path), ())
