"""The synthetic drift generator: deterministic, group sizes, drift between periods."""

from __future__ import annotations

from collections import Counter

from evals.recsys.protocol import period_bounds
from evals.recsys.synthetic import SyntheticConfig, count_model_recall, generate


def test_deterministic_for_a_seed() -> None:
    a = generate(SyntheticConfig(n_users=30), seed=4)
    b = generate(SyntheticConfig(n_users=30), seed=4)
    assert a.interactions.sequences == b.interactions.sequences and a.user_group == b.user_group
    assert generate(SyntheticConfig(n_users=30), seed=5).interactions.sequences != a.interactions.sequences


def test_groups_have_the_configured_shares() -> None:
    data = generate(SyntheticConfig(n_users=2000), seed=0)
    shares = Counter(data.user_group.values())
    assert set(shares) == {"majority", "minority-1", "minority-2"}
    assert 0.65 < shares["majority"] / 2000 < 0.75


def _successors(data, group: str, period: int) -> dict[int, Counter]:
    out: dict[int, Counter] = {}
    for user, seq in data.interactions.sequences.items():
        if data.user_group[user] != group:
            continue
        b = period_bounds(len(seq))
        for i in range(max(b[period], 1), b[period + 1]):
            out.setdefault(seq[i - 1], Counter())[seq[i]] += 1
    return out


def _top(successors: dict[int, Counter]) -> dict[int, int]:
    return {a: c.most_common(1)[0][0] for a, c in successors.items() if sum(c.values()) >= 8}


def test_groups_conflict_and_preferences_drift() -> None:
    data = generate(SyntheticConfig(n_users=1500), seed=0)
    maj0, maj4 = _top(_successors(data, "majority", 0)), _top(_successors(data, "majority", 4))
    mino0 = _top(_successors(data, "minority-1", 0))
    shared = set(maj0) & set(mino0)
    assert shared and sum(maj0[a] != mino0[a] for a in shared) > 0.5 * len(shared)
    common = set(maj0) & set(maj4)
    assert common and sum(maj0[a] != maj4[a] for a in common) > 0.2 * len(common)


def test_minorities_have_distinct_preferences_a_pooled_model_serves_worse() -> None:
    # the generator's point: a model that knows the minority's own transitions serves it; the majority's
    # transitions do not; pooling everyone costs the minorities more than the majority
    data = generate(SyntheticConfig(n_users=600), seed=0)
    own, majority, pooled = (count_model_recall(data, knowledge) for knowledge in ("own", "majority", "all"))
    for g in ("minority-1", "minority-2"):
        assert majority[g] < 0.3 * own[g]
        assert pooled[g] < own[g]
        assert own[g] - pooled[g] > own["majority"] - pooled["majority"]
