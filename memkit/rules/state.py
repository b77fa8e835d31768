"""The records of a world: tables of records in table order, copied cheaply per action."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from memkit.rules.schema import Schema, Value

__all__ = ["Record", "State"]

Record = dict[str, Value]


class State:
    """Records by table and id, in table order (file order, then insertion order).

    Records are treated as immutable: a write stores a new dict, so copying a
    state copies only the per-table indexes, never the records.
    """

    __slots__ = ("schema", "tables", "_counters")

    def __init__(self, schema: Schema, tables: dict[str, dict[str, Record]], counters: dict[str, int] | None = None):
        self.schema = schema
        self.tables = tables
        self._counters = dict(counters or {})

    @classmethod
    def from_records(cls, schema: Schema, records: Mapping[str, Iterable[Mapping[str, Any]]]) -> State:
        """A state holding ``records`` (table -> list of records), missing fields as null."""
        tables: dict[str, dict[str, Record]] = {name: {} for name in schema.tables}
        for table, rows in records.items():
            spec = schema.tables[table]
            for row in rows:
                rec: Record = {"id": row["id"]}
                for fname in spec.fields:
                    rec[fname] = row.get(fname)
                tables[table][row["id"]] = rec
        return cls(schema, tables)

    def copy(self) -> State:
        """An independent state (records shared, indexes copied)."""
        return State(self.schema, {t: dict(rows) for t, rows in self.tables.items()}, self._counters)

    def get(self, table: str, record_id: object) -> Record | None:
        """The record ``table/record_id`` or None."""
        rows = self.tables.get(table)
        if rows is None or not isinstance(record_id, str):
            return None
        return rows.get(record_id)

    def exists(self, table: str, record_id: str) -> bool:
        """True when the record is there."""
        return self.get(table, record_id) is not None

    def rows(self, table: str) -> list[Record]:
        """The records of ``table`` in table order (a snapshot list)."""
        return list(self.tables.get(table, {}).values())

    def put(self, table: str, record: Record) -> None:
        """Store ``record`` (an update keeps its place; an insert goes last)."""
        self.tables[table][record["id"]] = record  # type: ignore[index]

    def remove(self, table: str, record_id: str) -> None:
        """Remove a record if present."""
        self.tables[table].pop(record_id, None)

    def new_id(self, table: str) -> str:
        """The next generated id ``<table>__new<n>``, skipping ids in use."""
        n = self._counters.get(table, 0)
        rows = self.tables[table]
        while True:
            n += 1
            candidate = f"{table}__new{n}"
            if candidate not in rows:
                self._counters[table] = n
                return candidate

    def to_records(self) -> dict[str, list[Record]]:
        """Plain records by table (copies), e.g. for export or a snapshot file."""
        return {t: [dict(r) for r in rows.values()] for t, rows in self.tables.items()}

    def count(self) -> int:
        """How many records there are in all."""
        return sum(len(rows) for rows in self.tables.values())
