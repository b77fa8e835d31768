"""Slow end-to-end: the offline case-based team on the real PubMedQA split answers better with the mined library."""

from __future__ import annotations

import pytest

from evals.medqa.runner import RunSettings, run_experiment
from memkit.embeddings import SentenceTransformerEmbedder


@pytest.mark.slow
def test_mined_library_beats_empty_library_on_pubmedqa() -> None:
    out = run_experiment(
        RunSettings(mine_on="pubmedqa", eval_on="pubmedqa", runs=1, rounds=1),
        SentenceTransformerEmbedder(num_threads=1),
    )
    rows = {r["library"]: r for r in out["results"]}
    assert rows["none"]["questions"] == 500
    assert rows["mined"]["accuracy_mean"] > rows["none"]["accuracy_mean"]
