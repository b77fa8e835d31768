"""Behaviour of the product-key memory layer."""

from __future__ import annotations

import pytest
import torch
from hypothesis import given, settings
from hypothesis import strategies as st

from memkit.errors import ConfigError
from stores.parametric.product_key_memory import PKMConfig, ProductKeyMemory, make_optimizers, memory_param_groups


def _memory(seed: int = 0, **kw: int | bool) -> ProductKeyMemory:
    torch.manual_seed(seed)
    config = PKMConfig(**{"dim": 16, "n_keys": 8, "heads": 2, "topk": 4, "key_dim": 8, **kw})  # type: ignore[arg-type]
    return ProductKeyMemory(config).eval()


@settings(max_examples=25, deadline=None)
@given(seed=st.integers(0, 10_000), topk=st.integers(1, 8), heads=st.integers(1, 3))
def test_product_search_equals_brute_force(seed: int, topk: int, heads: int) -> None:
    mem = _memory(seed, topk=topk, heads=heads)
    q = mem.queries(torch.randn(5, 16, generator=torch.Generator().manual_seed(seed)))
    scores, slots = mem.address(q)
    brute_scores, brute_slots = mem.all_scores(q).topk(topk, dim=-1)
    assert torch.allclose(scores, brute_scores, atol=1e-5)
    # same slot sets (order within ties may differ)
    assert torch.equal(slots.sort(-1).values, brute_slots.sort(-1).values)


def test_batched_and_one_by_one_reads_agree() -> None:
    mem = _memory()
    x = torch.randn(6, 3, 16)
    together = mem(x)
    alone = torch.cat([mem(x[i : i + 1]) for i in range(6)])
    assert torch.allclose(together, alone, atol=1e-5)


def test_read_is_added_to_the_hidden_state() -> None:
    mem = _memory()
    x = torch.randn(4, 16)
    assert torch.allclose(mem(x), x + mem.read(x).output)


@pytest.mark.parametrize("sparse", [True, False])
def test_gradients_reach_only_the_selected_values(sparse: bool) -> None:
    mem = _memory(sparse=sparse)
    x = torch.randn(3, 16)
    read = mem.read(x)
    read.output.sum().backward()
    grad = mem.values.weight.grad
    dense = grad.to_dense() if sparse else grad
    touched = set(torch.nonzero(dense.abs().sum(1)).flatten().tolist())
    assert touched == set(read.slots.flatten().tolist())


def test_sparse_values_train_with_sparse_adam() -> None:
    mem = _memory(sparse=True)
    opts = make_optimizers(mem, lr=1e-3, value_lr=1e-2)
    assert any(isinstance(o, torch.optim.SparseAdam) for o in opts)
    before = mem.values.weight.detach().clone()
    read = mem.read(torch.randn(2, 16))
    read.output.pow(2).sum().backward()
    for o in opts:
        o.step()
    changed = set(torch.nonzero((mem.values.weight - before).abs().sum(1)).flatten().tolist())
    assert changed == set(read.slots.flatten().tolist())


def test_values_get_their_own_learning_rate() -> None:
    mem = _memory()
    model = torch.nn.Sequential(torch.nn.Linear(16, 16), mem)
    groups = memory_param_groups(model, lr=1e-3, value_lr=5e-2)
    value_group = [g for g in groups if g.get("memory_values")]
    assert len(value_group) == 1 and value_group[0]["lr"] == 5e-2
    assert value_group[0]["params"] == [mem.values.weight]
    rest = {id(p) for g in groups if not g.get("memory_values") for p in g["params"]}
    assert id(mem.values.weight) not in rest and id(mem.keys) in rest


def test_snapshot_restore_round_trips_exactly() -> None:
    mem = _memory()
    x = torch.randn(4, 16)
    snap = mem.snapshot()
    expected = mem(x)
    with torch.no_grad():
        for p in mem.parameters():
            p.add_(torch.randn_like(p))
    assert not torch.allclose(mem(x), expected)
    mem.restore(snap)
    assert torch.equal(mem(x), expected)
    # the snapshot is a copy: later training does not change it
    with torch.no_grad():
        mem.values.weight.add_(1.0)
    mem.restore(snap)
    assert torch.equal(mem(x), expected)


def test_a_row_is_read_independently_of_padding_rows() -> None:
    # LayerNorm per token: zero (padding) rows in the batch do not change other rows' reads
    mem = _memory()
    x = torch.randn(1, 16)
    padded = torch.cat([x, torch.zeros(7, 16)])
    assert torch.allclose(mem(padded)[:1], mem(x), atol=1e-6)


def test_slot_usage_separates_labelled_inputs() -> None:
    mem = _memory()
    x = torch.randn(4, 16)
    usage = mem.slot_usage([x], [["a", "a", "b", "b"]])
    assert set(usage.counts) == {"a", "b"}
    assert sum(usage.counts["a"].values()) == pytest.approx(2 * mem.config.heads)  # softmax weights sum to 1 per head


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [({"key_dim": 7}, "even"), ({"topk": 9}, "topk"), ({"heads": 0}, "heads")],
)
def test_bad_config_is_a_config_error(kwargs: dict[str, int], message: str) -> None:
    with pytest.raises(ConfigError, match=message):
        PKMConfig(**{"dim": 16, "n_keys": 8, **kwargs})  # type: ignore[arg-type]


def test_context_query_equals_the_concatenated_query() -> None:
    # the per-example context projected once and broadcast gives the same read as cat([x, context]) per token
    mem = _memory(query_dim=24)
    x, ctx = torch.randn(3, 5, 16), torch.randn(3, 8)
    full = torch.cat([x, ctx.unsqueeze(1).expand(3, 5, 8)], dim=-1)
    a, b = mem.read(x, query_input=full), mem.read(x, context=ctx)
    assert torch.equal(a.slots, b.slots)
    assert torch.allclose(a.output, b.output, atol=1e-5)


def test_context_query_rejects_wrong_shapes() -> None:
    mem = _memory(query_dim=24)
    with pytest.raises(ConfigError, match="context"):
        mem.read(torch.randn(3, 5, 16), context=torch.randn(3, 4))
