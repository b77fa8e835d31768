"""Product-key memory layer (Lample et al., 2019): a large sparse key-value memory.

N = n_keys**2 slots are addressed through two sets of n_keys sub-keys: a query
is split in two halves, each half picks its top-k sub-keys, and the best k of
the k*k combined candidates are read. The score of slot (i, j) is
``q1 . K1[i] + q2 . K2[j]``, so the top-k over the k*k candidates equals the
top-k over all N slots (the property the tests check against brute force),
at a cost of O(n_keys) instead of O(N) per query.

The values live in an ``nn.EmbeddingBag`` so that a read of k slots with
softmax weights is one weighted bag-sum, and gradients can be sparse (only
the selected rows get one). ``memory_param_groups`` gives values their own
learning rate.
"""

from __future__ import annotations

import copy
from collections.abc import Hashable, Iterable, Mapping
from dataclasses import dataclass
from typing import Any, NamedTuple

import torch
from torch import Tensor, nn
from torch.nn import functional as F

from memkit.errors import ConfigError
from memkit.parametric import SlotUsage

__all__ = ["PKMConfig", "ProductKeyMemory", "MemoryRead", "memory_param_groups", "make_optimizers"]


@dataclass(frozen=True)
class PKMConfig:
    """Size of a product-key memory.

    dim: width of the hidden state read from and written back to.
    n_keys: sub-keys per half; the memory has n_keys**2 slots.
    heads: independent queries, each reading topk slots; their reads are summed.
    topk: slots read per head (also the sub-keys kept per half).
    key_dim: query/key width (split into two halves of key_dim // 2).
    query_dim: width of the query input when it differs from dim (a query built
        from more than the hidden state, e.g. hidden state + long history).
    value_dim: width of a value; the read is projected back to dim when it differs.
    dropout: dropout on the read before it is added to the hidden state.
    value_init_std: std of the values' normal init (None: value_dim ** -0.5,
        as Lample et al.; 0 starts the memory as a no-op read).
    sparse: sparse value gradients (needs torch.optim.SparseAdam for the values).
    """

    dim: int
    n_keys: int = 32
    heads: int = 4
    topk: int = 8
    key_dim: int = 32
    query_dim: int | None = None
    value_dim: int | None = None
    dropout: float = 0.0
    value_init_std: float | None = None
    sparse: bool = False

    def __post_init__(self) -> None:
        if self.key_dim % 2:
            raise ConfigError(f"PKMConfig.key_dim must be even (two halves), got {self.key_dim}")
        if not 1 <= self.topk <= self.n_keys:
            raise ConfigError(f"PKMConfig.topk must be in 1..n_keys={self.n_keys}, got {self.topk}")
        for name in ("dim", "n_keys", "heads"):
            if getattr(self, name) < 1:
                raise ConfigError(f"PKMConfig.{name} must be positive, got {getattr(self, name)}")

    @property
    def n_slots(self) -> int:
        """Number of memory slots, n_keys**2."""
        return self.n_keys * self.n_keys


class MemoryRead(NamedTuple):
    """One read: the output (before the residual add), the slots read, and their weights."""

    output: Tensor  # (..., dim)
    slots: Tensor  # (..., heads, topk) long, in [0, n_slots)
    weights: Tensor  # (..., heads, topk) softmax weights per head


class ProductKeyMemory(nn.Module):
    """A product-key memory layer: ``forward(x) = x + read(x)``.

    Queries: Linear(query_dim -> heads * key_dim), then LayerNorm per head (a
    per-token norm: BatchNorm would mix padded positions into the statistics).
    """

    def __init__(self, config: PKMConfig) -> None:
        super().__init__()
        self.config = config
        c = config
        qdim = c.query_dim or c.dim
        vdim = c.value_dim or c.dim
        self.query = nn.Linear(qdim, c.heads * c.key_dim, bias=False)
        self.query_norm = nn.LayerNorm(c.key_dim)
        # keys: (heads, 2 halves, n_keys, key_dim // 2)
        self.keys = nn.Parameter(torch.randn(c.heads, 2, c.n_keys, c.key_dim // 2) / (c.key_dim // 2) ** 0.5)
        self.values = nn.EmbeddingBag(c.n_slots, vdim, mode="sum", sparse=c.sparse)
        std = vdim**-0.5 if c.value_init_std is None else c.value_init_std
        if std > 0:
            nn.init.normal_(self.values.weight, std=std)
        else:
            nn.init.zeros_(self.values.weight)
        self.out = nn.Linear(vdim, c.dim, bias=False) if vdim != c.dim else nn.Identity()
        self.dropout = nn.Dropout(c.dropout) if c.dropout > 0 else nn.Identity()

    # -- addressing -----------------------------------------------------
    def queries(self, q_in: Tensor) -> Tensor:
        """(..., query_dim) -> normalized queries (..., heads, key_dim)."""
        c = self.config
        q = self.query(q_in).unflatten(-1, (c.heads, c.key_dim))
        return self.query_norm(q)

    def address(self, q: Tensor) -> tuple[Tensor, Tensor]:
        """Top-k slots by product search. q: (M, heads, key_dim) -> scores, slots (M, heads, topk)."""
        c = self.config
        half = c.key_dim // 2
        q1, q2 = q[..., :half], q[..., half:]  # (M, H, half) each
        # sub-key scores per half: (M, H, n_keys)
        s1 = torch.einsum("mhd,hnd->mhn", q1, self.keys[:, 0])
        s2 = torch.einsum("mhd,hnd->mhn", q2, self.keys[:, 1])
        top1, idx1 = s1.topk(c.topk, dim=-1)  # (M, H, k)
        top2, idx2 = s2.topk(c.topk, dim=-1)
        # all k*k combinations: (M, H, k, k) -> (M, H, k*k)
        cand = (top1.unsqueeze(-1) + top2.unsqueeze(-2)).flatten(-2)
        cand_slots = (idx1.unsqueeze(-1) * c.n_keys + idx2.unsqueeze(-2)).flatten(-2)
        scores, best = cand.topk(c.topk, dim=-1)  # (M, H, k)
        return scores, cand_slots.gather(-1, best)

    def all_scores(self, q: Tensor) -> Tensor:
        """Brute-force scores of every slot, (M, heads, n_slots): the reference for ``address``."""
        c = self.config
        half = c.key_dim // 2
        s1 = torch.einsum("mhd,hnd->mhn", q[..., :half], self.keys[:, 0])
        s2 = torch.einsum("mhd,hnd->mhn", q[..., half:], self.keys[:, 1])
        return (s1.unsqueeze(-1) + s2.unsqueeze(-2)).flatten(-2)

    def context_queries(self, x: Tensor, context: Tensor) -> Tensor:
        """Queries of ``cat([x, context broadcast over tokens])`` without building that tensor.

        x: (B, S, dim) hidden states; context: (B, query_dim - dim), one per
        example. The query projection is linear, so its context half is
        applied once per example (B rows) instead of once per token (B * S
        rows) and added: the same queries at about half the cost.
        Returns (B * S, heads, key_dim), normalized.
        """
        c = self.config
        w = self.query.weight  # (heads * key_dim, query_dim)
        if x.dim() != 3 or context.dim() != 2 or x.shape[-1] + context.shape[-1] != w.shape[1]:
            raise ConfigError(
                f"context query needs x (B, S, {c.dim}) and context (B, {w.shape[1] - c.dim}); "
                f"got {tuple(x.shape)} and {tuple(context.shape)}"
            )
        q = F.linear(x, w[:, : x.shape[-1]]) + F.linear(context, w[:, x.shape[-1] :]).unsqueeze(1)  # (B, S, H*kd)
        return self.query_norm(q.reshape(-1, c.heads, c.key_dim))

    # -- reading --------------------------------------------------------
    def read(self, x: Tensor, query_input: Tensor | None = None, context: Tensor | None = None) -> MemoryRead:
        """Read the memory for hidden states x (..., dim).

        The query comes from ``query_input`` (..., query_dim) if given, else
        from ``cat([x, context])`` if a per-example ``context`` (B, .) is given
        for x (B, S, dim), else from x alone.
        """
        c = self.config
        lead = x.shape[:-1]
        if context is not None:
            q = self.context_queries(x, context)  # (M, H, key_dim)
        else:
            q_in = x if query_input is None else query_input
            q = self.queries(q_in.reshape(-1, q_in.shape[-1]))  # (M, H, key_dim)
        scores, slots = self.address(q)  # (M, H, k)
        weights = F.softmax(scores, dim=-1)  # per head
        # one bag per query: H*k slots, weighted; heads are summed
        out = self.values(slots.flatten(1), per_sample_weights=weights.flatten(1).to(self.values.weight.dtype))
        out = self.out(out)  # (M, dim)
        return MemoryRead(
            out.reshape(*lead, c.dim),
            slots.reshape(*lead, c.heads, c.topk),
            weights.reshape(*lead, c.heads, c.topk),
        )

    def forward(self, x: Tensor, query_input: Tensor | None = None, context: Tensor | None = None) -> Tensor:
        """x: (..., dim) -> x + read(x), same shape (query as in ``read``)."""
        return x + self.dropout(self.read(x, query_input, context).output)

    # -- per-period state -----------------------------------------------
    def snapshot(self) -> dict[str, Any]:
        """A deep copy of keys, query net and values."""
        return {k: v.detach().clone() for k, v in self.state_dict().items()}

    def restore(self, snapshot: Mapping[str, Any]) -> None:
        """Load a snapshot back exactly."""
        self.load_state_dict(copy.deepcopy(dict(snapshot)))

    @torch.no_grad()
    def slot_usage(
        self,
        inputs: Iterable[Tensor],
        groups: Iterable[Iterable[Hashable]] | None = None,
    ) -> SlotUsage:
        """Slots activated by each input tensor (..., dim); ``groups`` labels the rows of each input."""
        usage = SlotUsage(self.config.n_slots)
        group_lists = iter(groups) if groups is not None else None
        for x in inputs:
            read = self.read(x)
            labels = list(next(group_lists)) if group_lists is not None else ["all"] * x.shape[0]
            for row, label in enumerate(labels):
                usage.add(label, read.slots[row].flatten().tolist(), read.weights[row].flatten().tolist())
        return usage


def memory_param_groups(model: nn.Module, lr: float, value_lr: float, weight_decay: float = 0.0) -> list[dict[str, Any]]:
    """Optimizer parameter groups: memory values at ``value_lr`` (no weight decay), the rest at ``lr``."""
    value_params: list[nn.Parameter] = []
    for module in model.modules():
        if isinstance(module, ProductKeyMemory):
            value_params.extend(module.values.parameters())
    value_ids = {id(p) for p in value_params}
    rest = [p for p in model.parameters() if id(p) not in value_ids and p.requires_grad]
    groups: list[dict[str, Any]] = [{"params": rest, "lr": lr, "weight_decay": weight_decay}]
    if value_params:
        groups.append({"params": value_params, "lr": value_lr, "weight_decay": 0.0, "memory_values": True})
    return groups


def make_optimizers(model: nn.Module, lr: float, value_lr: float) -> list[torch.optim.Optimizer]:
    """Adam for dense parameters and dense values; SparseAdam for values with sparse gradients."""
    groups = memory_param_groups(model, lr, value_lr)
    dense = [g for g in groups if not g.get("memory_values")]
    values = [g for g in groups if g.get("memory_values")]
    sparse_ids = {
        id(p)
        for m in model.modules()
        if isinstance(m, ProductKeyMemory) and m.config.sparse
        for p in m.values.parameters()
    }
    opts: list[torch.optim.Optimizer] = []
    for g in values:
        sparse = [p for p in g["params"] if id(p) in sparse_ids]
        plain = [p for p in g["params"] if id(p) not in sparse_ids]
        if sparse:
            opts.append(torch.optim.SparseAdam(sparse, lr=value_lr))
        if plain:
            dense.append({"params": plain, "lr": value_lr, "weight_decay": 0.0})
    opts.insert(0, torch.optim.Adam([{k: v for k, v in g.items() if k != "memory_values"} for g in dense]))
    return opts
