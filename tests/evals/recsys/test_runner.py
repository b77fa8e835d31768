"""The runner's treatment of items: history items dropped where the data never repeat, new items placed."""

from __future__ import annotations

from pathlib import Path

import pytest
import torch

from evals.recsys.runner import RunSettings, prepare, run_method
from stores.parametric.recommender import GenerativeRecommender


def _amazon_like(tmp_path: Path, n_users: int = 30) -> str:
    """Users who never repeat an item; each user's later periods bring items P0 never showed."""
    lines = []
    for u in range(1, n_users + 1):
        early = [1 + (u * 3 + i) % 20 for i in range(5)]
        late = [21 + (u + i) % 15 for i in range(5)]
        seq = list(dict.fromkeys(early + late))
        lines.append(f"{u} " + " ".join(str(i) for i in seq))
    (tmp_path / "amazon_toys_iclrec.txt").write_text("\n".join(lines) + "\n")
    return str(tmp_path)


def _settings(**kw: object) -> RunSettings:
    base = dict(methods=["tiger"], epochs=1, finetune_epochs=1, d_model=16, encoder_layers=2, decoder_layers=1,
                window=4, long_window=8, sid_codebook=4, item_dim=4, beam=10, min_length=5, limit_users=None)
    return RunSettings(**{**base, **kw})


def _history_then_target(self: GenerativeRecommender, batch, beam: int = 20) -> torch.Tensor:
    # a recommender that ranks the user's own recent items first, then the right answer
    rows = []
    for hist, target in zip(batch.window.tolist(), batch.target.tolist(), strict=True):
        items = [i for i in reversed(hist) if i > 0] + [target]
        rows.append((items + [-1] * beam)[:beam])
    return torch.tensor(rows)


@pytest.mark.parametrize(("mode", "dropped"), [("auto", True), ("drop", True), ("keep", False)])
def test_history_items_leave_the_ranking_where_the_data_never_repeat(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, mode: str, dropped: bool
) -> None:
    settings = _settings(data="toys", data_dir=_amazon_like(tmp_path), seen_items=mode)
    prepared = prepare(settings)
    assert prepared.drop_seen is dropped
    monkeypatch.setattr(GenerativeRecommender, "recommend", _history_then_target)
    result = run_method(prepared, "tiger", settings)
    ranks = [rank for _period, _user, rank in result.hits]
    if dropped:
        assert ranks and all(rank == 0 for rank in ranks)
    else:
        assert any(rank > 0 for rank in ranks)


def test_auto_keeps_history_items_where_users_repeat() -> None:
    # the synthetic users revisit items: dropping them would hide right answers
    prepared = prepare(_settings(data="synthetic", limit_users=20))
    assert prepared.drop_seen is False
    assert any("kept in" in note for note in prepared.notes)


@pytest.mark.parametrize("enabled", [True, False])
def test_items_first_seen_after_p0_get_codes_before_fine_tuning(tmp_path: Path, enabled: bool) -> None:
    settings = _settings(data="toys", data_dir=_amazon_like(tmp_path), new_item_ids=enabled)
    prepared = prepare(settings)
    assert prepared.known is not None and not prepared.known.all()
    result = run_method(prepared, "tiger", settings)
    placed = sum(step["placed"] for step in result.new_items)
    assert (placed > 0) is enabled
    assert [step["periods"] for step in result.new_items] == ([[1], [2], [3]] if enabled else [])


def test_amazon_runs_report_count_yardsticks(tmp_path: Path) -> None:
    prepared = prepare(_settings(data="toys", data_dir=_amazon_like(tmp_path)))
    assert set(prepared.yardsticks) == {"popularity", "co-occurrence"}
    assert all(len(v) == 4 and all(0.0 <= x <= 1.0 for x in v) for v in prepared.yardsticks.values())
    assert any(note.startswith("count yardsticks") for note in prepared.notes)


def test_memory_query_and_token_reach_the_lion_model() -> None:
    from evals.recsys.runner import build_model
    from stores.parametric.semantic_ids import build_semantic_ids, item_vectors

    sids = build_semantic_ids(item_vectors([[1, 2, 3, 4]] * 4, 8, dim=4, seed=0), 2, 4, seed=0)
    lion = build_model("lion", _settings(data="toys", methods=["lion"], memory_query="item", memory_token=True, memory_decoder=True), sids)
    assert (lion.config.memory_query, lion.config.memory_token, lion.config.memory_decoder) == ("item", True, True)
    tiger = build_model("tiger", _settings(data="toys", memory_query="item", memory_token=True, memory_decoder=True), sids)
    assert not tiger.has_memory and not hasattr(tiger, "memory_marker")


def test_evaluation_results_follow_the_example_order(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # evaluation batches are ordered by history length; hits must still come in example order, each
    # example's own ranking (the fake recommender answers right exactly for the users with an odd id)
    from evals.recsys.protocol import period_examples

    def odd_users_right(self: GenerativeRecommender, batch, beam: int = 20) -> torch.Tensor:
        return torch.tensor([[t if t % 2 else -1] + [-1] * (beam - 1) for t in batch.target.tolist()])

    settings = _settings(data="toys", data_dir=_amazon_like(tmp_path), seen_items="keep", bucket=2, batch_size=4)
    prepared = prepare(settings)
    monkeypatch.setattr(GenerativeRecommender, "recommend", odd_users_right)
    result = run_method(prepared, "tiger", settings)
    expected = [(p, e.user) for p in range(1, 5) for e in period_examples(prepared.sequences, [p])]
    assert [(p, u) for p, u, _ in result.hits] == expected
    targets = iter(prepared.sequences[e.user][e.pos] for p in range(1, 5) for e in period_examples(prepared.sequences, [p]))
    assert all((rank == 0) == (next(targets) % 2 == 1) for _, _, rank in result.hits)


def test_memory_sparse_gives_the_lion_values_sparse_adam() -> None:
    from evals.recsys.runner import build_model
    from stores.parametric.product_key_memory import make_optimizers
    from stores.parametric.semantic_ids import build_semantic_ids, item_vectors

    sids = build_semantic_ids(item_vectors([[1, 2, 3, 4]] * 4, 8, dim=4, seed=0), 2, 4, seed=0)
    for sparse in (True, False):
        lion = build_model("lion", _settings(data="toys", methods=["lion"], memory_sparse=sparse), sids)
        opts = make_optimizers(lion, 1e-3, 5e-2)
        assert lion.memory.config.sparse is sparse
        assert any(isinstance(o, torch.optim.SparseAdam) for o in opts) is sparse
