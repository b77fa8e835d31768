"""The rule-store conformance suite on both backends, plus reopening and a crash mid-save (SQLite)."""

from __future__ import annotations

import subprocess
import sys
import textwrap

import pytest

from memkit.errors import StoreError
from memkit.rules.model import RuleModel
from memkit.rules.store import RuleStore
from stores.conformance.rule_store import *  # noqa: F401,F403 - the shared suite
from stores.rule_store import InMemoryRuleStore, SQLiteRuleStore


@pytest.fixture(params=["memory", "sqlite"])
def rule_store_factory(request, tmp_path):
    made = []

    def make(schema):
        store = InMemoryRuleStore(schema) if request.param == "memory" else SQLiteRuleStore(tmp_path / "rules.db", schema)
        made.append(store)
        assert isinstance(store, RuleStore)
        return store

    yield make
    for store in made:
        store.close()


def test_sqlite_survives_reopen(tmp_path, sample_world):
    store = SQLiteRuleStore(tmp_path / "r.db", sample_world.schema)
    model = RuleModel(sample_world.schema, "A")
    model.add(sample_world.rules[0], reason="seed")
    store.save(model, "A")
    store.close()
    again = SQLiteRuleStore(tmp_path / "r.db", sample_world.schema)
    assert again.load("A").to_json() == model.to_json()
    again.close()


def test_a_crash_mid_save_keeps_the_last_committed_version(tmp_path, sample_world):
    db = tmp_path / "crash.db"
    world_file = tmp_path / "w.yaml"
    world_file.write_text((sample_world.path).read_text())
    script = textwrap.dedent(
        f"""
        import os, sys
        from memkit.rules import load_world
        from memkit.rules.model import RuleModel
        from stores.rule_store import SQLiteRuleStore
        w = load_world({str(world_file)!r})
        store = SQLiteRuleStore({str(db)!r}, w.schema)
        m = RuleModel(w.schema, "A")
        m.add(w.rules[0], reason="first")
        store.save(m, "A")                      # committed
        m.add(w.rules[1], reason="second")
        os.environ["MEMKIT_TEST_CRASH_IN_SAVE"] = "1"
        store.save(m, "A")                      # dies inside the transaction
        """
    )
    proc = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True)
    assert proc.returncode == 17, proc.stderr
    store = SQLiteRuleStore(db, sample_world.schema)
    loaded = store.load("A")
    assert len(loaded.rules) == 1 and loaded.rules[0].rule["id"] == "L001"
    store.close()


def test_sqlite_errors_become_store_errors(tmp_path, sample_world):
    (tmp_path / "dir.db").mkdir()
    with pytest.raises(StoreError):
        SQLiteRuleStore(tmp_path / "dir.db", sample_world.schema)
    store = SQLiteRuleStore(tmp_path / "ok.db", sample_world.schema)
    store.close()
    with pytest.raises(StoreError):
        store.worlds()
