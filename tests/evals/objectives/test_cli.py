"""`memkit objectives run`: a smoke run of the cheapest experiment, the JSON it writes, and user errors."""

from __future__ import annotations

import json

import pytest

from evals.cli import main
from evals.objectives.cli import EXPERIMENTS
from evals.objectives.common import ci95, fmt_ci
from evals.objectives.match_exp import DEFAULT_DATA_DIR


@pytest.mark.skipif(not DEFAULT_DATA_DIR.is_dir(), reason="shared BFCL data not present beside this checkout")
def test_quick_match_run_prints_a_table_and_writes_json_and_plot(tmp_path, capsys):
    out_json, out_png = tmp_path / "r.json", tmp_path / "r.png"
    code = main(["objectives", "run", "match", "--quick", "--seeds", "1", "--json", str(out_json), "--plot", str(out_png)])
    assert code == 0
    printed = capsys.readouterr().out
    assert "match" in printed and "reproduced" in printed
    data = json.loads(out_json.read_text())
    assert data["settings"]["names"] == ["match"] and data["settings"]["seeds"] == 1
    (result,) = data["results"]
    for key in ("method", "claim", "baseline", "measured", "reproduced", "seeds"):
        assert key in result
    assert isinstance(result["reproduced"], bool)
    assert result["metrics"]["ranking"]["violations"]["gated"] == 0
    assert out_png.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


def test_every_documented_name_is_registered():
    assert set(EXPERIMENTS) == {"score-centering", "semantic-eos", "baton", "epig-tree", "match", "self-distill"}


@pytest.mark.parametrize("argv", [["objectives", "run", "nope"], ["objectives", "run", "match", "--seeds", "0"]])
def test_bad_arguments_exit_with_2(argv, capsys):
    try:
        code = main(argv)
    except SystemExit as exc:  # argparse rejects an unknown name itself
        code = exc.code
    assert code == 2


def test_confidence_interval_uses_student_t():
    assert ci95([1.0, 1.0, 1.0]) == 0.0
    assert ci95([0.0, 2.0]) == pytest.approx(12.706 * 2 ** 0.5 / 2 ** 0.5)
    assert fmt_ci([0.5]) == "0.500"


@pytest.mark.slow
def test_every_experiment_runs_quick_with_two_seeds(tmp_path):
    out_json = tmp_path / "all.json"
    assert main(["objectives", "run", "all", "--quick", "--seeds", "2", "--json", str(out_json), "--plot", str(tmp_path / "a.png")]) == 0
    data = json.loads(out_json.read_text())
    assert [r["method"] for r in data["results"]] == list(EXPERIMENTS)
    assert all(isinstance(r["reproduced"], bool) and r["seeds"] == 2 for r in data["results"])
