"""A TIGER-style generative recommender, with the LION memory layer as an option.

The encoder reads the user's last ``window`` items, each written as its
semantic-id code tokens; the decoder generates the next item's codes, and
beam search keeps only valid code paths (``decoding.constrained_beam_search``).

LION (``RecConfig.memory`` set):

* a product-key memory layer sits between the middle encoder blocks, read at
  the most recent item's tokens (``read_positions="last"``, default) or at
  every token (``"all"``);
* its query is built from the hidden state (or, ``memory_query="item"``, from
  the read item's own embedding) *and* a summary of a longer
  history (the last ``long_window`` items, more than the encoder sees) when
  ``long_query`` is on, else from the main window only (the ablation);
* the consolidation loss: a separate head predicts the target's codes from the
  memory-augmented representation (mean over tokens after the memory layer),
  weighted by ``consolidation_weight`` and added to the recommendation loss.
* ``memory_token``: the read is also appended as one extra encoder token, so
  the decoder's cross-attention reaches it without going through the tokens
  it was added to; ``memory_decoder``: the read is also added to every
  decoder input position (with the tied output embedding, the most direct
  path from a value to the logits).

Without memory the model is the baseline backbone, layer for layer.

The model implements :class:`memkit.parametric.ParametricMemory`: calling it
reads, ``consolidate`` trains on batches, ``snapshot``/``restore`` copy the
weights, ``slot_usage`` reports which slots which user groups activate.
"""

from __future__ import annotations

import copy
import time
from collections.abc import Callable, Hashable, Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any

import torch
from torch import Tensor, nn
from torch.nn import functional as F

from memkit.errors import ConfigError
from memkit.parametric import ConsolidationReport, SlotUsage
from stores.parametric.decoding import constrained_beam_search
from stores.parametric.product_key_memory import PKMConfig, ProductKeyMemory, make_optimizers
from stores.parametric.semantic_ids import SemanticIds

__all__ = ["RecConfig", "RecBatch", "DecoderBlock", "GenerativeRecommender"]


@dataclass(frozen=True)
class RecConfig:
    """Backbone, memory and training settings of the recommender."""

    d_model: int = 64
    n_heads: int = 4
    encoder_layers: int = 4
    decoder_layers: int = 2
    ff_dim: int = 128
    dropout: float = 0.1
    window: int = 10  # items the encoder reads
    long_window: int = 50  # items summarized for the memory query (LION)
    memory: PKMConfig | None = None  # None: the TIGER baseline
    long_query: bool = True
    consolidation_weight: float = 0.5
    # "last": the most recent item's tokens; "mean": all tokens; "read": the memory read alone (mean over
    # the read positions), so the consolidation loss trains the values to predict the next item directly
    consolidation_pool: str = "last"
    # where the memory is read: "last" = the most recent item's tokens only (the key is then
    # "this item, for this user's long history", what next-item recall needs, at 1/window of
    # the cost); "all" = every token of the window
    read_positions: str = "last"
    # encoder blocks below the memory layer (None: encoder_layers // 2, the middle)
    memory_after: int | None = None
    # what the memory query is built from (with the long-history context when ``long_query``):
    # "hidden" = the contextual hidden state after the lower blocks, per read token; "item" = the
    # read item's own embedding (sum of its code embeddings), one read per item added to all of its
    # tokens, so a slot stays tied to an item while the blocks below drift from period to period
    # "item-only" = the item's embedding without the history context (a slot is then shared by every
    # user who reads that item: a learned item -> next-item table; ignores ``long_query``)
    memory_query: str = "hidden"
    # also append the read (mean over the read items, + a learned marker) as one extra encoder token
    # before the upper blocks, so the decoder's cross-attention reaches it directly
    memory_token: bool = False
    # also add the read (mean over the read items) to every decoder input position: with the tied
    # output embedding a value can then write "the next item's codes" straight into the logits
    memory_decoder: bool = False
    lr: float = 1e-3
    value_lr: float = 2e-2
    label_smoothing: float = 0.0  # of the per-level code cross-entropies (recommendation and consolidation)
    grad_clip: float = 1.0
    extra: dict[str, Any] = field(default_factory=dict)

    def __post_init__(self) -> None:
        if self.encoder_layers < 2 and self.memory is not None:
            raise ConfigError("the memory layer sits between encoder blocks: need encoder_layers >= 2")
        if self.memory is not None and self.memory.dim != self.d_model:
            raise ConfigError(f"memory dim {self.memory.dim} != d_model {self.d_model}")
        if self.consolidation_pool not in ("last", "mean", "read"):
            raise ConfigError(f"consolidation_pool must be 'last', 'mean' or 'read', got {self.consolidation_pool!r}")
        if self.read_positions not in ("last", "all"):
            raise ConfigError(f"read_positions must be 'last' or 'all', got {self.read_positions!r}")
        if self.memory_query not in ("hidden", "item", "item-only"):
            raise ConfigError(f"memory_query must be 'hidden', 'item' or 'item-only', got {self.memory_query!r}")
        if self.memory_after is not None and not 1 <= self.memory_after <= self.encoder_layers - 1:
            raise ConfigError(f"memory_after must be in 1..encoder_layers-1, got {self.memory_after}")
        if self.d_model % self.n_heads:
            raise ConfigError(f"d_model {self.d_model} is not divisible by n_heads {self.n_heads}")


@dataclass
class RecBatch:
    """Examples as item ids (0 = padding), histories right-aligned (most recent last).

    window: (B, window) the encoder's input; history: (B, long_window) the
    longer history for the memory query; target: (B,) the next item.
    """

    window: Tensor
    history: Tensor
    target: Tensor

    def __len__(self) -> int:
        return int(self.target.shape[0])


class DecoderBlock(nn.Module):
    """Pre-norm decoder block: causal self-attention per beam, cross-attention shared by the beams.

    The encoder's keys and values are projected once per example and every
    beam of that example attends to them (no copy per beam), which is what
    makes beam 20 affordable on a CPU.
    """

    def __init__(self, d_model: int, n_heads: int, ff_dim: int, dropout: float) -> None:
        super().__init__()
        self.n_heads = n_heads
        self.norm1 = nn.LayerNorm(d_model)
        self.qkv = nn.Linear(d_model, 3 * d_model)
        self.self_out = nn.Linear(d_model, d_model)
        self.norm2 = nn.LayerNorm(d_model)
        self.cross_q = nn.Linear(d_model, d_model)
        self.cross_kv = nn.Linear(d_model, 2 * d_model)
        self.cross_out = nn.Linear(d_model, d_model)
        self.norm3 = nn.LayerNorm(d_model)
        self.ff = nn.Sequential(nn.Linear(d_model, ff_dim), nn.GELU(), nn.Dropout(dropout), nn.Linear(ff_dim, d_model))
        self.drop = nn.Dropout(dropout)

    def _heads(self, x: Tensor) -> Tensor:
        """(N, L, d) -> (N, heads, L, d / heads)."""
        return x.unflatten(-1, (self.n_heads, -1)).transpose(1, 2)

    def memory_kv(self, enc: Tensor) -> tuple[Tensor, Tensor]:
        """enc (B, S, d) -> keys, values (B, heads, S, d / heads)."""
        k, v = self.cross_kv(enc).chunk(2, dim=-1)
        return self._heads(k), self._heads(v)

    def forward(self, x: Tensor, k: Tensor, v: Tensor, pad: Tensor) -> Tensor:
        """x (B, w, l, d): w beams of l tokens; pad (B, S) True where the encoder input is padding."""
        bsz, width, length, dim = x.shape
        p = self.drop.p if self.training else 0.0
        h = self.norm1(x).reshape(bsz * width, length, dim)
        q, kk, vv = (self._heads(t) for t in self.qkv(h).chunk(3, dim=-1))
        a = F.scaled_dot_product_attention(q, kk, vv, is_causal=True, dropout_p=p)  # (B*w, heads, l, dh)
        x = x + self.drop(self.self_out(a.transpose(1, 2).reshape(bsz, width, length, dim)))
        q = self._heads(self.cross_q(self.norm2(x)).reshape(bsz, width * length, dim))  # (B, heads, w*l, dh)
        mask = (~pad)[:, None, None, :]  # (B, 1, 1, S): True = attend
        a = F.scaled_dot_product_attention(q, k, v, attn_mask=mask, dropout_p=p)
        x = x + self.drop(self.cross_out(a.transpose(1, 2).reshape(bsz, width, length, dim)))
        return x + self.drop(self.ff(self.norm3(x)))

    def step(
        self, x: Tensor, k: Tensor, v: Tensor, pad: Tensor, cache: tuple[Tensor, Tensor] | None
    ) -> tuple[Tensor, tuple[Tensor, Tensor]]:
        """``forward`` for the newest position only, with the earlier positions' self-attention keys/values cached.

        x (B, w, d): the newest position of each beam; cache: keys, values (B, w, heads, l - 1, dh) of the
        earlier positions (None at the first) -> output (B, w, d) and the cache with this position appended.
        Causal attention makes this the same as ``forward``'s last position (beam search uses it; the
        earlier positions are not recomputed at every level).
        """
        bsz, width, dim = x.shape
        p = self.drop.p if self.training else 0.0
        q, kk, vv = (t.unflatten(-1, (self.n_heads, -1)).unsqueeze(3) for t in self.qkv(self.norm1(x)).chunk(3, dim=-1))
        if cache is not None:  # (B, w, heads, l, dh)
            kk = torch.cat([cache[0], kk], dim=3)
            vv = torch.cat([cache[1], vv], dim=3)
        a = F.scaled_dot_product_attention(q, kk, vv, dropout_p=p)  # (B, w, heads, 1, dh): sees every earlier position
        x = x + self.drop(self.self_out(a.reshape(bsz, width, dim)))
        q = self._heads(self.cross_q(self.norm2(x)))  # (B, heads, w, dh)
        a = F.scaled_dot_product_attention(q, k, v, attn_mask=(~pad)[:, None, None, :], dropout_p=p)
        x = x + self.drop(self.cross_out(a.transpose(1, 2).reshape(bsz, width, dim)))
        return x + self.drop(self.ff(self.norm3(x))), (kk, vv)


class GenerativeRecommender(nn.Module):
    """Encoder-decoder over semantic-id tokens; optional LION memory between encoder blocks."""

    def __init__(self, config: RecConfig, semantic_ids: SemanticIds) -> None:
        super().__init__()
        self.config = config
        c = config
        self.sizes = list(semantic_ids.sizes)
        self.depth = semantic_ids.depth
        offsets = [1]
        for s in self.sizes[:-1]:
            offsets.append(offsets[-1] + s)
        self.offsets = offsets
        vocab = offsets[-1] + self.sizes[-1] + 1  # + BOS
        self.bos = vocab - 1
        self.register_buffer("item_tokens", self._item_token_table(semantic_ids), persistent=False)  # (n_items + 1, depth)
        self.trie = semantic_ids.trie()

        self.tok_emb = nn.Embedding(vocab, c.d_model, padding_idx=0)
        self.enc_pos = nn.Embedding(c.window * self.depth, c.d_model)
        self.dec_pos = nn.Embedding(self.depth + 1, c.d_model)
        self.emb_drop = nn.Dropout(c.dropout)

        def enc_layer() -> nn.TransformerEncoderLayer:
            return nn.TransformerEncoderLayer(
                c.d_model, c.n_heads, c.ff_dim, c.dropout, batch_first=True, norm_first=True
            )

        mid = c.encoder_layers // 2 if c.memory_after is None else c.memory_after
        self.lower = nn.ModuleList(enc_layer() for _ in range(mid))
        self.upper = nn.ModuleList(enc_layer() for _ in range(c.encoder_layers - mid))
        self.enc_norm = nn.LayerNorm(c.d_model)
        self.decoder = nn.ModuleList(
            DecoderBlock(c.d_model, c.n_heads, c.ff_dim, c.dropout) for _ in range(c.decoder_layers)
        )
        self.dec_norm = nn.LayerNorm(c.d_model)

        if c.memory is not None:
            pkm = c.memory
            if pkm.query_dim != 2 * c.d_model:
                pkm = PKMConfig(**{**pkm.__dict__, "query_dim": 2 * c.d_model})
            self.memory: nn.Module = ProductKeyMemory(pkm)
            self.context = nn.Sequential(nn.Linear(c.d_model, c.d_model), nn.GELU(), nn.LayerNorm(c.d_model))
            self.consolidation_head: nn.Module = nn.Linear(c.d_model, sum(self.sizes))
            if c.memory_token:
                self.memory_marker = nn.Parameter(0.02 * torch.randn(c.d_model))
        else:
            self.memory = nn.Identity()
            self.context = nn.Identity()
            self.consolidation_head = nn.Identity()

    def _item_token_table(self, semantic_ids: SemanticIds) -> Tensor:
        codes = semantic_ids.tensor()
        return torch.where(codes >= 0, codes + torch.tensor(self.offsets), torch.zeros_like(codes))

    def set_semantic_ids(self, semantic_ids: SemanticIds) -> None:
        """Use new code paths for the items (e.g. items first seen after P0 placed by ``assign_new_items``).

        The code sizes must stay the same: they fix the vocabulary the model was built with.
        """
        if list(semantic_ids.sizes) != self.sizes or semantic_ids.n_items != self.item_tokens.shape[0] - 1:
            raise ConfigError(
                f"semantic ids of {semantic_ids.n_items} items with sizes {semantic_ids.sizes} do not fit a model "
                f"built for {self.item_tokens.shape[0] - 1} items with sizes {self.sizes}"
            )
        self.item_tokens = self._item_token_table(semantic_ids).to(self.item_tokens.device)
        self.trie = semantic_ids.trie()

    @property
    def has_memory(self) -> bool:
        """True for LION variants."""
        return isinstance(self.memory, ProductKeyMemory)

    # -- encoder --------------------------------------------------------
    def _tokens(self, items: Tensor) -> Tensor:
        """(B, W) item ids -> (B, W * depth) tokens (0 for padding)."""
        return self.item_tokens[items].flatten(1)

    def _item_summary(self, items: Tensor) -> Tensor:
        """(B, L) item ids -> (B, d) mean of item embeddings (sum of their code embeddings).

        Computed as token counts (B, vocab) times the embedding table: the
        same sum as looking up B * L * depth embeddings, but one small matmul
        whose backward is a matmul too (the lookup's backward is a slow
        scatter over every looked-up row).
        """
        tokens = self.item_tokens[items].flatten(1)  # (B, L * depth)
        counts = torch.zeros(items.shape[0], self.tok_emb.num_embeddings, dtype=self.tok_emb.weight.dtype,
                             device=items.device)
        counts.scatter_add_(1, tokens, torch.ones_like(tokens, dtype=counts.dtype))
        counts[:, 0] = 0.0  # token 0 = padding / no code: contributes nothing, as the padding_idx row
        n = (items > 0).sum(1, keepdim=True).to(counts.dtype).clamp_min(1.0)
        return (counts @ self.tok_emb.weight) / n

    def encode(self, batch: RecBatch, collect: list[Any] | None = None) -> tuple[Tensor, Tensor, Tensor | None]:
        """Encoder states (B, S, d), padding mask (B, S), and the memory-augmented pooled state (B, d) or None."""
        return self._encode(batch, collect)[:3]

    def _encode(
        self, batch: RecBatch, collect: list[Any] | None = None
    ) -> tuple[Tensor, Tensor, Tensor | None, Tensor | None]:
        """``encode``'s three results and the decoder input bias (B, d) (``memory_decoder``) or None."""
        window = _trim_leading_padding(batch.window)  # (B, W') without the columns that are padding in every row
        tokens = self._tokens(window)  # (B, S)
        pad = tokens == 0
        # positions stay those of the full window (histories are right-aligned), so trimming changes nothing
        full = batch.window.shape[1] * self.depth
        pos = torch.arange(full - tokens.shape[1], full, device=tokens.device)
        h = _dropout(self.tok_emb(tokens) + self.enc_pos(pos), self.emb_drop.p, self.training)
        for layer in self.lower:
            h = _encoder_block(layer, h, pad)
        pooled = None
        dec_bias = None
        if self.has_memory:
            source = batch.history if self.config.long_query else window
            ctx = self.context(self._item_summary(source))  # (B, d)
            if self.config.memory_query == "item-only":
                ctx = torch.zeros_like(ctx)  # the context half of the query contributes nothing
            # query = W [x; ctx]: the ctx half is projected once per example, not per token
            # histories are right-aligned, so the last ``depth`` tokens are the most recent item
            if self.config.memory_query in ("item", "item-only"):
                items = window if self.config.read_positions == "all" else window[:, -1:]  # (B, n)
                x = self.tok_emb(self.item_tokens[items]).sum(2)  # (B, n, d): each item's own embedding
                read = self.memory.read(x, context=ctx)  # one read per item
                read_pad = items == 0
                add = self.memory.dropout(read.output)  # (B, n, d)
                start = h.shape[1] - items.shape[1] * self.depth
                h = torch.cat([h[:, :start], h[:, start:] + add.repeat_interleave(self.depth, dim=1)], dim=1)
            else:
                start = h.shape[1] - self.depth if self.config.read_positions == "last" else 0
                read = self.memory.read(h[:, start:], context=ctx)
                read_pad = pad[:, start:]
                add = self.memory.dropout(read.output)
                h = torch.cat([h[:, :start], h[:, start:] + add], dim=1)
            if collect is not None:
                collect.append((read, read_pad))
            mean_read = None
            if self.config.consolidation_pool == "read" or self.config.memory_decoder or self.config.memory_token:
                w = (~read_pad).unsqueeze(-1).to(add.dtype)
                mean_read = (add * w).sum(1) / w.sum(1).clamp_min(1.0)  # (B, d): mean over the read positions
            if self.config.consolidation_pool == "read":
                pooled = mean_read
            elif self.config.consolidation_pool == "last":
                # histories are right-aligned: the last ``depth`` tokens are the most recent item,
                # the one whose successor the memory has to recall for this user
                pooled = h[:, -self.depth :].mean(1)
            else:
                keep = (~pad).unsqueeze(-1).to(h.dtype)
                pooled = (h * keep).sum(1) / keep.sum(1).clamp_min(1.0)
            if self.config.memory_decoder:
                dec_bias = mean_read
            if self.config.memory_token:
                # the read as one more encoder token (never padding)
                h = torch.cat([h, (mean_read + self.memory_marker).unsqueeze(1)], dim=1)
                pad = torch.cat([pad, torch.zeros_like(pad[:, :1])], dim=1)
        for layer in self.upper:
            h = _encoder_block(layer, h, pad)
        return self.enc_norm(h), pad, pooled, dec_bias

    # -- decoder --------------------------------------------------------
    def memory_kv(self, enc: Tensor) -> list[tuple[Tensor, Tensor]]:
        """Cross-attention keys and values of every decoder block, computed once per batch."""
        return [block.memory_kv(enc) for block in self.decoder]

    def decode_logits(
        self, kv: list[tuple[Tensor, Tensor]], pad: Tensor, prefix: Tensor, bias: Tensor | None = None
    ) -> Tensor:
        """prefix (B, w, l) code tokens (BOS first), w beams per example -> logits (B, w, l, vocab).

        ``bias`` (B, d), if given, is added to every input position (``memory_decoder``).
        """
        pos = torch.arange(prefix.shape[-1], device=prefix.device)
        x = self.tok_emb(prefix) + self.dec_pos(pos)
        if bias is not None:
            x = x + bias[:, None, None, :]
        for block, (k, v) in zip(self.decoder, kv, strict=True):
            x = block(x, k, v, pad)
        return self.dec_norm(x) @ self.tok_emb.weight.T

    def decode_step(
        self,
        kv: list[tuple[Tensor, Tensor]],
        pad: Tensor,
        tokens: Tensor,
        position: int,
        caches: list[tuple[Tensor, Tensor]] | None = None,
        bias: Tensor | None = None,
    ) -> tuple[Tensor, list[tuple[Tensor, Tensor]]]:
        """One incremental decoding step: tokens (B, w) at ``position`` (BOS at 0) -> logits (B, w, vocab), caches.

        The same logits as ``decode_logits(kv, pad, prefix, bias)[:, :, -1]`` for the prefix whose last token
        is ``tokens``, given the caches that the earlier steps returned (reordered along with the beams).
        """
        x = self.tok_emb(tokens) + self.dec_pos.weight[position]
        if bias is not None:
            x = x + bias[:, None, :]
        new: list[tuple[Tensor, Tensor]] = []
        for i, (block, (k, v)) in enumerate(zip(self.decoder, kv, strict=True)):
            x, cache = block.step(x, k, v, pad, None if caches is None else caches[i])
            new.append(cache)
        return self.dec_norm(x) @ self.tok_emb.weight.T, new

    def level_logits(self, logits: Tensor, level: int) -> Tensor:
        """The slice of the vocab that holds codes of ``level``."""
        start = self.offsets[level]
        return logits[..., start : start + self.sizes[level]]

    def forward(self, batch: RecBatch) -> dict[str, Tensor]:
        """Read: losses of a batch (``loss`` = recommendation + weighted consolidation)."""
        enc, pad, pooled, dec_bias = self._encode(batch)
        target_tokens = self.item_tokens[batch.target]  # (B, depth)
        bos = torch.full_like(target_tokens[:, :1], self.bos)
        prefix = torch.cat([bos, target_tokens[:, :-1]], dim=1).unsqueeze(1)  # (B, 1, depth)
        logits = self.decode_logits(self.memory_kv(enc), pad, prefix, dec_bias)[:, 0]  # (B, depth, vocab)
        codes = target_tokens - torch.tensor(self.offsets, device=target_tokens.device)
        ls = self.config.label_smoothing if self.training else 0.0
        rec = torch.stack(
            [F.cross_entropy(self.level_logits(logits[:, lv], lv), codes[:, lv], label_smoothing=ls) for lv in range(self.depth)]
        ).mean()
        out = {"rec": rec, "loss": rec}
        if pooled is not None:
            head = self.consolidation_head(pooled).split(self.sizes, dim=-1)
            cons = torch.stack([F.cross_entropy(head[lv], codes[:, lv], label_smoothing=ls) for lv in range(self.depth)]).mean()
            out["consolidation"] = cons
            if self.config.consolidation_weight > 0:
                out["loss"] = rec + self.config.consolidation_weight * cons
        return out

    @torch.no_grad()
    def recommend(self, batch: RecBatch, beam: int = 20) -> Tensor:
        """Top-``beam`` item ids (B, beam) by constrained beam search, best first; -1 where fewer are valid."""
        was_training = self.training
        self.eval()
        try:
            enc, pad, _, dec_bias = self._encode(batch)
            return constrained_beam_search(self, enc, pad, beam, bias=dec_bias)
        finally:
            self.train(was_training)

    # -- ParametricMemory -----------------------------------------------
    def consolidate(
        self,
        batches: Iterable[RecBatch],
        *,
        epochs: int = 1,
        on_step: Callable[[int], None] | None = None,
        **options: Any,
    ) -> ConsolidationReport:
        """Train on ``batches`` for ``epochs`` (a fresh optimizer per call: one period's fine-tuning).

        ``trainable="memory"`` (LION only) trains the memory layer, its
        long-history context net and the consolidation head, the backbone
        frozen; the default ``"all"`` trains every parameter.
        """
        batches = list(batches)
        trainable = options.get("trainable", "all")
        if trainable not in ("all", "memory"):
            raise ConfigError(f"trainable must be 'all' or 'memory', got {trainable!r}")
        if trainable == "memory" and not self.has_memory:
            raise ConfigError("trainable='memory' needs a model with a memory layer")
        frozen: list[nn.Parameter] = []
        if trainable == "memory":
            keep = {id(p) for m in (self.memory, self.context, self.consolidation_head) for p in m.parameters()}
            if self.config.memory_token:
                keep.add(id(self.memory_marker))
            frozen = [p for p in self.parameters() if id(p) not in keep and p.requires_grad]
            for p in frozen:
                p.requires_grad_(False)
        try:
            return self._train_loop(batches, epochs, on_step, options)
        finally:
            for p in frozen:
                p.requires_grad_(True)

    def _train_loop(
        self,
        batches: list[RecBatch],
        epochs: int,
        on_step: Callable[[int], None] | None,
        options: Mapping[str, Any],
    ) -> ConsolidationReport:
        optimizers = make_optimizers(self, options.get("lr", self.config.lr), options.get("value_lr", self.config.value_lr))
        self.train()
        steps, examples, seconds = 0, 0, 0.0
        sums: dict[str, float] = {}
        for _ in range(epochs):
            order = torch.randperm(len(batches)).tolist()
            for i in order:
                batch = batches[i]
                start = time.perf_counter()
                for opt in optimizers:
                    opt.zero_grad(set_to_none=True)
                out = self(batch)
                out["loss"].backward()
                if self.config.grad_clip > 0:
                    dense = [p for p in self.parameters() if p.grad is not None and not p.grad.is_sparse]
                    torch.nn.utils.clip_grad_norm_(dense, self.config.grad_clip)
                for opt in optimizers:
                    opt.step()
                seconds += time.perf_counter() - start
                steps += 1
                examples += len(batch)
                for key, value in out.items():
                    sums[key] = sums.get(key, 0.0) + float(value.detach())
                if on_step is not None:
                    on_step(1)
        self.eval()
        return ConsolidationReport(steps, examples, seconds, {k: v / max(steps, 1) for k, v in sums.items()})

    def snapshot(self) -> dict[str, Any]:
        """A deep copy of all weights."""
        return {k: v.detach().clone() for k, v in self.state_dict().items()}

    def restore(self, snapshot: Mapping[str, Any]) -> None:
        """Load a snapshot back exactly."""
        self.load_state_dict(copy.deepcopy(dict(snapshot)))

    @torch.no_grad()
    def slot_usage(
        self, batches: Iterable[RecBatch], groups: Iterable[Iterable[Hashable]] | None = None
    ) -> SlotUsage:
        """Memory slots activated by each example's tokens (read-weighted), per group label."""
        if not self.has_memory:
            raise ConfigError("slot usage needs a model with a memory layer")
        was_training = self.training
        self.eval()
        usage = SlotUsage(self.memory.config.n_slots)
        group_lists = iter(groups) if groups is not None else None
        try:
            for batch in batches:
                collect: list[Any] = []
                self.encode(batch, collect)
                read, pad = collect[0]
                labels = list(next(group_lists)) if group_lists is not None else ["all"] * len(batch)
                for row, label in enumerate(labels):
                    keep = ~pad[row]
                    usage.add(label, read.slots[row][keep].flatten().tolist(), read.weights[row][keep].flatten().tolist())
        finally:
            self.train(was_training)
        return usage


def _trim_leading_padding(window: Tensor) -> Tensor:
    """(B, W) right-aligned item ids -> (B, W') without the leading columns that are padding in every row.

    The dropped columns are masked keys everywhere, so the encoder's outputs
    at the kept positions are the same; at least one column is kept.
    """
    filled = (window > 0).any(0).nonzero()
    lead = int(filled[0, 0]) if len(filled) else window.shape[1] - 1
    return window[:, lead:] if lead else window


def _dropout(x: Tensor, p: float, training: bool) -> Tensor:
    """Inverted dropout as ``F.dropout`` (zero with probability ``p``, scale the rest by 1 / (1 - p)).

    The mask is drawn with ``torch.rand``, which on a CPU is about twice as fast as the Bernoulli
    sampler ``F.dropout`` uses; the same distribution, another random stream.
    """
    if not training or p <= 0.0:
        return x
    return x * ((torch.rand_like(x) >= p).to(x.dtype) * (1.0 / (1.0 - p)))


def _encoder_block(layer: nn.TransformerEncoderLayer, x: Tensor, pad: Tensor) -> Tensor:
    """``layer(x, src_key_padding_mask=pad)`` for a pre-norm (``norm_first``) layer, the same math and weights.

    ``nn.MultiheadAttention`` with ``batch_first`` transposes and re-packs the
    projected q, k, v through strided copies whose backward (zero fills and
    copies of (3, S, B, d)) were the largest items of a profiled CPU training
    step (the measured step time fell by only 2-6% without them); here
    q, k, v are one (B, S, 3, heads, dh) view. Without attention dropout
    (evaluation) attention is one ``scaled_dot_product_attention`` call; with
    it (training) the softmax is written out so that the dropout mask comes
    from ``_dropout`` (the fused kernel's dropout path costs more than the
    attention itself on a CPU). Dropouts are the layer's, drawn by ``_dropout``.
    """
    attn = layer.self_attn
    bsz, length, dim = x.shape
    h = layer.norm1(x)
    qkv = F.linear(h, attn.in_proj_weight, attn.in_proj_bias).view(bsz, length, 3, attn.num_heads, -1)
    q, k, v = qkv.permute(2, 0, 3, 1, 4).unbind(0)  # each (B, heads, S, dh)
    p_attn = attn.dropout if layer.training else 0.0
    if p_attn > 0.0:
        scores = (q @ k.transpose(-1, -2)) * q.shape[-1] ** -0.5  # (B, heads, S, S)
        scores = scores.masked_fill(pad[:, None, None, :], float("-inf"))
        a = _dropout(torch.softmax(scores, dim=-1), p_attn, True) @ v
    else:
        a = F.scaled_dot_product_attention(q, k, v, attn_mask=(~pad)[:, None, None, :])
    x = x + _dropout(attn.out_proj(a.transpose(1, 2).reshape(bsz, length, dim)), layer.dropout1.p, layer.training)
    ff = layer.linear2(_dropout(layer.activation(layer.linear1(layer.norm2(x))), layer.dropout.p, layer.training))
    return x + _dropout(ff, layer.dropout2.p, layer.training)
