"""The 5-period protocol: periods, activity groups, and no training on what is evaluated later."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from evals.recsys.metrics import GroupedMetrics, hit_rank
from evals.recsys.protocol import activity_groups, batches, make_batch, period_bounds, period_examples, schedule
from evals.recsys.runner import METHODS, RunSettings, prepare, run_method


@given(st.integers(0, 500), st.integers(1, 8))
def test_periods_are_consecutive_and_balanced(length: int, n: int) -> None:
    b = period_bounds(length, n)
    assert b[0] == 0 and b[-1] == length and len(b) == n + 1
    sizes = [b[i + 1] - b[i] for i in range(n)]
    assert max(sizes) - min(sizes) <= 1
    assert sizes == sorted(sizes, reverse=True)


def test_examples_cover_each_period_and_skip_the_first_interaction() -> None:
    seqs = {1: list(range(1, 11)), 2: [5, 6, 7, 8, 9]}
    p0 = period_examples(seqs, [0])
    assert [(e.user, e.pos) for e in p0] == [(1, 1)]  # user 2 has one P0 item: no history, no example
    p4 = period_examples(seqs, [4])
    assert [(e.user, e.pos) for e in p4] == [(1, 8), (1, 9), (2, 4)]


def test_batches_hold_only_the_past_right_aligned() -> None:
    seqs = {1: [3, 4, 5, 6, 7]}
    ex = period_examples(seqs, [3])
    batch = make_batch(seqs, ex, window=4, long_window=2)
    assert batch.window.tolist() == [[0, 3, 4, 5]] and batch.history.tolist() == [[4, 5]] and batch.target.tolist() == [6]


def test_activity_groups_are_equal_quintiles() -> None:
    seqs = {u: [1] * u for u in range(1, 11)}
    groups = activity_groups(seqs)
    assert [groups[u] for u in range(1, 11)] == ["g1", "g1", "g2", "g2", "g3", "g3", "g4", "g4", "g5", "g5"]


@pytest.mark.parametrize("method", METHODS)
def test_schedule_evaluates_each_later_period_before_training_on_it(method: str) -> None:
    steps = schedule(method)
    for t in range(1, 5):
        evals = [i for i, s in enumerate(steps) if s.kind == "eval" and s.periods == (t,)]
        trains = [i for i, s in enumerate(steps) if s.kind == "train" and t in s.periods]
        assert len(evals) == 1
        assert all(i > evals[0] for i in trains)


@pytest.mark.parametrize("method", ["tiger", "retrain", "lion"])
def test_no_evaluated_interaction_is_trained_on_before_it_is_evaluated(method: str) -> None:
    settings = RunSettings(
        data="synthetic", methods=[method], limit_users=12, epochs=1, finetune_epochs=1, d_model=16,
        encoder_layers=2, decoder_layers=1, window=4, long_window=8, sid_codebook=8, beam=5,
    )
    trace: list = []
    result = run_method(prepare(settings), method, settings, trace=trace)
    trained: set = set()
    n_evals = 0
    for kind, _period, touched in trace:
        if kind in ("train", "ids"):  # placing new items' codes reads data too: it must not see what is evaluated
            trained |= touched
        else:
            n_evals += 1
            assert touched and not (touched & trained)
    assert n_evals == 4
    assert {row["period"] for row in result.rows} == {1, 2, 3, 4}


def test_metrics_are_sample_weighted_per_group() -> None:
    m = GroupedMetrics()
    m.add([5, 6, 7], target=5, user=1, groups=["all", "g1"])
    m.add([5, 6, 7], target=7, user=2, groups=["all", "g2"])
    m.add([5, 6, 7], target=9, user=2, groups=["all", "g2"])
    rows = {r["group"]: r for r in m.rows()}
    assert rows["all"]["recall@10"] == pytest.approx(2 / 3)
    assert rows["g1"]["ndcg@10"] == pytest.approx(1.0)
    assert rows["g2"]["ndcg@10"] == pytest.approx(0.5 * 0.5)  # rank 2 -> 1/log2(4), one of two samples
    assert rows["g2"]["users"] == 1 and rows["g2"]["samples"] == 2
    assert hit_rank([1, 2], 3) is None


def test_length_bucketing_keeps_every_example_once_and_groups_similar_lengths() -> None:
    import random

    rng = random.Random(0)
    sequences = {u: [rng.randint(1, 50) for _ in range(rng.randint(5, 30))] for u in range(60)}
    examples = period_examples(sequences, range(5))
    plain = [e for chunk, _ in batches(sequences, examples, 16, 10, 20, shuffle_seed=1) for e in chunk]
    bucketed = list(batches(sequences, examples, 16, 10, 20, shuffle_seed=1, bucket=4))
    flat = [e for chunk, _ in bucketed for e in chunk]
    assert sorted(flat, key=lambda e: (e.user, e.pos)) == sorted(examples, key=lambda e: (e.user, e.pos))
    assert len(flat) == len(set(flat)) == len(plain)

    def padding(groups: list[list]) -> int:  # window columns that are padding in every row of a batch
        return sum(10 - max(min(e.pos, 10) for e in chunk) for chunk in groups)

    plain_chunks = [chunk for chunk, _ in batches(sequences, examples, 16, 10, 20, shuffle_seed=1)]
    assert padding([chunk for chunk, _ in bucketed]) > padding(plain_chunks)
    # the tensors still hold each example's own history
    for chunk, batch in bucketed:
        for e, row, target in zip(chunk, batch.window.tolist(), batch.target.tolist(), strict=True):
            assert target == sequences[e.user][e.pos]
            assert [i for i in row if i] == sequences[e.user][max(0, e.pos - 10) : e.pos]
