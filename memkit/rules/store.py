"""Where learned rule models live between worlds: the RuleStore protocol.

One version per world (saving a world again replaces its version), the
latest version by save order, and models restored exactly as saved.
Backends are in ``stores/rule_store.py``; one conformance suite
(``stores/conformance/rule_store.py``) checks every backend.
"""

from __future__ import annotations

from typing import Protocol, runtime_checkable

from memkit.rules.model import RuleModel

__all__ = ["RuleStore"]


@runtime_checkable
class RuleStore(Protocol):
    """Versions of a rule model, one per world."""

    def save(self, model: RuleModel, world: str) -> int:
        """Store ``model`` as the version of ``world`` (replacing an earlier one); return its version number."""
        ...

    def load(self, world: str | None = None) -> RuleModel:
        """The model saved for ``world``, or the latest saved one; NotFoundError when there is none."""
        ...

    def worlds(self) -> list[str]:
        """Worlds with a saved version, in save order."""
        ...

    def versions(self) -> list[tuple[int, str, str]]:
        """(version, world, saved_at ISO time) for every stored version, oldest first."""
        ...

    def delete(self, world: str) -> None:
        """Remove the version of ``world``; NotFoundError when there is none."""
        ...

    def close(self) -> None:
        """Release resources (idempotent)."""
        ...
