"""The LLM discovery policy: a chat model plans experiments and edits the rule model, all through tools.

Each round of the discovery graph calls :meth:`LLMPolicy.plan`, which runs a
tool loop (:func:`memkit.llm_tools.run_tool_loop`) where the model reads
records (``query``, ``get``, and ``list_rules``/``read_rule`` when the
platform's access allows), queues this round's writes (``propose_writes``,
checked against the schema and the initial records before anything runs),
edits the model (``model_add``/``model_revise``/``model_retire``, validated by
:class:`~memkit.rules.model.RuleModel`) and calls ``done``. The queued writes
are returned and run by the graph's act node, which counts them against the
budget. :meth:`LLMPolicy.induce` then shows the model the new experiments,
with what the current rules predict for each, in a second short tool loop
with the model tools only. The end-of-discovery audit is the graph's own
(the same Inducer as the default policy).

Model mistakes (unknown tool, bad arguments, an invalid write or rule) are
shown back to the model and kept in :attr:`LLMPolicy.errors`; they never
raise. An endpoint that fails (:class:`~memkit.errors.LLMError`) does raise:
that is not the model's mistake, and a run must not silently lose its LLM.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from functools import lru_cache
from importlib import resources
from string import Template
from typing import Any, Literal

import yaml
from pydantic import BaseModel, Field, ValidationError

from memkit.errors import ConfigError, MemkitError, RuleModelError, WriteError
from memkit.llm import ChatModel
from memkit.llm_tools import Tool, ToolLoopResult, run_tool_loop
from memkit.rules import Action, Effect, Engine, Schema, same_effects
from memkit.rules.model import Evidence

from agents.cda.session import DiscoverySession, Observation

__all__ = ["LLMPolicy", "Prompts", "load_prompts", "render_effect", "render_observation"]

_MAX_ROWS = 40  # rows a query shows; more are counted, so the model narrows its where
_OBS_IN_PLAN = 12  # experiments listed in the planning prompt


# -- prompts (package data) -------------------------------------------------------------


class Prompts(BaseModel):
    """The prompt texts of ``agents/cda/prompts.yaml``."""

    language: str
    plan_system: str
    plan_user: str
    induce_system: str
    induce_user: str
    tools: dict[str, str]


@lru_cache(maxsize=1)
def load_prompts() -> Prompts:
    """The policy's prompts, read once from the package data file ``prompts.yaml``."""
    text = resources.files("agents.cda").joinpath("prompts.yaml").read_text(encoding="utf-8")
    try:
        return Prompts.model_validate(yaml.safe_load(text))
    except ValidationError as exc:
        raise ConfigError(f"agents/cda/prompts.yaml is malformed: {exc}") from exc


# -- tool arguments ------------------------------------------------------------------------


class QueryArgs(BaseModel):
    """Arguments of ``query``."""

    table: str
    where: dict[str, Any] | str | None = Field(
        default=None, description="field -> value (all equal), or an expression over row such as \"row.total > 100\""
    )


class GetArgs(BaseModel):
    """Arguments of ``get``."""

    table: str
    id: str


class RuleIdArgs(BaseModel):
    """Arguments of ``read_rule``."""

    id: str


class NoArgs(BaseModel):
    """A tool without arguments."""


class DoneArgs(BaseModel):
    """Arguments of ``done``."""

    note: str = Field(default="", description="optional: what you concluded")


class WriteSpec(BaseModel):
    """One write the model asks for."""

    op: Literal["insert", "update", "delete"]
    table: str
    id: str | None = Field(default=None, description="required for update and delete; leave out for a fresh insert id")
    values: dict[str, Any] = Field(default_factory=dict)
    why: str = Field(default="", description="what this write tests")


class ProposeArgs(BaseModel):
    """Arguments of ``propose_writes``."""

    writes: list[WriteSpec] = Field(min_length=1)


class AddArgs(BaseModel):
    """Arguments of ``model_add``."""

    rule: dict[str, Any] | str = Field(description="a worldshift/1 rule object")
    reason: str = ""
    evidence: list[int] = Field(default_factory=list, description="numbers of the experiments that show the rule")


class ReviseArgs(AddArgs):
    """Arguments of ``model_revise``."""

    id: str


class RetireArgs(BaseModel):
    """Arguments of ``model_retire``."""

    id: str
    reason: str
    evidence: list[int] = Field(default_factory=list)


# -- rendering -------------------------------------------------------------------------------


def _value(v: Any) -> str:
    return json.dumps(v, ensure_ascii=False)


def render_effect(effect: Sequence[Any]) -> str:
    """One side effect as a short line: ``set order/O1.total = 60``, ``create approval with state = "requested"``."""
    kind = effect[0] if effect else ""
    if kind == "set" and len(effect) == 5:
        return f"set {effect[1]}/{effect[2]}.{effect[3]} = {_value(effect[4])}"
    if kind == "create" and len(effect) == 4:
        return f"create {effect[1]} with {effect[2]} = {_value(effect[3])}"
    if kind == "delete" and len(effect) == 3:
        return f"delete {effect[1]}/{effect[2]}"
    return _value(list(effect))


def _effects_text(effects: Sequence[Effect]) -> str:
    return "; ".join(render_effect(e) for e in effects) if effects else "(none)"


def render_observation(number: int, obs: Observation, predicted: Sequence[Effect] | None) -> str:
    """An experiment for the prompt: the write, the record before it, the effects, and the model's prediction."""
    a = obs.action
    values = f" {_value(dict(a.values))}" if a.values else ""
    lines = [f"#{number} {a.op} {a.table}/{a.id}{values}"]
    if a.op != "insert":
        before = obs.before.get(a.table, a.id) if obs.before is not None else None
        if before is not None:
            lines.append(f"   record before: {_value(dict(before))}")
    if obs.rolled_back:
        lines.append("   rolled back (a chain of writes went too deep): nothing changed")
    lines.append(f"   effects: {_effects_text(obs.effects)}")
    if predicted is not None:
        verdict = "matches" if same_effects(predicted, obs.effects) else f"predicts {_effects_text(predicted)}"
        lines.append(f"   model: {verdict}")
    return "\n".join(lines)


def _schema_text(schema: Schema) -> str:
    lines = []
    for table, spec in schema.to_dict().items():
        fields = []
        for name, f in spec["fields"].items():
            kind = f["type"]
            if kind == "choice":
                kind += "[" + "|".join(f["choices"]) + "]"
            elif kind == "reference":
                kind += f"->{f['ref']}"
            if "default" in f:
                kind += f" (default {_value(f['default'])})"
            fields.append(f"{name}: {kind}")
        lines.append(f"  {table}: " + ", ".join(fields))
    return "\n".join(lines)


# -- the policy -------------------------------------------------------------------------------


class LLMPolicy:
    """A :class:`~agents.cda.session.DiscoveryPolicy` whose experiments and model edits come from a chat model.

    ``max_steps_per_round`` bounds the chat requests of one planning loop,
    ``writes_per_round`` the writes one round may queue, ``induce_steps`` the
    chat requests of one induction loop. ``errors`` keeps every model mistake
    (shown back to the model, never raised); ``loops`` keeps each tool loop's
    result (conversation, usage, stop reason) for inspection.
    """

    name = "llm"

    def __init__(
        self,
        model: ChatModel,
        *,
        max_steps_per_round: int = 20,
        writes_per_round: int = 10,
        induce_steps: int = 8,
        temperature: float | None = None,
    ) -> None:
        if max_steps_per_round < 1 or induce_steps < 1:
            raise ConfigError("max_steps_per_round and induce_steps must be >= 1")
        if writes_per_round < 1:
            raise ConfigError(f"writes_per_round must be >= 1, got {writes_per_round}")
        self.model = model
        self.max_steps_per_round = max_steps_per_round
        self.writes_per_round = writes_per_round
        self.induce_steps = induce_steps
        self.temperature = temperature
        self.prompts = load_prompts()
        self.errors: list[str] = []
        self.loops: list[ToolLoopResult] = []

    # -- the protocol ---------------------------------------------------------------
    def plan(self, session: DiscoverySession) -> list[Action]:
        """Run the planning tool loop; return the writes the model queued (empty: discovery ends)."""
        queued: list[tuple[str, Action]] = []
        tools = self._read_tools(session) + [self._propose_tool(session, queued)] + self._model_tools(session)
        tools.append(self._done_tool())
        messages = [
            {"role": "system", "content": self._fill(self.prompts.plan_system, rule_tools=self._rule_tools_text(session),
                                                     writes_per_round=str(self._round_limit(session)),
                                                     writes_left=str(session.writes_left))},
            {"role": "user", "content": self._plan_user(session)},
        ]
        result = self._loop(session, "plan", messages, tools, self.max_steps_per_round)
        session.note(f"llm plan: {len(queued)} writes queued ({result.stopped}, {len(result.steps)} requests)")
        session.scratch["purposes"] = {id(a): why for why, a in queued}
        return [a for _, a in queued]

    def induce(self, session: DiscoverySession, new: list[Observation]) -> int:
        """Show the model the new experiments and let it edit the rule model; return the number of edits."""
        if not new:
            return 0
        before = len(session.model.history)
        numbers = {id(o): i for i, o in enumerate(session.observations)}
        shown = "\n".join(
            render_observation(numbers.get(id(o), -1), o, self._predicted(session, o)) for o in new
        )
        messages = [
            {"role": "system", "content": self._fill(self.prompts.induce_system)},
            {"role": "user", "content": self._fill(self.prompts.induce_user, schema=_schema_text(session.platform.schema()),
                                                   n_rules=str(len(session.model.active())),
                                                   rules=self._rules_text(session), observations=shown)},
        ]
        tools = self._model_tools(session) + [self._done_tool()]
        self._loop(session, "induce", messages, tools, self.induce_steps)
        return len(session.model.history) - before

    # -- loops and prompts --------------------------------------------------------------
    def _loop(self, session: DiscoverySession, phase: str, messages: list[dict[str, Any]], tools: list[Tool[Any]],
              max_steps: int) -> ToolLoopResult:
        result = run_tool_loop(self.model, messages, tools, max_steps=max_steps, stop_tool="done",
                               temperature=self.temperature)
        self.loops.append(result)
        for error in result.errors:
            self.errors.append(error)
            session.note(f"llm {phase} mistake: {error}")
        return result

    def _fill(self, template: str, **values: str) -> str:
        return Template(template).substitute({"language": self.prompts.language.rstrip(), **values})

    def _round_limit(self, session: DiscoverySession) -> int:
        return max(0, min(self.writes_per_round, session.writes_left))

    @staticmethod
    def _access(session: DiscoverySession) -> str:
        return str(getattr(session.platform, "access", "blind"))

    def _rule_tools_text(self, session: DiscoverySession) -> str:
        access = self._access(session)
        if access == "definitions":
            return ", list_rules, read_rule"
        if access == "listing":
            return ", list_rules"
        return ""

    @staticmethod
    def _rules_text(session: DiscoverySession) -> str:
        active = session.model.active()
        return "\n".join(f"  {lr.id}: {lr.text}" for lr in active) if active else "  (no rules yet)"

    @staticmethod
    def _predicted(session: DiscoverySession, obs: Observation) -> list[Effect] | None:
        if obs.before is None:
            return None
        try:
            return session.model.predict(obs.action, obs.before)
        except MemkitError:
            return None

    def _plan_user(self, session: DiscoverySession) -> str:
        observations = session.observations
        predictions = [self._predicted(session, o) for o in observations]
        mismatched = [i for i, (o, p) in enumerate(zip(observations, predictions))
                      if p is not None and not same_effects(p, o.effects)]
        # the model cannot see earlier rounds otherwise: mismatches first, then the latest
        picked = set(mismatched[-_OBS_IN_PLAN:])
        for i in range(len(observations) - 1, -1, -1):
            if len(picked) >= _OBS_IN_PLAN:
                break
            picked.add(i)
        chosen = sorted(picked)
        shown = "\n".join(render_observation(i, observations[i], predictions[i]) for i in chosen)
        if len(chosen) < len(observations):
            shown = f"(showing {len(chosen)} of them)\n{shown}"
        return self._fill(
            self.prompts.plan_user,
            world=session.world or "unnamed",
            access=self._access(session),
            schema=_schema_text(session.platform.schema()),
            writes_left=str(session.writes_left),
            budget=str(session.budget),
            writes_per_round=str(self._round_limit(session)),
            n_rules=str(len(session.model.active())),
            rules=self._rules_text(session),
            n_obs=str(len(observations)),
            n_mismatch=str(len(mismatched)),
            observations=shown,
        )

    # -- tools ---------------------------------------------------------------------------
    def _tool(self, name: str, args: type[BaseModel], fn: Any) -> Tool[Any]:
        return Tool(name, self.prompts.tools[name], args, fn)

    def _done_tool(self) -> Tool[Any]:
        return self._tool("done", DoneArgs, lambda args: "ok")

    def _read_tools(self, session: DiscoverySession) -> list[Tool[Any]]:
        platform = session.platform
        schema: Schema = platform.schema()

        def known_table(table: str) -> None:
            if table not in schema.tables:
                raise WriteError(f"unknown table {table!r}; tables are {sorted(schema.tables)}")

        def query(args: QueryArgs) -> dict[str, Any]:
            known_table(args.table)
            rows = platform.query(args.table, args.where)
            out: dict[str, Any] = {"count": len(rows), "rows": rows[:_MAX_ROWS]}
            if len(rows) > _MAX_ROWS:
                out["note"] = f"showing {_MAX_ROWS} of {len(rows)} rows; narrow the query with where"
            return out

        def get(args: GetArgs) -> dict[str, Any]:
            known_table(args.table)
            record = platform.get(args.table, args.id)
            if record is None:
                raise WriteError(f"no record {args.table}/{args.id}")
            return record

        tools = [self._tool("query", QueryArgs, query), self._tool("get", GetArgs, get)]
        access = self._access(session)
        # offered only where the platform allows them: the model should not waste steps on AccessError
        if access in ("listing", "definitions"):
            tools.append(self._tool("list_rules", NoArgs, lambda args: platform.list_rules()))
        if access == "definitions":
            tools.append(self._tool("read_rule", RuleIdArgs, lambda args: platform.read_rule(args.id)))
        return tools

    def _propose_tool(self, session: DiscoverySession, queued: list[tuple[str, Action]]) -> Tool[Any]:
        platform = session.platform
        schema: Schema = platform.schema()
        checker = Engine(schema, ())  # no rules: only its schema and record checks are used
        initial = session.platform_initial
        seen = {repr(o.action.to_dict()) for o in session.observations if o.action.op != "insert"}

        def propose(args: ProposeArgs) -> str:
            limit = self._round_limit(session)
            if len(queued) + len(args.writes) > limit:
                raise WriteError(
                    f"{len(args.writes)} writes would make {len(queued) + len(args.writes)} this round; "
                    f"the limit is {limit} ({len(queued)} already queued). Nothing was queued."
                )
            actions: list[tuple[str, Action]] = []
            problems: list[str] = []
            for n, w in enumerate(args.writes):
                if w.op == "insert" and not w.id and w.table in schema.tables:
                    rid = platform.new_id(w.table)
                else:
                    rid = w.id or ""
                action = Action(w.op, w.table, rid, dict(w.values))
                try:
                    if w.op == "update" and not w.values:
                        raise WriteError("an update needs values")
                    checker.check_action(initial, action)
                except WriteError as exc:
                    problems.append(f"write {n}: {exc}")
                    continue
                actions.append((f"llm: {w.why}" if w.why else "llm", action))
            if problems:
                raise WriteError("nothing was queued; " + "; ".join(problems))
            queued.extend(actions)
            lines = [f"queued {a}" + (" (already observed: it costs a write again)" if repr(a.to_dict()) in seen else "")
                     for _, a in actions]
            lines.append(f"{len(queued)} of {limit} writes queued this round; call done to run them")
            return "\n".join(lines)

        return self._tool("propose_writes", ProposeArgs, propose)

    def _model_tools(self, session: DiscoverySession) -> list[Tool[Any]]:
        model = session.model

        def evidence(numbers: list[int]) -> list[Evidence]:
            out = []
            for n in numbers:
                if not 0 <= n < len(session.observations):
                    raise RuleModelError(f"no experiment #{n}; experiments are #0..#{len(session.observations) - 1}")
                obs = session.observations[n]
                out.append(Evidence(action=obs.action.to_dict(), effects=[list(e) for e in obs.effects],
                                    world=session.world, note="cited by the LLM"))
            return out

        def rule_dict(rule: dict[str, Any] | str) -> dict[str, Any]:
            if isinstance(rule, dict):
                return rule
            # some models send the nested object as a JSON string
            try:
                value = json.loads(rule)
            except json.JSONDecodeError as exc:
                raise RuleModelError(f"rule must be a JSON object: {exc}") from exc
            if not isinstance(value, dict):
                raise RuleModelError(f"rule must be a JSON object, got {type(value).__name__}")
            return value

        def add(args: AddArgs) -> str:
            ev = evidence(args.evidence)
            rid = model.add(rule_dict(args.rule), reason=args.reason or "proposed by the LLM", evidence=ev)
            session.note(f"llm added {rid}: {model.get(rid).text}")
            return f"added {rid}: {model.get(rid).text}"

        def revise(args: ReviseArgs) -> str:
            ev = evidence(args.evidence)
            model.revise(args.id, rule_dict(args.rule), reason=args.reason or "revised by the LLM", evidence=ev)
            session.note(f"llm revised {args.id}: {model.get(args.id).text}")
            return f"revised {args.id}: {model.get(args.id).text}"

        def retire(args: RetireArgs) -> str:
            ev = evidence(args.evidence)
            model.retire(args.id, reason=args.reason, evidence=ev)
            session.note(f"llm retired {args.id}: {args.reason}")
            return f"retired {args.id}"

        return [
            self._tool("model_add", AddArgs, add),
            self._tool("model_revise", ReviseArgs, revise),
            self._tool("model_retire", RetireArgs, retire),
        ]
