"""``memkit emr`` end to end on a slice of the real PubMedQA file, offline."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from evals.medqa.loaders import DATA_DIR

from evals.cli import main

# the bundled data sets live in ../shared beside the checkout; a clone elsewhere has none
_needs_shared_data = pytest.mark.skipif(not (DATA_DIR / "pubmedqa_ori_pqal.json").exists(),
                                        reason="../shared/data/medqa is not beside this checkout")


@_needs_shared_data
def test_run_then_inspect_the_library(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out_json, out_png, lib_dir = tmp_path / "r.json", tmp_path / "r.png", tmp_path / "libs"
    code = main(
        ["emr", "run", "--dataset", "pubmedqa", "--limit", "8", "--rounds", "1", "--runs", "2",
         "--library", str(lib_dir), "--json", str(out_json), "--plot", str(out_png)]
    )
    assert code == 0
    result = json.loads(out_json.read_text())
    assert result["settings"]["mine_on"] == "pubmedqa" and result["settings"]["runs"] == 2
    rows = {r["library"]: r for r in result["results"]}
    assert set(rows) == {"none", "mined"}
    for row in rows.values():
        assert row["dataset"] == "pubmedqa" and row["model"] == "knn" and row["runs"] == 2 and row["questions"] == 8
        assert 0.0 <= row["accuracy_mean"] <= 1.0 and row["accuracy_std"] >= 0.0
    assert out_png.stat().st_size > 1000
    run0 = result["runs"][0]
    assert run0["library"]["case"] >= 8  # at least one case per mined question
    capsys.readouterr()

    lib_path = lib_dir / "pubmedqa-run0"
    assert main(["emr", "library", "stats", str(lib_path)]) == 0
    stats = capsys.readouterr().out
    assert "principle" in stats and "case" in stats
    assert main(["emr", "library", "show", str(lib_path), "--tier", "case", "--limit", "3"]) == 0
    assert "Q:" in capsys.readouterr().out
    export = tmp_path / "lib.jsonl"
    assert main(["emr", "library", "export", str(lib_path), "--out", str(export)]) == 0
    lines = export.read_text().splitlines()
    assert len(lines) == sum(run0["library"].values())


def test_user_errors_exit_2_with_one_line(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["emr", "run", "--limit", "2"]) == 2
    assert "give --dataset" in capsys.readouterr().err
    assert main(["emr", "library", "stats", str(tmp_path / "nowhere")]) == 2
    assert "no library at" in capsys.readouterr().err
    bad = tmp_path / "bad.jsonl"
    bad.write_text('{"question": "q"}\n')
    assert main(["emr", "run", "--dataset", "medqa", "--data", str(bad), "--runs", "1", "--rounds", "0"]) == 2
    assert "bad.jsonl:1: missing field" in capsys.readouterr().err
