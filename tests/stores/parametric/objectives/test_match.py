"""MATCH: gated levels, best-assignment matching of several calls, format reward, curriculum invariants."""

from __future__ import annotations

import itertools
import json
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from memkit.errors import ConfigError
from stores.parametric.objectives import (
    GoldCall,
    MatchCurriculum,
    ToolCall,
    best_assignment,
    call_correctness,
    gold_from_bfcl,
    match_reward,
    parse_calls,
)

# two real BFCL answers (simple_python_0, a parallel one of the same shape)
GOLD = gold_from_bfcl([{"calculate_triangle_area": {"base": [10], "height": [5], "unit": ["units", ""]}}])
PARALLEL = gold_from_bfcl(
    [
        {"spotify.play": {"artist": ["Taylor Swift"], "duration": [20]}},
        {"spotify.play": {"artist": ["Maroon 5"], "duration": [15]}},
        {"weather.get": {"city": ["Paris", "paris, france"]}},
    ]
)


def _call(name, **args):
    return {"name": name, "arguments": args}


def test_right_call_earns_full_credit_and_optional_arguments_may_be_left_out():
    assert match_reward([_call("calculate_triangle_area", base=10, height=5)], GOLD).correctness == 1.0
    assert match_reward([_call("calculate_triangle_area", base=10.0, height=5, unit="Units")], GOLD).correctness == 1.0


def test_wrong_tool_name_gets_no_argument_credit():
    perfect_args = dict(base=10, height=5, unit="units")
    assert match_reward([_call("calculate_circle_area", **perfect_args)], GOLD).correctness == 0.0


@pytest.mark.parametrize(
    "args,expected",
    [
        (dict(base=10, height=6), (1 + 1 + 2 / 3) / 3),  # one wrong value out of three gold keys
        (dict(base=10), (1 + 1 / 2 + 0) / 3),  # missing required key: no value credit
        (dict(base=10, height=5, color="red"), (1 + 2 / 3 + 0) / 3),  # unknown key: no value credit
    ],
)
def test_each_level_counts_only_when_the_one_before_holds(args, expected):
    assert call_correctness(ToolCall("calculate_triangle_area", args), GOLD[0]) == pytest.approx(expected)


def test_a_wrong_tool_never_outranks_a_right_tool():
    wrong_tool = match_reward([_call("other", base=10, height=5)], GOLD).correctness
    for args in (dict(), dict(base=1), dict(base=1, height=2, depth=3)):
        assert match_reward([_call("calculate_triangle_area", **args)], GOLD).correctness > wrong_tool


def test_extra_calls_earn_nothing_and_dilute():
    right = [_call("calculate_triangle_area", base=10, height=5)]
    assert match_reward(right + right, GOLD).correctness == 0.5
    assert match_reward(right + [_call("x")], GOLD).correctness == 0.5


def test_broken_format_gets_neither_reward():
    for text in ('[{"name": "calculate_triangle_area", "arguments": {"base": 10}', '{"tool": "x"}', "42", '[{"name": 1, "arguments": {}}]'):
        reward = match_reward(text, GOLD)
        assert (reward.correctness, reward.format) == (0.0, 0.0)
    ok = match_reward(json.dumps([_call("calculate_triangle_area", base=10, height=5)]), GOLD)
    assert (ok.correctness, ok.format) == (1.0, 1.0)
    assert ok.total(0.1) == pytest.approx(1.1)


PRED_PARALLEL = [
    _call("spotify.play", artist="Taylor Swift", duration=20),
    _call("spotify.play", artist="Maroon 5", duration=16),
    _call("weather.get", city="Paris"),
    _call("weather.get", city="Rome"),
]


@settings(max_examples=30, deadline=None)
@given(perm=st.permutations(range(len(PRED_PARALLEL))))
def test_multi_call_matching_is_permutation_invariant(perm):
    base = match_reward(PRED_PARALLEL, PARALLEL).correctness
    assert match_reward([PRED_PARALLEL[i] for i in perm], PARALLEL).correctness == pytest.approx(base)
    gold_perm = [PARALLEL[i % len(PARALLEL)] for i in perm if i < len(PARALLEL)]
    assert match_reward(PRED_PARALLEL, gold_perm).correctness == pytest.approx(base)


@settings(max_examples=60, deadline=None)
@given(rows=st.integers(1, 5), cols=st.integers(1, 5), seed=st.integers(0, 1000))
def test_best_assignment_matches_brute_force(rows, cols, seed):
    rng = random.Random(seed)
    scores = [[rng.random() for _ in range(cols)] for _ in range(rows)]
    total, pairs = best_assignment(scores)
    k = min(rows, cols)
    brute = max(
        sum(scores[r][c] for r, c in zip(rs, cs))
        for rs in itertools.permutations(range(rows), k)
        for cs in [tuple(range(cols))[:k]] + list(itertools.permutations(range(cols), k))
    )
    assert total == pytest.approx(brute)
    assert len({r for r, _ in pairs}) == len({c for _, c in pairs}) == len(pairs) == k
    assert sum(scores[r][c] for r, c in pairs) == pytest.approx(total)


def test_parse_calls_accepts_one_call_or_a_list():
    assert parse_calls('{"name": "f", "arguments": {"a": 1}}') == [ToolCall("f", {"a": 1})]
    assert parse_calls([{"name": "f", "arguments": {}}]) == [ToolCall("f", {})]
    assert parse_calls("not json") is None


def test_bfcl_gold_marks_empty_string_arguments_optional():
    assert GOLD[0].required == frozenset({"base", "height"})
    with pytest.raises(ConfigError):
        gold_from_bfcl([{"a": {}, "b": {}}])


@settings(max_examples=40, deadline=None)
@given(
    difficulties=st.lists(st.floats(0, 1), min_size=6, max_size=30),
    batch=st.integers(1, 6),
    k=st.integers(0, 6),
    seed=st.integers(0, 100),
)
def test_curriculum_picks_the_hardest_and_those_nearest_the_mean(difficulties, batch, k, seed):
    k = min(k, batch)
    cur = MatchCurriculum(len(difficulties), batch, k, initial_difficulty=difficulties, seed=seed)
    chosen = cur.select()
    assert len(chosen) == batch == len(set(chosen))
    kth_hardest = sorted(difficulties, reverse=True)[k - 1] if k else None
    if k:
        assert all(difficulties[i] >= kth_hardest for i in chosen[:k])
        assert all(d <= kth_hardest for i, d in enumerate(difficulties) if i not in chosen[:k])
    mu = sum(difficulties) / len(difficulties)
    rest = chosen[k:]
    if rest:
        worst = max(abs(difficulties[i] - mu) for i in rest)
        others = [i for i in range(len(difficulties)) if i not in chosen]
        assert all(abs(difficulties[i] - mu) >= worst - 1e-12 for i in others)


def test_curriculum_refreshes_only_the_selected_samples():
    cur = MatchCurriculum(5, 2, 1, initial_difficulty=[0.1, 0.9, 0.5, 0.4, 0.2])
    chosen = cur.select()
    assert chosen[0] == 1  # the hardest
    before = list(cur.difficulty)
    cur.update(chosen, [[1.0, 0.0], [1.0]])
    assert cur.difficulty[chosen[0]] == 0.5 and cur.difficulty[chosen[1]] == 0.0
    assert all(cur.difficulty[i] == before[i] for i in range(5) if i not in chosen)
    with pytest.raises(ConfigError):
        MatchCurriculum(3, 4, 1)


def test_booleans_are_not_numbers():
    gold = gold_from_bfcl([{"f": {"flag": [True], "n": [1]}}])
    assert match_reward([{"name": "f", "arguments": {"flag": True, "n": 1.0}}], gold).correctness == 1.0
    assert match_reward([{"name": "f", "arguments": {"flag": 1, "n": True}}], gold).correctness < 1.0
