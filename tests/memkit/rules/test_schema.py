"""What a table spec tells about its fields."""

from __future__ import annotations

from tests.memkit.rules.conftest import world_from_yaml

WORLD = """
format: worldshift/1
name: schema
tables:
  claim:
    fields:
      state: {type: choice, choices: [open, closed]}
      amount: {type: number}
      flagged: {type: boolean}
      owner: {type: reference, ref: claim}
      kind: {type: choice, choices: [a, b]}
records: {}
"""


def test_fields_of_type_keeps_file_order_across_the_types_asked_for():
    spec = world_from_yaml(WORLD).schema.tables["claim"]
    assert spec.fields_of_type("choice", "boolean") == ["state", "flagged", "kind"]
    assert spec.fields_of_type("number") == ["amount"]
    assert spec.fields_of_type("string") == []
