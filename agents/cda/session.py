"""What a discovery run carries from node to node: the platform, the model, the budget, the observations."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, Protocol, runtime_checkable

from memkit.rules import Action, Effect, State
from memkit.rules.model import RuleModel

__all__ = ["Observation", "DiscoverySession", "DiscoveryPolicy", "DiscoveryReport", "Checkpoint"]


@dataclass
class Observation:
    """One experiment: the write, the state just before it, and the side effects the platform showed."""

    action: Action
    before: State
    effects: list[Effect]
    rolled_back: bool = False
    purpose: str = ""
    after: State | None = None

    def created_ids(self, table: str) -> list[str]:
        """Ids of the ``table`` records the write's rules created (in the after-state, not before
        it, and not the record the write itself inserted), in the after-state's order."""
        if self.after is None:
            return []
        a = self.action
        return [rid for rid in self.after.tables[table]
                if rid not in self.before.tables[table] and not (a.op == "insert" and a.table == table and rid == a.id)]


Checkpoint = Callable[[int, RuleModel], None]


@dataclass
class DiscoverySession:
    """Mutable state of one discovery run over one world.

    ``platform`` is the live system (an ``evals.worldshift.Platform`` or
    anything with the same methods: ``schema``, ``snapshot``, ``write``,
    ``reset``, ``query``, ``list_rules``/``read_rule`` as access allows,
    and ``reads``/``writes`` counters).
    """

    platform: Any
    model: RuleModel
    budget: int
    world: str = ""
    audit: bool = True
    seed: int = 0
    observations: list[Observation] = field(default_factory=list)
    log: list[str] = field(default_factory=list)
    checkpoint: Checkpoint | None = None
    checkpoint_every: int = 0
    progress: Callable[[int, int], None] | None = None
    rounds_without_change: int = 0
    scratch: dict[str, Any] = field(default_factory=dict)
    platform_initial: State | None = None

    @property
    def writes_left(self) -> int:
        """Writes still allowed by the budget."""
        return self.budget - self.platform.writes

    def note(self, message: str) -> None:
        """Add a line to the run log."""
        self.log.append(message)


@runtime_checkable
class DiscoveryPolicy(Protocol):
    """Chooses experiments and turns observations into model edits."""

    name: str

    def plan(self, session: DiscoverySession) -> list[Action]:
        """The next experiments to run (empty when it has nothing more to try)."""
        ...

    def induce(self, session: DiscoverySession, new: list[Observation]) -> int:
        """Update ``session.model`` from new observations; return how many model edits were made."""
        ...


@dataclass
class DiscoveryReport:
    """Summary of one discovery run."""

    world: str
    writes: int
    reads: int
    edits: int
    retired: list[str]
    revised: list[str]
    added: list[str]
    log: list[str]
