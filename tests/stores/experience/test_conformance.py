"""Every experience backend passes the one conformance suite (stores.experience.conformance)."""

from __future__ import annotations

import pytest

from stores.experience.conformance import CHECKS, BackendHarness, run_all


@pytest.mark.parametrize("name", list(CHECKS))
def test_conformance(harness: BackendHarness, name: str) -> None:
    CHECKS[name](harness)


def test_run_all_reports_failures_of_a_broken_backend() -> None:
    """The suite can fail: a backend that forgets deletes is caught."""
    from stores.experience import InMemoryBackend

    class ForgetsDeletes(InMemoryBackend):
        def delete(self, ids):  # type: ignore[no-untyped-def]
            return len([i for i in ids if self.get([i])[0] is not None])

    failures = run_all(BackendHarness("broken", ForgetsDeletes))
    assert "delete_counts_existing_and_removes_everywhere" in failures
    assert "upsert_then_get_round_trips_every_field" not in failures
