"""Rule-model stores: an in-memory reference and a single-file SQLite store.

SQLite: every save is one transaction (``BEGIN IMMEDIATE`` ... ``COMMIT``) in
WAL mode, so a process killed mid-save leaves the last committed version of
every world intact. sqlite3 errors become StoreError (``raise ... from``).
"""

from __future__ import annotations

import json
import sqlite3
import threading
from datetime import datetime, timezone
from pathlib import Path

from memkit.errors import NotFoundError, StoreError
from memkit.rules.model import RuleModel
from memkit.rules.schema import Schema

__all__ = ["InMemoryRuleStore", "SQLiteRuleStore"]


def _now() -> str:
    return datetime.now(timezone.utc).isoformat()


class InMemoryRuleStore:
    """The reference backend: versions kept as JSON text in a dict (so saved models are snapshots)."""

    def __init__(self, schema: Schema) -> None:
        self.schema = schema
        self._rows: dict[str, tuple[int, str, str]] = {}
        self._next = 1

    def save(self, model: RuleModel, world: str) -> int:
        """Store a snapshot of ``model`` as the version of ``world``."""
        version = self._next
        self._next += 1
        self._rows.pop(world, None)
        self._rows[world] = (version, _now(), json.dumps(model.to_json()))
        return version

    def load(self, world: str | None = None) -> RuleModel:
        """The model saved for ``world`` or the latest one."""
        if not self._rows:
            raise NotFoundError("the store holds no model")
        if world is None:
            world = max(self._rows, key=lambda w: self._rows[w][0])
        if world not in self._rows:
            raise NotFoundError(f"no model saved for world {world!r}")
        return RuleModel.from_json(json.loads(self._rows[world][2]), self.schema)

    def worlds(self) -> list[str]:
        """Worlds in save order."""
        return sorted(self._rows, key=lambda w: self._rows[w][0])

    def versions(self) -> list[tuple[int, str, str]]:
        """(version, world, saved_at), oldest first."""
        return sorted((v, w, at) for w, (v, at, _) in self._rows.items())

    def delete(self, world: str) -> None:
        """Remove a world's version."""
        if world not in self._rows:
            raise NotFoundError(f"no model saved for world {world!r}")
        del self._rows[world]

    def close(self) -> None:
        """Nothing to release."""


_SCHEMA_SQL = """
CREATE TABLE IF NOT EXISTS versions (
    version INTEGER PRIMARY KEY AUTOINCREMENT,
    world TEXT NOT NULL UNIQUE,
    saved_at TEXT NOT NULL,
    model TEXT NOT NULL
);
"""


class SQLiteRuleStore:
    """One SQLite file; one version per world; each save is atomic."""

    def __init__(self, path: str | Path, schema: Schema) -> None:
        self.path = Path(path)
        self.schema = schema
        self._lock = threading.Lock()
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            self._conn: sqlite3.Connection | None = sqlite3.connect(str(self.path), isolation_level=None, check_same_thread=False)
            self._conn.execute("PRAGMA journal_mode=WAL")
            self._conn.execute("PRAGMA synchronous=FULL")
            self._conn.executescript(_SCHEMA_SQL)
        except (sqlite3.Error, OSError) as exc:
            raise StoreError(f"cannot open rule store {self.path}: {exc}") from exc

    @property
    def conn(self) -> sqlite3.Connection:
        if self._conn is None:
            raise StoreError(f"rule store {self.path} is closed")
        return self._conn

    def save(self, model: RuleModel, world: str) -> int:
        """Store ``model`` as the version of ``world`` in one transaction."""
        text = json.dumps(model.to_json())
        with self._lock:
            try:
                self.conn.execute("BEGIN IMMEDIATE")
                self.conn.execute("DELETE FROM versions WHERE world = ?", (world,))
                cur = self.conn.execute("INSERT INTO versions (world, saved_at, model) VALUES (?, ?, ?)", (world, _now(), text))
                _crash_point()
                self.conn.execute("COMMIT")
                return int(cur.lastrowid)
            except sqlite3.Error as exc:
                self._rollback()
                raise StoreError(f"cannot save model for {world!r} in {self.path}: {exc}") from exc

    def _rollback(self) -> None:
        try:
            self.conn.execute("ROLLBACK")
        except sqlite3.Error:
            pass

    def load(self, world: str | None = None) -> RuleModel:
        """The model saved for ``world`` or the latest one."""
        try:
            if world is None:
                row = self.conn.execute("SELECT model FROM versions ORDER BY version DESC LIMIT 1").fetchone()
                if row is None:
                    raise NotFoundError(f"the rule store {self.path} holds no model")
            else:
                row = self.conn.execute("SELECT model FROM versions WHERE world = ?", (world,)).fetchone()
                if row is None:
                    raise NotFoundError(f"no model saved for world {world!r} in {self.path}")
        except sqlite3.Error as exc:
            raise StoreError(f"cannot read {self.path}: {exc}") from exc
        return RuleModel.from_json(json.loads(row[0]), self.schema)

    def worlds(self) -> list[str]:
        """Worlds in save order."""
        try:
            return [r[0] for r in self.conn.execute("SELECT world FROM versions ORDER BY version")]
        except sqlite3.Error as exc:
            raise StoreError(f"cannot read {self.path}: {exc}") from exc

    def versions(self) -> list[tuple[int, str, str]]:
        """(version, world, saved_at), oldest first."""
        try:
            return [(int(v), w, at) for v, w, at in self.conn.execute("SELECT version, world, saved_at FROM versions ORDER BY version")]
        except sqlite3.Error as exc:
            raise StoreError(f"cannot read {self.path}: {exc}") from exc

    def delete(self, world: str) -> None:
        """Remove a world's version."""
        with self._lock:
            try:
                cur = self.conn.execute("DELETE FROM versions WHERE world = ?", (world,))
            except sqlite3.Error as exc:
                raise StoreError(f"cannot delete from {self.path}: {exc}") from exc
        if cur.rowcount == 0:
            raise NotFoundError(f"no model saved for world {world!r} in {self.path}")

    def close(self) -> None:
        """Close the connection (idempotent)."""
        if self._conn is not None:
            self._conn.close()
            self._conn = None


def _crash_point() -> None:
    """A test hook: with MEMKIT_TEST_CRASH_IN_SAVE=1 the process dies inside the transaction."""
    import os

    if os.environ.get("MEMKIT_TEST_CRASH_IN_SAVE") == "1":
        os._exit(17)
