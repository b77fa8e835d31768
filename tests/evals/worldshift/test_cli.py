"""memkit worldshift check / truth / score."""

from __future__ import annotations

import json

from evals.cli import main


def test_check_prints_a_summary_with_fire_counts(capsys):
    assert main(["worldshift", "check", "ews-A"]) == 0
    out = capsys.readouterr().out
    assert "9 tables" in out and "252" in out and "25 rules" in out and "150 tests" in out
    assert "R01" in out


def test_truth_is_deterministic_json_in_the_spec_shape(tmp_path):
    a, b = tmp_path / "a.json", tmp_path / "b.json"
    assert main(["worldshift", "truth", "example-A", "--json", str(a)]) == 0
    assert main(["worldshift", "truth", "example-A", "--json", str(b)]) == 0
    assert a.read_text() == b.read_text()
    data = json.loads(a.read_text())
    assert data[0] == [["set", "order", "O1", "total", 60], ["set", "order_line", "L1", "amount", 60]]


def test_score_of_the_truth_is_one_and_bad_files_exit_2(tmp_path, capsys):
    truth = tmp_path / "t.json"
    main(["worldshift", "truth", "example-A", "--json", str(truth)])
    assert main(["worldshift", "score", "example-A", str(truth)]) == 0
    assert "IoU 1.0000" in capsys.readouterr().out
    for bad in ("[[]]", "{}", "not json", '[[["set"]], [], [], []]'):
        p = tmp_path / "bad.json"
        p.write_text(bad)
        assert main(["worldshift", "score", "example-A", str(p)]) == 2
        assert capsys.readouterr().err.startswith("memkit: error:")
