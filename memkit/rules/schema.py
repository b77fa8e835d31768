"""Tables and fields of a worldshift/1 world, and checks of written values against them."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

from memkit.errors import WriteError

__all__ = ["FIELD_TYPES", "FieldSpec", "TableSpec", "Schema", "is_number", "Value"]

FIELD_TYPES = ("string", "number", "boolean", "choice", "reference")

Value = str | int | float | bool | None

_MISSING = object()


def is_number(value: object) -> bool:
    """True for ints and floats, false for booleans (which Python counts as ints)."""
    return isinstance(value, (int, float)) and not isinstance(value, bool)


@dataclass(frozen=True)
class FieldSpec:
    """One field: its type, choices or referenced table, and optional default."""

    name: str
    type: str
    choices: tuple[str, ...] | None = None
    ref: str | None = None
    default: Value = None
    has_default: bool = False

    def accepts(self, value: Value) -> str | None:
        """Return why ``value`` does not fit this field's type, or None when it does.

        References are checked for existence separately (they need the state).
        """
        if value is None:
            return None
        if self.type == "number" and not is_number(value):
            return f"field {self.name!r} needs a number, got {value!r}"
        if self.type == "boolean" and not isinstance(value, bool):
            return f"field {self.name!r} needs a boolean, got {value!r}"
        if self.type in ("string", "reference") and not isinstance(value, str):
            return f"field {self.name!r} needs a string, got {value!r}"
        if self.type == "choice":
            if not isinstance(value, str) or value not in (self.choices or ()):
                return f"field {self.name!r} accepts one of {list(self.choices or ())}, got {value!r}"
        return None

    def to_dict(self) -> dict[str, Any]:
        """The field spec as it appears in a world file."""
        out: dict[str, Any] = {"type": self.type}
        if self.choices is not None:
            out["choices"] = list(self.choices)
        if self.ref is not None:
            out["ref"] = self.ref
        if self.has_default:
            out["default"] = self.default
        return out


@dataclass(frozen=True)
class TableSpec:
    """A table: its name and fields in file order (``id`` is implicit)."""

    name: str
    fields: Mapping[str, FieldSpec] = field(default_factory=dict)

    def has_field(self, name: str) -> bool:
        """True for declared fields and for the implicit ``id``."""
        return name == "id" or name in self.fields

    def fields_of_type(self, *types: str) -> list[str]:
        """The names of the fields of any of ``types``, in file order."""
        return [name for name, spec in self.fields.items() if spec.type in types]

    def empty_record(self) -> dict[str, Value]:
        """A record with every field null (``previous`` on insert)."""
        rec: dict[str, Value] = {"id": None}
        rec.update({name: None for name in self.fields})
        return rec

    def new_record(self, record_id: str, values: Mapping[str, Value]) -> dict[str, Value]:
        """A record as inserted: defaults fill fields that ``values`` leaves out."""
        rec: dict[str, Value] = {"id": record_id}
        for name, spec in self.fields.items():
            if name in values:
                rec[name] = values[name]
            else:
                rec[name] = spec.default if spec.has_default else None
        return rec


@dataclass(frozen=True)
class Schema:
    """All tables of a world."""

    tables: Mapping[str, TableSpec]

    def table(self, name: str) -> TableSpec:
        """The table called ``name``; KeyError when unknown."""
        return self.tables[name]

    def field(self, table: str, name: str) -> FieldSpec | None:
        """The spec of ``table.name``, None for ``id`` or unknown fields."""
        spec = self.tables.get(table)
        return None if spec is None else spec.fields.get(name)

    def to_dict(self) -> dict[str, Any]:
        """The ``tables`` section of a world file."""
        return {t: {"fields": {f: s.to_dict() for f, s in spec.fields.items()}} for t, spec in self.tables.items()}

    def check_values(
        self,
        table: str,
        values: Mapping[str, Value],
        exists: Callable[[str, str], bool],
    ) -> None:
        """Raise WriteError when ``values`` break the schema.

        Unknown table or field, writing ``id``, wrong type, unknown choice, or a
        reference to a record that ``exists(table, id)`` says is not there.
        """
        spec = self.tables.get(table)
        if spec is None:
            raise WriteError(f"unknown table {table!r}; tables are {sorted(self.tables)}")
        for name, value in values.items():
            if name == "id":
                raise WriteError(f"{table}: the field 'id' cannot be written")
            fspec = spec.fields.get(name)
            if fspec is None:
                raise WriteError(f"{table}: unknown field {name!r}; fields are {sorted(spec.fields)}")
            problem = fspec.accepts(value)
            if problem:
                raise WriteError(f"{table}: {problem}")
            if fspec.type == "reference" and value is not None and not exists(fspec.ref or "", value):  # type: ignore[arg-type]
                raise WriteError(f"{table}: field {name!r} refers to {fspec.ref}/{value!r}, which does not exist")
