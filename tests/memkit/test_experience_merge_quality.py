"""Merge quality at the default threshold with the default embedder: paraphrases merge, distinct entries stay."""

from __future__ import annotations

import pytest

from memkit.embeddings import SentenceTransformerEmbedder
from memkit.experience import DEFAULT_NOVELTY_THRESHOLD, ExperienceEntry, ExperienceLibrary
from stores.experience import InMemoryBackend
from tests.memkit.merge_pairs import DISTINCT, PARAPHRASES


@pytest.fixture(scope="module")
def embedder() -> SentenceTransformerEmbedder:
    return SentenceTransformerEmbedder(num_threads=1)


@pytest.mark.parametrize(("first", "second"), PARAPHRASES)
def test_paraphrases_are_merged(embedder: SentenceTransformerEmbedder, first: str, second: str) -> None:
    lib = ExperienceLibrary(InMemoryBackend(), embedder)
    assert lib.novelty_threshold == DEFAULT_NOVELTY_THRESHOLD
    results = lib.add([ExperienceEntry(tier="pattern", text=first), ExperienceEntry(tier="pattern", text=second)])
    assert results[1].action in ("merged", "discarded"), f"similarity {results[1].similarity}"
    assert lib.count() == 1 and lib.list()[0].support == 2


@pytest.mark.parametrize(("first", "second"), DISTINCT)
def test_distinct_entries_are_kept(embedder: SentenceTransformerEmbedder, first: str, second: str) -> None:
    lib = ExperienceLibrary(InMemoryBackend(), embedder)
    results = lib.add([ExperienceEntry(tier="pattern", text=first), ExperienceEntry(tier="pattern", text=second)])
    assert [r.action for r in results] == ["inserted", "inserted"], f"similarity {results[1].similarity}"
    assert lib.count() == 2
