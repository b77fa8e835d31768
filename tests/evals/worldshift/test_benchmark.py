"""The benchmark runner: the oracle proves the pipeline, the floor follows the empty-set rules, the JSON has its shape."""

from __future__ import annotations

import json

import pytest

from memkit.errors import ConfigError

from evals.cli import main
from evals.worldshift.benchmark import BenchmarkSettings, rule_recovery, run_benchmark
from evals.worldshift.worlds_index import load_named_world

FAMILY = ["example-A", "example-B"]


@pytest.fixture(scope="module")
def worlds():
    return [load_named_world(w) for w in FAMILY]


def test_oracle_scores_one_and_recovers_every_probed_rule(worlds):
    out = run_benchmark(BenchmarkSettings(worlds=FAMILY, methods=["oracle"]), worlds)
    for row in out["results"]:
        assert (row["precision"], row["recall"], row["iou"]) == (1.0, 1.0, 1.0)
        assert row["rules_recovered"] == row["rules_probed"]
        assert row["writes"] == 0


def test_none_follows_the_empty_set_convention(worlds):
    out = run_benchmark(BenchmarkSettings(worlds=FAMILY, methods=["none"]), worlds)
    a = out["results"][0]
    # example-A: one of four tests has no side effects (both empty: 1), the others score 0
    assert a["iou"] == pytest.approx(0.25)
    assert out["results"][1]["iou"] == 0.0


def test_json_shape_has_one_row_per_method_world_seed(worlds):
    out = run_benchmark(BenchmarkSettings(worlds=FAMILY, methods=["none", "continual+audit"], seeds=2, budget=40), worlds)
    assert set(out["settings"]) >= {"worlds", "access", "budget", "methods", "seeds"}
    assert len(out["results"]) == 2 * 2 * 2
    keys = {"method", "world", "seed", "precision", "recall", "iou", "rules_recovered", "rules_true",
            "deleted_rule_retired", "writes", "reads", "seconds", "writes_to_iou_95"}
    for row in out["results"]:
        assert keys <= set(row)
        assert row["writes"] <= 40
    json.dumps(out)  # JSON-able


def test_rule_recovery_is_behavioural(worlds):
    from memkit.rules.model import RuleModel

    world = worlds[0]
    empty = RuleModel(world.schema, world.name)
    recovered, total, probed = rule_recovery(world, empty)
    assert (recovered, total) == (0, len(world.rules)) and probed >= 1


def test_unknown_method_or_llm_without_endpoint_is_a_config_error(worlds, monkeypatch):
    with pytest.raises(ConfigError):
        run_benchmark(BenchmarkSettings(worlds=FAMILY, methods=["magic"]), worlds)
    with pytest.raises(ConfigError):
        run_benchmark(BenchmarkSettings(worlds=FAMILY, methods=["llm"]), worlds)


def test_cli_run_writes_json_and_plot(tmp_path, capsys):
    out_json, out_png = tmp_path / "r.json", tmp_path / "r.png"
    code = main(["worldshift", "run", "--worlds", *FAMILY, "--methods", "none,oracle", "--json", str(out_json), "--plot", str(out_png)])
    assert code == 0
    data = json.loads(out_json.read_text())
    assert {r["method"] for r in data["results"]} == {"none", "oracle"}
    assert out_png.read_bytes()[:4] == b"\x89PNG"
    assert "oracle" in capsys.readouterr().out


@pytest.mark.parametrize(
    "argv",
    [
        ["worldshift", "run", "--worlds", "example-A", "--methods", "nope"],
        ["worldshift", "run", "--worlds", "no-such-world"],
        ["worldshift", "run", "--worlds", "example-A", "--methods", "llm"],
        ["worldshift", "check", "no-such-world"],
    ],
)
def test_user_errors_exit_2_with_one_line(argv, capsys, monkeypatch):
    monkeypatch.delenv("MEMKIT_LLM_BASE_URL", raising=False)
    monkeypatch.delenv("MEMKIT_LLM_MODEL", raising=False)
    assert main(argv) == 2
    err = capsys.readouterr().err.strip()
    assert err.startswith("memkit: error:") and "\n" not in err
