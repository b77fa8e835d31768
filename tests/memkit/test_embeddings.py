"""Embeddings: shapes, normalisation, determinism, the cache, and meaning for the default model."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from memkit.embeddings import Embedder, HashingEmbedder, SentenceTransformerEmbedder, normalize_rows
from memkit.errors import ConfigError


@pytest.fixture(scope="session")
def st_embedder() -> SentenceTransformerEmbedder:
    return SentenceTransformerEmbedder(num_threads=1)


def test_both_embedders_satisfy_the_protocol(st_embedder: SentenceTransformerEmbedder) -> None:
    assert isinstance(HashingEmbedder(), Embedder)
    assert isinstance(st_embedder, Embedder)


@given(st.lists(st.text(max_size=60), min_size=1, max_size=8))
@settings(max_examples=60, deadline=None)
def test_hashing_rows_are_unit_float32_and_deterministic(texts: list[str]) -> None:
    emb = HashingEmbedder(dim=64)
    a = emb.embed(texts)
    b = HashingEmbedder(dim=64).embed(texts)
    assert a.shape == (len(texts), 64)
    assert a.dtype == np.float32
    np.testing.assert_allclose(np.linalg.norm(a, axis=1), 1.0, rtol=1e-5)
    np.testing.assert_array_equal(a, b)


def test_hashing_shared_words_are_closer_than_unrelated() -> None:
    v = HashingEmbedder().embed(["chest pain radiating to the left arm", "left arm chest pain", "renal tubular acidosis"])
    assert v[0] @ v[1] > v[0] @ v[2] + 0.2


def test_hashing_rejects_tiny_dim() -> None:
    with pytest.raises(ConfigError):
        HashingEmbedder(dim=2)


def test_empty_input_gives_empty_matrix() -> None:
    assert HashingEmbedder(dim=32).embed([]).shape == (0, 32)


def test_normalize_rows_keeps_zero_rows() -> None:
    out = normalize_rows(np.array([[3.0, 4.0], [0.0, 0.0]]))
    np.testing.assert_allclose(out, [[0.6, 0.8], [0.0, 0.0]])


def test_sentence_transformer_shape_norm_and_meaning(st_embedder: SentenceTransformerEmbedder) -> None:
    texts = [
        "Aspirin reduces the risk of myocardial infarction.",
        "Taking aspirin lowers heart attack risk.",
        "The mitochondria remodel lace plant leaves.",
    ]
    v = st_embedder.embed(texts)
    assert st_embedder.dim == 384
    assert v.shape == (3, 384) and v.dtype == np.float32
    np.testing.assert_allclose(np.linalg.norm(v, axis=1), 1.0, rtol=1e-4)
    assert v[0] @ v[1] > v[0] @ v[2] + 0.3


def test_sentence_transformer_cache_encodes_each_text_once(st_embedder: SentenceTransformerEmbedder) -> None:
    before = st_embedder.encoded
    first = st_embedder.embed(["a fresh cached sentence about the kidney", "another one about the liver"])
    middle = st_embedder.encoded
    again = st_embedder.embed(["another one about the liver", "a fresh cached sentence about the kidney"])
    assert middle - before == 2
    assert st_embedder.encoded == middle
    np.testing.assert_array_equal(first[::-1], again)


def test_sentence_transformer_bad_path_is_a_config_error(tmp_path) -> None:
    (tmp_path / "config.json").write_text("{}")
    with pytest.raises(ConfigError, match="cannot load"):
        SentenceTransformerEmbedder(tmp_path).embed(["x"])
