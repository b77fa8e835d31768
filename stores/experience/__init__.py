"""Experience-library backends and the one conformance suite they all pass.

- :class:`InMemoryBackend` (``stores.experience.memory``): the numpy reference;
- :class:`ChromaBackend` (``stores.experience.chroma``): a persistent directory or a Chroma server;
- :func:`open_backend` / :func:`open_library`: pick one from a location string;
- ``stores.experience.conformance``: the behaviours every backend must show.
"""

from __future__ import annotations

from pathlib import Path

from memkit.embeddings import Embedder
from memkit.errors import ConfigError
from memkit.experience import ExperienceBackend, ExperienceLibrary, MergePolicy
from stores.experience.memory import InMemoryBackend

__all__ = ["InMemoryBackend", "ChromaBackend", "open_backend", "open_library"]


def __getattr__(name: str) -> object:
    # chromadb is heavy to import; load it only when asked for.
    if name == "ChromaBackend":
        from stores.experience.chroma import ChromaBackend

        return ChromaBackend
    raise AttributeError(name)


def open_backend(location: str | Path | None, *, collection: str = "memkit-experience") -> ExperienceBackend:
    """A backend from a location: ``None`` or ``"memory"`` (in memory), ``"http://HOST:PORT"`` (Chroma server), else a directory (Chroma persistent)."""
    from stores.experience.chroma import ChromaBackend

    if location is None or str(location) in ("memory", ":memory:"):
        return InMemoryBackend()
    text = str(location)
    if text.startswith(("http://", "https://")):
        hostport = text.split("://", 1)[1].rstrip("/")
        host, _, port = hostport.partition(":")
        if not port.isdigit():
            raise ConfigError(f"a Chroma server location needs a port: {text!r} (e.g. http://127.0.0.1:8000)")
        return ChromaBackend.http(host, int(port), collection)
    return ChromaBackend.persistent(Path(text), collection)


def open_library(
    location: str | Path | None,
    embedder: Embedder,
    *,
    merge_policy: MergePolicy | None = None,
    novelty_threshold: float | None = None,
    collection: str = "memkit-experience",
) -> ExperienceLibrary:
    """An :class:`ExperienceLibrary` over :func:`open_backend`'s backend."""
    kwargs: dict[str, object] = {"merge_policy": merge_policy}
    if novelty_threshold is not None:
        kwargs["novelty_threshold"] = novelty_threshold
    return ExperienceLibrary(open_backend(location, collection=collection), embedder, **kwargs)  # type: ignore[arg-type]
