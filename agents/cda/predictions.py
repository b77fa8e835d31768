"""Engine results per observation, reused while the rules that shaped them are unchanged.

Induction replays every observation through the current rules after each repair,
although a repair usually touches one slot: a replay only depends on the rules of
the (table, op) triggers its writes ran (``ActionResult.triggers``), so a stored
result stays exact as long as those rules are the same, whatever else changed.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from memkit.errors import MemkitError
from memkit.rules import Schema, same_effects
from memkit.rules.engine import ActionResult, Engine
from memkit.rules.rule import Rule

from agents.cda.session import DiscoverySession, Observation
from agents.cda.slots import Slot, effects_in_slot

__all__ = ["PredictionCache", "predictions_of", "mispredicted"]

# results kept per observation: the current rules and a few recent variants (rival rules
# tried during a repair) are what comes back
_KEEP = 4


class PredictionCache:
    """Replays of observations under rule sets, each computed once per relevant rule set."""

    def __init__(self, schema: Schema) -> None:
        self.schema = schema
        self._memo: dict[int, tuple[Observation, list[tuple[tuple[tuple[str, str], ...], tuple[tuple[Rule, ...], ...], ActionResult]]]] = {}
        self.hits = 0
        self.misses = 0

    def engine(self, rules: Sequence[Rule]) -> Engine:
        """An engine over ``rules`` to pass to :meth:`run`."""
        return Engine(self.schema, rules)

    def run(self, engine: Engine, obs: Observation) -> ActionResult:
        """``engine.run(obs.before, obs.action)``, from the store when the relevant rules match.

        The result is shared: callers must not change it.
        """
        entry = self._memo.get(id(obs))
        if entry is not None and entry[0] is obs:
            for triggers, signature, result in entry[1]:
                if all(engine.rules_for(t, op) == sig for (t, op), sig in zip(triggers, signature)):
                    self.hits += 1
                    return result
        else:
            entry = (obs, [])
            self._memo[id(obs)] = entry
        self.misses += 1
        result = engine.run(obs.before, obs.action)
        triggers = tuple(sorted(result.triggers))
        entry[1].insert(0, (triggers, tuple(engine.rules_for(t, op) for t, op in triggers), result))
        del entry[1][_KEEP:]
        return result


def predictions_of(session: DiscoverySession) -> PredictionCache:
    """The session's cache (one per world's discovery: its observations are the keys)."""
    cache = session.scratch.get("predictions")
    if not isinstance(cache, PredictionCache):
        cache = session.scratch["predictions"] = PredictionCache(session.platform.schema())
    return cache


def mispredicted(engine: Engine, observations: Iterable[Observation], slots: Sequence[Slot] = ()) -> int:
    """How many of ``observations`` (rolled-back writes left out) ``engine`` gets wrong, as effect
    multisets: in ``slots`` where given (the rest of a write may be another rule's to explain),
    else in all its effects. A write the engine refuses counts as wrong."""
    bad = 0
    for o in observations:
        if o.rolled_back:
            continue
        try:
            got = engine.run(o.before, o.action).effects
        except MemkitError:
            bad += 1
            continue
        if slots:
            bad += any(not same_effects(effects_in_slot(slot, o.action, got), effects_in_slot(slot, o.action, o.effects)) for slot in slots)
        else:
            bad += not same_effects(got, o.effects)
    return bad
