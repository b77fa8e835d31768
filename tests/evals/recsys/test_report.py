"""Aggregations of a run: averages over periods, slot overlap with its control, the bench rows."""

from __future__ import annotations

import pytest

from memkit.parametric import SlotUsage
from evals.recsys.report import average_over_periods, paired_differences
from evals.recsys.runner import MethodResult, slot_overlaps


def test_average_is_the_plain_mean_of_period_values() -> None:
    rows = [
        {"method": "lion", "group": "all", "period": p, "recall@10": v, "recall@20": v, "ndcg@10": v, "ndcg@20": v, "samples": 10}
        for p, v in ((1, 0.1), (2, 0.2), (3, 0.3), (4, 0.6))
    ]
    (avg,) = average_over_periods(rows)
    assert avg["recall@10"] == pytest.approx(0.3) and avg["periods"] == 4 and avg["samples"] == 40


def test_paired_difference_is_the_period_mean_of_per_example_differences() -> None:
    # P1: lion hits 2 of 4 where tiger hits 1 (+0.25); P2 at k=10: both hit the same one of 2 (0)
    tiger = MethodResult("tiger", [], hits=[(1, 1, 0), (1, 2, -1), (1, 3, -1), (1, 4, 25), (2, 1, 3), (2, 2, -1)])
    lion = MethodResult("lion", [], hits=[(1, 1, 0), (1, 2, 4), (1, 3, -1), (1, 4, -1), (2, 1, 3), (2, 2, 15)])
    groups = {1: ["all", "g1"], 2: ["all", "g2"], 3: ["all", "g1"], 4: ["all", "g2"]}
    rows = {(r["group"], r["k"]): r for r in paired_differences([tiger, lion], groups)}
    # k=10: P1 diffs (0, +1, 0, 0) -> 0.25, var 0.1875 / 4; P2 diffs (0, 0) -> 0
    assert rows[("all", 10)]["diff"] == pytest.approx(0.125)
    assert rows[("all", 10)]["se"] == pytest.approx((0.1875 / 4) ** 0.5 / 2)
    # k=20: P1 (0, +1, 0, 0) -> 0.25 (tiger's rank 25 is outside the top 20 too); P2 (0, +1) -> 0.5
    assert rows[("all", 20)]["diff"] == pytest.approx(0.375)
    assert rows[("g2", 10)]["samples"] == 3
    # another example order (not the same evaluation) is not compared
    assert paired_differences([tiger, MethodResult("lion", [], hits=lion.hits[::-1])], groups) == []


def test_slot_overlap_reports_groups_and_the_within_group_control() -> None:
    usage = SlotUsage(8)
    usage.add(("majority", 0), [0, 1])
    usage.add(("majority", 1), [0, 1])
    usage.add(("minority-1", 0), [6])
    usage.add(("minority-1", 1), [7])
    rows = {(r["a"], r["b"]): r["overlap"] for r in slot_overlaps(usage, top=4)}
    assert rows[("majority", "minority-1")] == 0.0
    assert rows[("majority (half 1)", "majority (half 2)")] == pytest.approx(1.0)
    assert rows[("minority-1 (half 1)", "minority-1 (half 2)")] == 0.0


@pytest.mark.slow
def test_bench_reports_ratios_against_tiger() -> None:
    from evals.recsys.bench import run

    rows = run(quick=True)
    assert {r["case"] for r in rows} == {"train step", "recommend (beam 20)"}
    for row in rows:
        assert row["ratio_to_tiger"] > 0
        if row["method"] == "tiger":
            assert row["ratio_to_tiger"] == pytest.approx(1.0)
