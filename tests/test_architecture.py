"""Imports go one way: evals -> agents -> stores -> memkit (import-linter contract in pyproject.toml)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def test_import_direction_contract_holds():
    lint = Path(sys.executable).parent / "lint-imports"
    proc = subprocess.run([str(lint), "--config", str(ROOT / "pyproject.toml")], cwd=ROOT, capture_output=True, text=True)
    assert proc.returncode == 0, proc.stdout + proc.stderr


def test_memkit_imports_none_of_the_other_packages():
    # a second, cheaper guard that also names the offending file
    for path in (ROOT / "memkit").rglob("*.py"):
        text = path.read_text()
        for other in ("stores", "agents", "evals"):
            assert f"from {other}" not in text and f"import {other}" not in text, f"{path} imports {other}"
