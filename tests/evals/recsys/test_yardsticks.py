"""Count yardsticks: what they may see, and that co-occurrence finds a repeated pattern."""

from __future__ import annotations

from evals.recsys.yardsticks import count_yardsticks


def test_co_occurrence_learns_a_transition_every_user_shares() -> None:
    # every user walks the same cycle 1 -> 2 -> ... -> 20 -> 1 from another start: some user's P0
    # holds every step, so co-occurrence predicts each next item
    sequences = {u: [(u + i) % 20 + 1 for i in range(20)] for u in range(1, 41)}
    result = count_yardsticks(sequences, k=1, window=1)
    assert result["co-occurrence"] == [1.0, 1.0, 1.0, 1.0]
    assert all(r < 1.0 for r in result["popularity"])


def test_a_period_is_predicted_only_from_earlier_periods() -> None:
    # the items of P1 never occur in P0 of anyone: nothing can rank them, so P1 recall is 0
    sequences = {u: [1, 2, 3, 4, 5 + u, 100 + u, 200 + u, 300 + u, 400 + u, 500 + u] for u in range(1, 11)}
    result = count_yardsticks(sequences, k=10)
    assert result["co-occurrence"][0] == 0.0 and result["popularity"][0] == 0.0


def test_seen_items_are_not_recommended_when_dropped() -> None:
    # each user repeats item 1 at the end of every period; keeping seen items lets popularity find it
    sequences = {u: [2 + u, 1, 50 + u, 1, 60 + u, 1, 70 + u, 1, 80 + u, 1] for u in range(1, 11)}
    kept = count_yardsticks(sequences, k=1, drop_seen=False)["popularity"]
    dropped = count_yardsticks(sequences, k=1, drop_seen=True)["popularity"]
    assert all(k > 0 for k in kept) and all(d == 0 for d in dropped)



def test_popularity_offers_the_next_item_whatever_the_user_has_seen() -> None:
    # items 1..12 are popular in that order; one user has seen 1..11 in P0 and buys 12 first in P1:
    # the most popular item that user has not seen is 12, however many popular items came before it
    crowd = {}
    user = 1
    for item in range(1, 13):
        for _ in range(100 - item):
            crowd[user] = [item] + [10_000 + user * 10 + j for j in range(4)]  # fillers: one user each
            user += 1
    heavy = list(range(1, 12)) + [900] + [12] + [901 + j for j in range(47)]  # 60 items: P0 = the first 12
    result = count_yardsticks({**crowd, 0: heavy}, k=1, window=1)
    assert result["popularity"][0] > 0.0
