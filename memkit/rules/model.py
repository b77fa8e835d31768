"""The learned rule model: editable, executable, inheritable from one world to the next.

Rules are worldshift/1 rule dicts (the same language as a world's true
rules), each with a stable id, status (active/retired), confidence, origin
world and evidence. Every edit (add, revise, retire) is validated by the
parser and static checker and recorded in the history with its reason and
evidence. ``predict`` runs the shared engine with the active rules on a
snapshot: it never touches a live platform.
"""

from __future__ import annotations

import copy
import json
from collections.abc import Mapping, Sequence
from datetime import datetime, timezone
from pathlib import Path
from typing import Any, Literal

import yaml
from pydantic import BaseModel, Field

from memkit.errors import MemkitError, RuleModelError
from memkit.rules.engine import Action, Effect, Engine
from memkit.rules.rule import Rule, describe_rule, parse_rule
from memkit.rules.schema import Schema
from memkit.rules.state import State

__all__ = ["Evidence", "LearnedRule", "HistoryEntry", "RuleModelDiff", "RuleModel"]


class Evidence(BaseModel):
    """One experiment: the write, the side effects seen, and whether it supports the rule."""

    action: dict[str, Any]
    effects: list[list[Any]] = Field(default_factory=list)
    world: str = ""
    supports: bool = True
    note: str = ""


class LearnedRule(BaseModel):
    """A rule of the model with its status, confidence, origin and evidence."""

    id: str
    rule: dict[str, Any]
    status: Literal["active", "retired"] = "active"
    confidence: float = 0.5
    origin_world: str = ""
    evidence: list[Evidence] = Field(default_factory=list)
    text: str = ""


class HistoryEntry(BaseModel):
    """One edit of the model."""

    seq: int
    op: Literal["add", "revise", "retire"]
    rule_id: str
    world: str
    reason: str
    before: dict[str, Any] | None = None
    after: dict[str, Any] | None = None
    evidence: list[Evidence] = Field(default_factory=list)
    at: str = Field(default_factory=lambda: datetime.now(timezone.utc).isoformat())


class RuleModelDiff(BaseModel):
    """How one model differs from another (by rule id)."""

    added: list[str] = Field(default_factory=list)
    removed: list[str] = Field(default_factory=list)
    changed: list[str] = Field(default_factory=list)
    retired: list[str] = Field(default_factory=list)
    reactivated: list[str] = Field(default_factory=list)

    def __str__(self) -> str:
        parts = [f"{name}: {', '.join(ids)}" for name, ids in self.model_dump().items() if ids]
        return "; ".join(parts) if parts else "no differences"

    @property
    def empty(self) -> bool:
        """True when nothing differs."""
        return not any(self.model_dump().values())


class RuleModel:
    """An editable, executable model of a system's rules."""

    def __init__(self, schema: Schema, world: str = "") -> None:
        self.schema = schema
        self.world = world
        self.history: list[HistoryEntry] = []
        self.trajectory: list[Evidence] = []
        self.notes: dict[str, Any] = {}
        self._rules: dict[str, LearnedRule] = {}
        self._next = 1
        self._cache: tuple[list[Rule], Engine] | None = None

    # -- validation ------------------------------------------------------
    def _validated(self, rule: Rule | Mapping[str, Any], rule_id: str) -> tuple[dict[str, Any], Rule]:
        raw = rule.to_dict() if isinstance(rule, Rule) else dict(rule)
        raw["id"] = rule_id
        try:
            parsed = parse_rule(raw, self.schema)
        except MemkitError as exc:
            raise RuleModelError(f"invalid rule {rule_id}: {exc}") from exc
        return parsed.to_dict() | ({"name": raw["name"]} if raw.get("name") else {}), parsed

    def _fresh_id(self) -> str:
        """The next free ``L###`` id (not taken yet: a refused rule must not use one up)."""
        n = self._next
        while f"L{n:03d}" in self._rules:
            n += 1
        return f"L{n:03d}"

    def _log(self, op: str, rule_id: str, reason: str, before: dict | None, after: dict | None, evidence: Sequence[Evidence]) -> None:
        self._cache = None
        self.history.append(
            HistoryEntry(seq=len(self.history), op=op, rule_id=rule_id, world=self.world, reason=reason,
                         before=before, after=after, evidence=list(evidence))  # type: ignore[arg-type]
        )

    # -- edits -------------------------------------------------------------
    def add(self, rule: Rule | Mapping[str, Any], *, reason: str, evidence: Sequence[Evidence] = (), confidence: float = 0.5, rule_id: str | None = None) -> str:
        """Add a rule (validated); returns its id (a fresh ``L###`` unless given)."""
        if rule_id is not None and rule_id in self._rules:
            raise RuleModelError(f"rule id {rule_id!r} is already in the model")
        rid = rule_id or self._fresh_id()
        raw, parsed = self._validated(rule, rid)
        if rule_id is None:
            self._next = int(rid[1:]) + 1
        self._rules[rid] = LearnedRule(id=rid, rule=raw, confidence=confidence, origin_world=self.world,
                                       evidence=list(evidence), text=describe_rule(parsed))
        self._log("add", rid, reason, None, raw, evidence)
        return rid

    def revise(self, rule_id: str, rule: Rule | Mapping[str, Any], *, reason: str, evidence: Sequence[Evidence] = ()) -> None:
        """Replace a rule's definition (validated), keeping its id; a retired rule becomes active again."""
        lr = self.get(rule_id)
        raw, parsed = self._validated(rule, rule_id)
        before = lr.rule
        lr.rule, lr.text, lr.status = raw, describe_rule(parsed), "active"
        lr.evidence = [*lr.evidence, *evidence][-12:]
        self._log("revise", rule_id, reason, before, raw, evidence)

    def retire(self, rule_id: str, *, reason: str, evidence: Sequence[Evidence] = ()) -> None:
        """Mark a rule retired: it stays in the model and its history, but no longer predicts."""
        lr = self.get(rule_id)
        if lr.status == "retired":
            raise RuleModelError(f"rule {rule_id} is already retired")
        lr.status = "retired"
        self._log("retire", rule_id, reason, lr.rule, None, evidence)

    def add_evidence(self, rule_id: str, evidence: Evidence) -> None:
        """Attach one more experiment to a rule."""
        lr = self.get(rule_id)
        lr.evidence = [*lr.evidence, evidence][-12:]

    def record_experiment(self, evidence: Evidence) -> None:
        """Append a discovery experiment of this world to the trajectory (not inherited)."""
        self.trajectory.append(evidence)

    # -- reading -----------------------------------------------------------------
    def get(self, rule_id: str) -> LearnedRule:
        """The rule with this id; RuleModelError when unknown."""
        try:
            return self._rules[rule_id]
        except KeyError:
            raise RuleModelError(f"no rule {rule_id!r} in the model") from None

    @property
    def rules(self) -> list[LearnedRule]:
        """All rules, active and retired, in the order they were added."""
        return list(self._rules.values())

    def active(self) -> list[LearnedRule]:
        """The active rules."""
        return [lr for lr in self._rules.values() if lr.status == "active"]

    def _compiled(self) -> tuple[list[Rule], Engine]:
        if self._cache is None:
            rules = [parse_rule(lr.rule, self.schema) for lr in self.active()]
            self._cache = (rules, Engine(self.schema, rules))
        return self._cache

    def active_rules(self) -> list[Rule]:
        """The active rules, parsed (cached until the next edit)."""
        return list(self._compiled()[0])

    # -- prediction ---------------------------------------------------------------
    def predict(self, action: Action, snapshot: State) -> list[Effect]:
        """Side effects of ``action`` under the active rules, run on ``snapshot`` (left unchanged)."""
        return self._compiled()[1].run(snapshot, action).effects

    def predict_many(self, actions: Sequence[Action], snapshot: State) -> list[list[Effect]]:
        """``predict`` for each action, each from the same snapshot."""
        engine = self._compiled()[1]
        return [engine.run(snapshot, a).effects for a in actions]

    # -- worlds ---------------------------------------------------------------------
    def inherit(self, world: str) -> RuleModel:
        """The model for the next world: rules and history, not the discovery trajectory."""
        other = RuleModel(self.schema, world)
        other._rules = copy.deepcopy(self._rules)
        other.history = [h.model_copy(deep=True) for h in self.history]
        other.notes = copy.deepcopy(self.notes)
        other._next = self._next
        return other

    def diff(self, other: RuleModel) -> RuleModelDiff:
        """What changed from ``self`` to ``other``."""
        d = RuleModelDiff()
        for rid, lr in other._rules.items():
            mine = self._rules.get(rid)
            if mine is None:
                d.added.append(rid)
                continue
            if mine.rule != lr.rule:
                d.changed.append(rid)
            if mine.status == "active" and lr.status == "retired":
                d.retired.append(rid)
            if mine.status == "retired" and lr.status == "active":
                d.reactivated.append(rid)
        d.removed = [rid for rid in self._rules if rid not in other._rules]
        return d

    def to_world_dict(self, name: str, records: Mapping[str, list[dict[str, Any]]] | None = None) -> dict[str, Any]:
        """A complete worldshift/1 world whose rules are the active rules."""
        out: dict[str, Any] = {"format": "worldshift/1", "name": name,
                               "description": f"rules learned by memkit (model of {self.world or 'unknown world'})",
                               "tables": self.schema.to_dict()}
        if records:
            out["records"] = {t: [dict(r) for r in rows] for t, rows in records.items()}
        out["rules"] = [dict(lr.rule) for lr in self.active()]
        return out

    def export(self, path: str | Path, *, name: str | None = None, records: Mapping[str, list[dict[str, Any]]] | None = None) -> Path:
        """Write the model as a worldshift/1 file (YAML or JSON by extension)."""
        path = Path(path)
        data = self.to_world_dict(name or f"{self.world or 'model'}-learned", records)
        path.parent.mkdir(parents=True, exist_ok=True)
        if path.suffix.lower() == ".json":
            path.write_text(json.dumps(data, indent=2))
        else:
            path.write_text(yaml.safe_dump(data, sort_keys=False, allow_unicode=True))
        return path

    # -- persistence -------------------------------------------------------------------
    def to_json(self) -> dict[str, Any]:
        """A JSON-able dict of the whole model (rules, history, trajectory)."""
        return {
            "world": self.world,
            "next": self._next,
            "notes": self.notes,
            "rules": [lr.model_dump() for lr in self._rules.values()],
            "history": [h.model_dump() for h in self.history],
            "trajectory": [e.model_dump() for e in self.trajectory],
        }

    @classmethod
    def from_json(cls, data: Mapping[str, Any], schema: Schema) -> RuleModel:
        """Rebuild a model saved with ``to_json``."""
        model = cls(schema, data.get("world", ""))
        model._next = int(data.get("next", 1))
        model.notes = dict(data.get("notes") or {})
        for raw in data.get("rules", []):
            lr = LearnedRule.model_validate(raw)
            model._rules[lr.id] = lr
        model.history = [HistoryEntry.model_validate(h) for h in data.get("history", [])]
        model.trajectory = [Evidence.model_validate(e) for e in data.get("trajectory", [])]
        return model
