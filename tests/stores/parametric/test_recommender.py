"""The generative recommender: constrained decoding, the ParametricMemory contract, training."""

from __future__ import annotations

import pytest
import torch

from memkit.errors import ConfigError
from memkit.parametric import ParametricMemory
from stores.parametric.product_key_memory import PKMConfig
from stores.parametric.recommender import GenerativeRecommender, RecBatch
from stores.parametric.semantic_ids import SemanticIds

from .conftest import N_ITEMS, make_batch, tiny_config


def test_beam_search_returns_only_valid_distinct_items(model: GenerativeRecommender) -> None:
    out = model.recommend(make_batch(5), beam=20)
    assert out.shape == (5, 20)
    for row in out.tolist():
        assert all(1 <= item <= N_ITEMS for item in row)
        assert len(set(row)) == len(row)


def test_beam_wider_than_catalog_pads_with_minus_one(sids: SemanticIds) -> None:
    torch.manual_seed(0)
    model = GenerativeRecommender(tiny_config(memory=False), sids)
    out = model.recommend(make_batch(2), beam=N_ITEMS + 5)
    for row in out.tolist():
        valid = [i for i in row if i != -1]
        assert sorted(valid) == list(range(1, N_ITEMS + 1))
        assert row[len(valid) :] == [-1] * 5


def test_beam_order_follows_sequence_probability(sids: SemanticIds) -> None:
    # the best beam is the arg-max item under the model's own teacher-forced log-probability
    torch.manual_seed(1)
    model = GenerativeRecommender(tiny_config(memory=False), sids).eval()
    batch = make_batch(1)
    best = int(model.recommend(batch, beam=N_ITEMS)[0, 0])
    enc, pad, _ = model.encode(batch)
    kv = model.memory_kv(enc)
    items = torch.arange(1, N_ITEMS + 1)
    tokens = model.item_tokens[items]  # (n, depth)
    prefix = torch.cat([torch.full((len(items), 1), model.bos), tokens[:, :-1]], dim=1).unsqueeze(0)
    logits = model.decode_logits(kv, pad, prefix)[0]  # (n, depth, vocab)
    codes = tokens - torch.tensor(model.offsets)
    scores = sum(
        torch.log_softmax(model.level_logits(logits[:, lv], lv), -1).gather(1, codes[:, lv : lv + 1]).squeeze(1)
        for lv in range(model.depth)
    )
    assert best == int(items[scores.argmax()])


def test_model_is_a_parametric_memory(model: GenerativeRecommender) -> None:
    assert isinstance(model, ParametricMemory)


def test_snapshot_restore_round_trips_after_training(model: GenerativeRecommender) -> None:
    batch = make_batch()
    snap = model.snapshot()
    model.eval()
    before = model(batch)["loss"].item()
    model.consolidate([batch], epochs=2)
    assert model(batch)["loss"].item() != before
    model.restore(snap)
    model.eval()
    assert model(batch)["loss"].item() == before


def test_consolidate_fits_the_batches(model: GenerativeRecommender) -> None:
    batch = make_batch()
    model.eval()
    first = model(batch)["rec"].item()
    report = model.consolidate([batch], epochs=30, lr=1e-2, value_lr=1e-2)
    assert report.steps == 30 and report.examples == 30 * len(batch)
    assert model(batch)["rec"].item() < first * 0.5
    assert "consolidation" in report.losses


def test_consolidation_weight_zero_keeps_only_the_recommendation_loss(sids: SemanticIds) -> None:
    torch.manual_seed(0)
    model = GenerativeRecommender(tiny_config(consolidation_weight=0.0), sids).eval()
    out = model(make_batch())
    assert torch.equal(out["loss"], out["rec"])


def test_long_query_changes_what_the_memory_reads(sids: SemanticIds) -> None:
    # with the long query on, a different long history moves the read; with it off, it does not
    batch = make_batch()
    other = make_batch(seed=1)
    for long_query, expect_change in ((True, True), (False, False)):
        torch.manual_seed(0)
        model = GenerativeRecommender(tiny_config(long_query=long_query), sids).eval()
        a = model.encode(batch)[2]
        batch.history, saved = other.history, batch.history
        b = model.encode(batch)[2]
        batch.history = saved
        assert (not torch.allclose(a, b)) is expect_change


def test_slot_usage_labels_groups(model: GenerativeRecommender) -> None:
    batch = make_batch(4)
    usage = model.slot_usage([batch], [["x", "x", "y", "y"]])
    assert set(usage.counts) == {"x", "y"}


def test_baseline_has_no_memory(sids: SemanticIds) -> None:
    model = GenerativeRecommender(tiny_config(memory=False), sids)
    assert not model.has_memory
    with pytest.raises(ConfigError):
        model.slot_usage([make_batch()])


def test_memory_needs_two_encoder_blocks(sids: SemanticIds) -> None:
    with pytest.raises(ConfigError):
        tiny_config(encoder_layers=1)


def test_item_summary_is_the_mean_of_item_embeddings(model: GenerativeRecommender) -> None:
    # the count-matmul summary equals looking every item's code embeddings up and averaging
    items = make_batch().history
    emb = model.tok_emb(model.item_tokens[items]).sum(2)
    mask = (items > 0).unsqueeze(-1).float()
    expected = (emb * mask).sum(1) / mask.sum(1).clamp_min(1.0)
    assert torch.allclose(model._item_summary(items), expected, atol=1e-5)


def test_last_position_read_touches_only_the_most_recent_item(sids: SemanticIds) -> None:
    # read_positions="last": tokens of older items leave the memory layer unchanged, the last item's do not
    torch.manual_seed(0)
    last = GenerativeRecommender(tiny_config(read_positions="last"), sids).eval()
    torch.manual_seed(0)
    every = GenerativeRecommender(tiny_config(read_positions="all"), sids).eval()
    every.load_state_dict(last.state_dict())
    batch = make_batch()
    collect_last: list = []
    collect_all: list = []
    last.encode(batch, collect_last)
    every.encode(batch, collect_all)
    depth = last.depth
    assert collect_last[0][0].slots.shape[1] == depth
    assert collect_all[0][0].slots.shape[1] == batch.window.shape[1] * depth
    # same weights, same query for the last item's tokens: the same slots
    assert torch.equal(collect_last[0][0].slots, collect_all[0][0].slots[:, -depth:])


def test_bad_read_positions_is_a_config_error() -> None:
    with pytest.raises(ConfigError, match="read_positions"):
        tiny_config(read_positions="first")


def test_memory_only_finetuning_leaves_the_backbone_unchanged(model: GenerativeRecommender) -> None:
    memory_ids = {id(p) for m in (model.memory, model.context, model.consolidation_head) for p in m.parameters()}
    before = {name: p.detach().clone() for name, p in model.named_parameters()}
    model.consolidate([make_batch()], epochs=2, trainable="memory")
    for name, p in model.named_parameters():
        changed = not torch.equal(before[name], p)
        if id(p) not in memory_ids:
            assert not changed, name
    assert not torch.equal(before["memory.values.weight"], model.memory.values.weight)
    assert all(p.requires_grad for p in model.parameters())  # unfrozen again afterwards


def test_memory_only_finetuning_needs_a_memory(sids: SemanticIds) -> None:
    model = GenerativeRecommender(tiny_config(memory=False), sids)
    with pytest.raises(ConfigError, match="memory"):
        model.consolidate([make_batch()], trainable="memory")


def test_memory_after_sets_the_blocks_below_the_memory(sids: SemanticIds) -> None:
    model = GenerativeRecommender(tiny_config(encoder_layers=3, memory_after=1), sids)
    assert (len(model.lower), len(model.upper)) == (1, 2)
    with pytest.raises(ConfigError, match="memory_after"):
        tiny_config(encoder_layers=3, memory_after=3)


def test_zero_value_init_starts_the_memory_as_a_no_op(sids: SemanticIds) -> None:
    pkm = PKMConfig(dim=16, n_keys=4, heads=2, topk=2, key_dim=8, value_init_std=0.0)
    model = GenerativeRecommender(tiny_config(memory=pkm), sids)
    read = model.memory.read(torch.randn(3, 2, 16), context=torch.randn(3, 16))
    assert torch.count_nonzero(read.output) == 0


def test_item_query_reads_by_the_last_item_not_by_older_window_items(sids: SemanticIds) -> None:
    # memory_query="item": the query is the last item's own embedding (+ the long history), so changing an
    # older item of the window (same long history) reads the same slots; the hidden-state query does not
    torch.manual_seed(0)
    item = GenerativeRecommender(tiny_config(memory_query="item"), sids).eval()
    torch.manual_seed(0)
    hidden = GenerativeRecommender(tiny_config(), sids).eval()
    hidden.load_state_dict(item.state_dict())
    batch = make_batch()
    other = RecBatch(batch.window.clone(), batch.history, batch.target)
    other.window[:, 1:-1] = (other.window[:, 1:-1] % 60) + 1  # every older (non-padding) item changes
    reads = {}
    for name, model in (("item", item), ("hidden", hidden)):
        for key, b in (("a", batch), ("b", other)):
            collect: list = []
            model.encode(b, collect)
            reads[name, key] = collect[0][0]
    assert reads["item", "a"].slots.shape[1] == 1  # one read per item, added to all of its tokens
    assert torch.equal(reads["item", "a"].slots, reads["item", "b"].slots)
    assert not torch.equal(reads["hidden", "a"].slots, reads["hidden", "b"].slots)
    # and it is the item's embedding (sum of its code embeddings) that queries
    x = item.tok_emb(item.item_tokens[batch.window[:, -1:]]).sum(2)
    ctx = item.context(item._item_summary(batch.history))
    assert torch.equal(item.memory.read(x, context=ctx).slots, reads["item", "a"].slots)


def test_item_query_reads_every_window_item_with_read_positions_all(sids: SemanticIds) -> None:
    model = GenerativeRecommender(tiny_config(memory_query="item", read_positions="all"), sids).eval()
    batch = make_batch()
    collect: list = []
    model.encode(batch, collect)
    read, read_pad = collect[0]
    assert read.slots.shape[:2] == batch.window.shape
    assert torch.equal(read_pad, batch.window == 0)
    assert model.slot_usage([batch]).n_slots == model.memory.config.n_slots


def test_memory_token_is_one_more_encoder_token_the_decoder_reads(sids: SemanticIds) -> None:
    torch.manual_seed(0)
    model = GenerativeRecommender(tiny_config(memory_token=True), sids).eval()
    batch = make_batch()
    enc, pad, _ = model.encode(batch)
    assert enc.shape[1] == batch.window.shape[1] * model.depth + 1
    assert pad.shape == enc.shape[:2] and not pad[:, -1].any()
    # the decoder's loss depends on the memory values through that token
    with torch.no_grad():
        before = float(model(batch)["rec"])
        model.memory.values.weight.mul_(5.0)
        assert float(model(batch)["rec"]) != before
    assert model.recommend(batch, beam=3).shape == (len(batch), 3)
    # the baseline and the default LION have no such token
    for config in (tiny_config(memory=False), tiny_config()):
        enc, _, _ = GenerativeRecommender(config, sids).encode(batch)
        assert enc.shape[1] == batch.window.shape[1] * model.depth


def test_bad_memory_query_is_a_config_error() -> None:
    with pytest.raises(ConfigError, match="memory_query"):
        tiny_config(memory_query="target")


def test_memory_decoder_adds_the_read_to_every_decoder_input(sids: SemanticIds) -> None:
    torch.manual_seed(0)
    model = GenerativeRecommender(tiny_config(memory_decoder=True), sids).eval()
    batch = make_batch()
    enc, pad, _, bias = model._encode(batch)
    collect: list = []
    model.encode(batch, collect)
    assert torch.allclose(bias, collect[0][0].output.mean(1), atol=1e-6)  # mean over the last item's reads
    prefix = torch.full((len(batch), 2, 1), model.bos)
    kv = model.memory_kv(enc)
    with torch.no_grad():
        plain = model.decode_logits(kv, pad, prefix)
        biased = model.decode_logits(kv, pad, prefix, bias)
        assert not torch.allclose(plain, biased)
        # the training loss and beam search use it
        before = float(model(batch)["rec"])
        model.memory.values.weight.mul_(5.0)
        assert float(model(batch)["rec"]) != before
    assert model.recommend(batch, beam=3).shape == (len(batch), 3)
    assert GenerativeRecommender(tiny_config(), sids)._encode(batch)[3] is None


def test_item_only_query_ignores_the_history(sids: SemanticIds) -> None:
    # memory_query="item-only": the slots depend on the read item alone, not on the user's long history
    model = GenerativeRecommender(tiny_config(memory_query="item-only"), sids).eval()
    batch = make_batch()
    other = RecBatch(batch.window, batch.history.flip(0), batch.target)
    slots = []
    for b in (batch, other):
        collect: list = []
        model.encode(b, collect)
        slots.append(collect[0][0].slots)
    assert torch.equal(slots[0], slots[1])


def test_consolidation_pool_read_gives_the_head_the_memory_read_alone(sids: SemanticIds) -> None:
    model = GenerativeRecommender(tiny_config(consolidation_pool="read"), sids).eval()
    batch = make_batch()
    collect: list = []
    _, _, pooled = model.encode(batch, collect)
    read, read_pad = collect[0]
    keep = (~read_pad).unsqueeze(-1).float()
    assert torch.allclose(pooled, (read.output * keep).sum(1) / keep.sum(1).clamp_min(1.0), atol=1e-6)
    with pytest.raises(ConfigError, match="consolidation_pool"):
        tiny_config(consolidation_pool="values")


def test_encoder_block_is_the_torch_layer(sids: SemanticIds) -> None:
    # the hand-written block uses the layer's own weights: same outputs at the non-padding positions
    from stores.parametric.recommender import _encoder_block

    torch.manual_seed(0)
    layer = torch.nn.TransformerEncoderLayer(16, 2, 32, 0.1, batch_first=True, norm_first=True).eval()
    x = torch.randn(5, 12, 16)
    pad = torch.zeros(5, 12, dtype=torch.bool)
    pad[:, :4] = True
    pad[2, :10] = True
    with torch.no_grad():
        expected = layer(x, src_key_padding_mask=pad)
        got = _encoder_block(layer, x, pad)
    assert torch.allclose(got[~pad], expected[~pad], atol=1e-5)


def test_leading_padding_columns_change_nothing(sids: SemanticIds) -> None:
    # the encoder drops the columns that are padding in every row (positions stay those of the full window):
    # rows with two leading padding items give the same encodings and recommendations whether the batch is
    # trimmed (they alone) or not (a row with a full window joins them)
    torch.manual_seed(0)
    for kw in ({}, {"read_positions": "all", "memory_query": "item"}):
        m = GenerativeRecommender(tiny_config(**kw), sids).eval()
        full = make_batch()
        full.window[1:, :2] = 0
        full.window[0, :2] = torch.tensor([1, 2])
        assert (full.window[0] > 0).all()
        rows = RecBatch(full.window[1:], full.history[1:], full.target[1:])
        with torch.no_grad():
            enc_rows, pad_rows, pooled_rows = m.encode(rows)
            enc_full, _, pooled_full = m.encode(full)
        assert enc_rows.shape[1] == 2 * m.depth < enc_full.shape[1]  # trimmed
        kept = ~pad_rows
        assert torch.allclose(enc_rows[kept], enc_full[1:, -2 * m.depth :][kept], atol=1e-5)
        assert pooled_rows is not None and pooled_full is not None
        assert torch.allclose(pooled_rows, pooled_full[1:], atol=1e-5)
        assert torch.equal(m.recommend(rows, beam=5), m.recommend(full, beam=5)[1:])


def test_incremental_decoding_matches_the_full_decoder(sids: SemanticIds) -> None:
    # beam search decodes one position at a time with cached keys/values: same logits as decoding the prefix
    torch.manual_seed(0)
    m = GenerativeRecommender(tiny_config(memory=False, decoder_layers=2), sids).eval()
    batch = make_batch()
    with torch.no_grad():
        enc, pad, _ = m.encode(batch)
        kv = m.memory_kv(enc)
        g = torch.Generator().manual_seed(1)
        prefix = torch.cat([torch.full((6, 3, 1), m.bos), torch.randint(1, m.bos, (6, 3, m.depth - 1), generator=g)], dim=-1)
        caches = None
        for pos in range(m.depth):
            step, caches = m.decode_step(kv, pad, prefix[:, :, pos], pos, caches)
            full = m.decode_logits(kv, pad, prefix[:, :, : pos + 1])[:, :, -1]
            assert torch.allclose(step, full, atol=1e-5)


def test_dropout_zeroes_about_p_and_keeps_the_mean() -> None:
    from stores.parametric.recommender import _dropout

    torch.manual_seed(0)
    x = torch.ones(200_000)
    y = _dropout(x, 0.1, True)
    assert abs(float((y == 0).float().mean()) - 0.1) < 0.005
    assert abs(float(y.mean()) - 1.0) < 0.01
    assert torch.equal(_dropout(x, 0.1, False), x) and torch.equal(_dropout(x, 0.0, True), x)


def test_encoder_block_in_training_without_dropout_is_the_evaluation_block() -> None:
    from stores.parametric.recommender import _encoder_block

    torch.manual_seed(0)
    layer = torch.nn.TransformerEncoderLayer(16, 2, 32, 0.0, batch_first=True, norm_first=True)
    x = torch.randn(3, 8, 16)
    pad = torch.zeros(3, 8, dtype=torch.bool)
    pad[:, :3] = True
    with torch.no_grad():
        train_out = _encoder_block(layer.train(), x, pad)
        eval_out = layer.eval()(x, src_key_padding_mask=pad)
    assert torch.allclose(train_out[~pad], eval_out[~pad], atol=1e-5)
    # with attention dropout the written-out softmax path runs and stays finite
    layer = torch.nn.TransformerEncoderLayer(16, 2, 32, 0.5, batch_first=True, norm_first=True).train()
    assert torch.isfinite(_encoder_block(layer, x, pad)[~pad]).all()


@pytest.mark.parametrize("sparse", [True, False])
def test_sparse_values_move_only_where_the_step_reads(sids: SemanticIds, sparse: bool) -> None:
    # SparseAdam updates only the slots a step reads; dense Adam keeps moving slots read in
    # earlier steps of the same fine-tuning (their momentum), although nothing reads them now
    torch.manual_seed(0)
    pkm = PKMConfig(dim=16, n_keys=8, heads=2, topk=2, key_dim=8, sparse=sparse)
    model = GenerativeRecommender(tiny_config(memory=pkm), sids)
    reads: list[set[int]] = []
    read = model.memory.read

    def recording_read(*args: object, **kwargs: object):  # type: ignore[no-untyped-def]
        out = read(*args, **kwargs)
        reads.append(set(out.slots.flatten().tolist()))
        return out

    model.memory.read = recording_read  # type: ignore[method-assign]
    values = [model.memory.values.weight.detach().clone()]
    model.consolidate(
        [make_batch(n=2, seed=s) for s in range(3)], epochs=2,
        on_step=lambda _n: values.append(model.memory.values.weight.detach().clone()),
    )
    moved_unread = []
    for step in range(1, len(values)):
        changed = set(torch.nonzero((values[step] - values[step - 1]).abs().sum(1)).flatten().tolist())
        assert changed, step
        moved_unread.append(changed - reads[step - 1])
    assert all(not m for m in moved_unread) if sparse else any(moved_unread)
