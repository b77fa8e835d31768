"""``memkit lion run`` end to end on a tiny synthetic set, and its user errors."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from evals.cli import main


def test_tiny_synthetic_run_writes_json_and_plot(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out, png = tmp_path / "r.json", tmp_path / "r.png"
    code = main([
        "lion", "run", "--data", "synthetic", "--limit-users", "12", "--epochs", "1", "--finetune-epochs", "1",
        "--methods", "tiger,lion", "--json", str(out), "--plot", str(png),
    ])
    assert code == 0
    payload = json.loads(out.read_text())
    assert payload["settings"]["data"] == "synthetic" and payload["settings"]["limit_users"] == 12
    rows = payload["results"]
    keys = {"data", "method", "period", "group", "recall@10", "recall@20", "ndcg@10", "ndcg@20", "users"}
    assert all(keys <= set(r) for r in rows)
    assert {r["period"] for r in rows} == {1, 2, 3, 4}
    assert {r["method"] for r in rows} == {"tiger", "lion"}
    groups = {r["group"] for r in rows}
    assert {"all", "majority"} <= groups and groups & {"g1", "g5"}
    assert all(0.0 <= r["recall@10"] <= r["recall@20"] <= 1.0 for r in rows)
    assert payload["slot_overlap"] and all(r["method"] == "lion" for r in payload["slot_overlap"])
    ratios = {r["method"]: r["ratio_to_tiger"] for r in payload["step_time"]}
    assert ratios["tiger"] == pytest.approx(1.0) and ratios["lion"] > 0
    assert png.stat().st_size > 0
    # rich wraps a table title to the table's width, which depends on the numbers
    assert "Recall@10 averaged over P1-P4" in " ".join(capsys.readouterr().out.split())


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["--data", "synthetic", "--methods", "tiger,magic"], "unknown method"),
        (["--data", "games", "--data-dir", "/nonexistent"], "not found"),
        (["--data", "synthetic", "--full", "--limit-users", "10"], "exclude"),
    ],
)
def test_user_errors_exit_2_with_one_line(argv: list[str], message: str, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["lion", "run", *argv]) == 2
    err = capsys.readouterr().err
    assert message in err and len(err.strip().splitlines()) == 1


def test_run_is_documented_in_help(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit):
        main(["lion", "run", "--help"])
    out = capsys.readouterr().out
    for flag in ("--data", "--methods", "--epochs", "--limit-users", "--seed", "--json", "--plot", "--full"):
        assert flag in out


def test_memory_sparse_flag_reaches_the_settings(tmp_path: Path) -> None:
    out = tmp_path / "r.json"
    argv = ["lion", "run", "--data", "synthetic", "--limit-users", "12", "--epochs", "1", "--finetune-epochs", "1",
            "--methods", "lion", "--json", str(out)]
    assert main([*argv, "--memory-sparse"]) == 0
    assert json.loads(out.read_text())["settings"]["memory_sparse"] is True
