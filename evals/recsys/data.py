"""Loaders for the order-only recsys files in ../shared/data/recsys.

Two layouts: ``pairs`` (``user item`` a line, each user's lines in time order;
Amazon Video Games from SASRec) and ``lists`` (``user i1 i2 ...`` a line;
Amazon Toys from ICLRec). Neither has timestamps: only the order of each
user's interactions. A malformed line raises :class:`DataFormatError` naming
the file and line.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import numpy as np

from memkit.errors import ConfigError, DataFormatError

__all__ = ["DATASETS", "Interactions", "default_data_dir", "load_file", "load_dataset", "subsample"]

DATASETS: dict[str, tuple[str, str]] = {
    "games": ("amazon_video_games_sasrec.txt", "pairs"),
    "toys": ("amazon_toys_iclrec.txt", "lists"),
}


@dataclass
class Interactions:
    """Each user's items in interaction order; item ids 1..n_items (0 is padding)."""

    sequences: dict[int, list[int]]
    n_items: int
    source: str

    @property
    def n_interactions(self) -> int:
        """Total number of interactions."""
        return sum(len(s) for s in self.sequences.values())


def default_data_dir() -> Path:
    """``../shared/data/recsys`` relative to the project root."""
    return Path(__file__).resolve().parents[2].parent / "shared" / "data" / "recsys"


def _int(token: str, path: Path, line: int) -> int:
    try:
        value = int(token)
    except ValueError:
        raise DataFormatError(f"expected an integer id, got {token!r}", path=str(path), line=line) from None
    if value < 1:
        raise DataFormatError(f"ids start at 1, got {value}", path=str(path), line=line)
    return value


def load_file(path: str | Path, layout: str) -> Interactions:
    """Read a ``pairs`` or ``lists`` file; items are re-numbered 1..n in order of first appearance."""
    path = Path(path)
    if layout not in ("pairs", "lists"):
        raise ConfigError(f"unknown layout {layout!r}: expected 'pairs' or 'lists'")
    if not path.is_file():
        raise DataFormatError("file not found", path=str(path))
    sequences: dict[int, list[int]] = {}
    last_user: int | None = None
    with path.open(encoding="utf-8") as fh:
        for lineno, raw in enumerate(fh, start=1):
            fields = raw.split()
            if not fields:
                continue
            if layout == "pairs":
                if len(fields) != 2:
                    raise DataFormatError(f"expected 'user item', got {len(fields)} fields", path=str(path), line=lineno)
                user, item = _int(fields[0], path, lineno), _int(fields[1], path, lineno)
                if user != last_user and user in sequences:
                    # order is only meaningful within one contiguous block per user
                    raise DataFormatError(f"user {user}'s lines are not contiguous", path=str(path), line=lineno)
                sequences.setdefault(user, []).append(item)
                last_user = user
            else:
                if len(fields) < 2:
                    raise DataFormatError("expected 'user item item ...'", path=str(path), line=lineno)
                user = _int(fields[0], path, lineno)
                if user in sequences:
                    raise DataFormatError(f"user {user} appears twice", path=str(path), line=lineno)
                sequences[user] = [_int(t, path, lineno) for t in fields[1:]]
    if not sequences:
        raise DataFormatError("no interactions in file", path=str(path))
    return _renumber(sequences, str(path))


def _renumber(sequences: dict[int, list[int]], source: str) -> Interactions:
    mapping: dict[int, int] = {}
    out: dict[int, list[int]] = {}
    for user, items in sequences.items():
        out[user] = [mapping.setdefault(i, len(mapping) + 1) for i in items]
    return Interactions(out, len(mapping), source)


def load_dataset(name: str, data_dir: str | Path | None = None) -> Interactions:
    """Load ``games`` or ``toys`` from ``data_dir`` (default: ../shared/data/recsys)."""
    if name not in DATASETS:
        raise ConfigError(f"unknown data set {name!r}: expected one of {sorted(DATASETS)}")
    filename, layout = DATASETS[name]
    return load_file(Path(data_dir or default_data_dir()) / filename, layout)


def subsample(data: Interactions, n_users: int | None, seed: int, min_length: int = 5) -> Interactions:
    """Users with at least ``min_length`` interactions, ``n_users`` of them drawn at random (all if None).

    Items are re-numbered over the sample, so the catalog is the sample's items.
    """
    users = sorted(u for u, s in data.sequences.items() if len(s) >= min_length)
    if n_users is not None and n_users < len(users):
        rng = np.random.default_rng(seed)
        users = sorted(rng.choice(users, size=n_users, replace=False).tolist())
    return _renumber({u: data.sequences[u] for u in users}, data.source)
