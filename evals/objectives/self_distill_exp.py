"""Privileged self-distillation on two-digit addition with a tiny autoregressive model.

Task: ``a + b`` with ``a, b`` in 0..49; the answer is two digit tokens (tens,
units). The model embeds the prompt digits, an optional reference in its
context (tens and units slots, each a digit or "none") and the previous answer
token, then an MLP predicts the next digit.

1. Base model: learns to solve from 300 problems without a reference, and to
   read a reference in its context from 1000 other problems (so that, like an
   LLM, it can use a solution it is shown): full answer, tens digit only, or a
   noisy answer (a random number 30% of the time).
2. On-policy distillation on 600 other problems: the student samples its answer
   without a reference; a frozen copy of the base model scores the sampled
   tokens (sampled-token reverse KL). Arms: no distillation; the matched
   no-reference control (same frozen teacher, no reference); and the teacher
   with a full, a tens-only or a noisy reference.
3. Accuracy (greedy, no reference) on the distillation problems and on 600
   held-out problems; the gain of each reference arm over the no-reference
   control, paired by seed, with a 95% t interval.
"""

from __future__ import annotations

import time
from typing import Any

import torch

from stores.parametric.objectives import gather_logprobs, privileged_self_distill_loss

from .common import ExperimentResult, Progress, ci95, fmt_ci, mean, no_progress

__all__ = ["run", "plot", "NAME"]

NAME = "self-distill"
NONE = 10  # the "no digit" token of the reference and previous-token slots
FORMS = ("full", "tens only", "noisy")
ARMS = ("no distillation", "no-reference control", *(f"reference: {f}" for f in FORMS))
H = 128


class _Adder(torch.nn.Module):
    def __init__(self) -> None:
        super().__init__()
        self.slots = torch.nn.ModuleList([torch.nn.Embedding(11, H) for _ in range(7)])  # a_t a_u b_t b_u r_t r_u prev
        self.pos = torch.nn.Embedding(2, H)
        self.mlp = torch.nn.Sequential(torch.nn.Tanh(), torch.nn.Linear(H, H), torch.nn.ReLU(), torch.nn.Linear(H, 10))

    def forward(self, x: torch.Tensor, pos: int) -> torch.Tensor:  # x (B, 7) token ids -> logits (B, 10)
        h = sum(emb(x[:, k]) for k, emb in enumerate(self.slots)) + self.pos.weight[pos]
        return self.mlp(h)


def _inputs(a: torch.Tensor, b: torch.Tensor, ref: torch.Tensor, prev: torch.Tensor) -> torch.Tensor:
    """ref (B, 2) digits or NONE; prev (B,) digit or NONE -> (B, 7)."""
    return torch.stack([a // 10, a % 10, b // 10, b % 10, ref[:, 0], ref[:, 1], prev], 1)


def _reference(a: torch.Tensor, b: torch.Tensor, form: str | None, g: torch.Generator) -> torch.Tensor:
    s = a + b
    n = len(a)
    if form is None:
        return torch.full((n, 2), NONE)
    if form == "noisy":
        wrong = torch.rand(n, generator=g) < 0.3
        s = torch.where(wrong, torch.randint(0, 99, (n,), generator=g), s)
    ref = torch.stack([s // 10, s % 10], 1)
    if form == "tens only":
        ref[:, 1] = NONE
    return ref


def _seq_logits(model: _Adder, a: torch.Tensor, b: torch.Tensor, ref: torch.Tensor, answer: torch.Tensor) -> torch.Tensor:
    """Teacher-forced logits (B, 2, 10) of the answer tokens ``answer`` (B, 2)."""
    first = model(_inputs(a, b, ref, torch.full_like(a, NONE)), 0)
    second = model(_inputs(a, b, ref, answer[:, 0]), 1)
    return torch.stack([first, second], 1)


@torch.no_grad()
def _generate(model: _Adder, a: torch.Tensor, b: torch.Tensor, g: torch.Generator | None) -> torch.Tensor:
    """Answers (B, 2) without a reference; greedy when ``g`` is None, else sampled."""
    ref = torch.full((len(a), 2), NONE)
    out = []
    prev = torch.full_like(a, NONE)
    for pos in range(2):
        logits = model(_inputs(a, b, ref, prev), pos)
        tok = logits.argmax(-1) if g is None else torch.multinomial(torch.softmax(logits, -1), 1, generator=g).squeeze(1)
        out.append(tok)
        prev = tok
    return torch.stack(out, 1)


def _accuracy(model: _Adder, a: torch.Tensor, b: torch.Tensor) -> float:
    ans = _generate(model, a, b, None)
    return float(((ans[:, 0] * 10 + ans[:, 1]) == a + b).float().mean())


def _split(seed: int) -> dict[str, tuple[torch.Tensor, torch.Tensor]]:
    g = torch.Generator().manual_seed(seed)
    perm = torch.randperm(2500, generator=g)
    a, b = perm // 50, perm % 50
    cuts = {"base": (0, 300), "distill": (300, 900), "heldout": (900, 1500), "reading": (1500, 2500)}
    return {k: (a[i:j], b[i:j]) for k, (i, j) in cuts.items()}


def _base_model(data: dict[str, tuple[torch.Tensor, torch.Tensor]], seed: int, steps: int) -> _Adder:
    torch.manual_seed(seed)
    g = torch.Generator().manual_seed(seed + 1)
    model = _Adder()
    opt = torch.optim.Adam(model.parameters(), lr=3e-3)
    a, b = data["base"]
    pool_a, pool_b = data["reading"]
    for _ in range(steps):
        # solving without a reference: only the small base set; reading a reference: fresh problems each step
        idx = torch.randint(0, len(pool_a), (256,), generator=g)
        batches = [(a, b, None)] + [(pool_a[idx], pool_b[idx], form) for form in FORMS]
        losses = []
        for aa, bb, form in batches:
            answer = torch.stack([(aa + bb) // 10, (aa + bb) % 10], 1)
            logits = _seq_logits(model, aa, bb, _reference(aa, bb, form, g), answer)
            losses.append(torch.nn.functional.cross_entropy(logits.reshape(-1, 10), answer.reshape(-1)))
        opt.zero_grad()
        torch.stack(losses).mean().backward()
        opt.step()
    return model


def _distill(base: _Adder, a: torch.Tensor, b: torch.Tensor, form: str | None, seed: int, steps: int, batch: int) -> _Adder:
    student = _Adder()
    student.load_state_dict(base.state_dict())
    teacher = base  # frozen: never stepped
    opt = torch.optim.Adam(student.parameters(), lr=1e-3)
    g = torch.Generator().manual_seed(seed + 7)
    for _ in range(steps):
        idx = torch.randint(0, len(a), (batch,), generator=g)
        aa, bb = a[idx], b[idx]
        answer = _generate(student, aa, bb, g)
        no_ref = torch.full((batch, 2), NONE)
        s_lp = gather_logprobs(_seq_logits(student, aa, bb, no_ref, answer), answer)
        with torch.no_grad():
            t_lp = gather_logprobs(_seq_logits(teacher, aa, bb, _reference(aa, bb, form, g), answer), answer)
        loss = privileged_self_distill_loss(s_lp, t_lp, torch.ones(batch, 2))
        opt.zero_grad()
        loss.backward()
        opt.step()
    return student


def run(seeds: int = 3, quick: bool = False, progress: Progress = no_progress) -> ExperimentResult:
    """For each seed: train a base model, distil it with every arm, measure accuracy without references."""
    t0 = time.perf_counter()
    torch.set_num_threads(1)
    base_steps, steps, batch = (30, 10, 32) if quick else (600, 300, 128)
    acc: dict[str, dict[str, list[float]]] = {arm: {"distill": [], "heldout": []} for arm in ARMS}
    base_ref_acc: list[float] = []
    for seed in range(seeds):
        data = _split(seed)
        progress(f"{NAME}: base model, seed {seed}")
        base = _base_model(data, seed, base_steps)
        with torch.no_grad():  # how well the base model reads a full reference (teacher quality)
            a, b = data["distill"]
            pred = _seq_logits(base, a, b, _reference(a, b, "full", torch.Generator()), torch.stack([(a + b) // 10, (a + b) % 10], 1)).argmax(-1)
            base_ref_acc.append(float(((pred[:, 0] * 10 + pred[:, 1]) == a + b).float().mean()))
        for arm in ARMS:
            progress(f"{NAME}: {arm}, seed {seed}")
            if arm == "no distillation":
                model = base
            else:
                form = None if arm == "no-reference control" else arm.removeprefix("reference: ")
                model = _distill(base, *data["distill"], form, seed, steps, batch)
            for split in ("distill", "heldout"):
                acc[arm][split].append(_accuracy(model, *data[split]))
    control = acc["no-reference control"]
    gains = {
        f: {split: [x - c for x, c in zip(acc[f"reference: {f}"][split], control[split])] for split in ("distill", "heldout")}
        for f in FORMS
    }
    full = gains["full"]["distill"]
    reproduced = mean(full) > 0 and (seeds < 2 or mean(full) - ci95(full) > 0)
    measured = (
        "accuracy without reference, distillation problems / held-out: "
        + ", ".join(f"{arm} {fmt_ci(acc[arm]['distill'])} / {fmt_ci(acc[arm]['heldout'])}" for arm in ARMS)
        + "; gain over the no-reference control (distill / held-out): "
        + ", ".join(f"{f} {fmt_ci(gains[f]['distill'])} / {fmt_ci(gains[f]['heldout'])}" for f in FORMS)
        + f"; base model with a full reference in context: {fmt_ci(base_ref_acc)}"
    )
    return ExperimentResult(
        method=NAME,
        claim="on-policy distillation from a frozen copy that sees a reference solution improves the student beyond "
        "the matched no-reference control",
        baseline=f"no-reference control: {fmt_ci(control['distill'])} on distillation problems "
        f"({fmt_ci(control['heldout'])} held-out); no distillation {fmt_ci(acc['no distillation']['distill'])}",
        measured=measured,
        reproduced=reproduced,
        seeds=seeds,
        metrics={"accuracy": acc, "gain_over_control": gains, "base_accuracy_with_full_reference": base_ref_acc},
        settings={"operands": "0..49", "base_problems": 300, "reading_problems": 1000, "distill_problems": 600, "heldout_problems": 600,
                  "base_steps": base_steps, "distill_steps": steps, "batch": batch, "noisy_reference_error": 0.3,
                  "reproduced_if": "full-reference gain over the control on the distillation problems > 0 with its "
                  "95% interval above 0"},
        seconds=time.perf_counter() - t0,
    )


def plot(result: ExperimentResult, ax: Any) -> None:
    """Accuracy per arm on distillation and held-out problems (mean over seeds)."""
    acc = result.metrics["accuracy"]
    xs = range(len(ARMS))
    ax.bar([x - 0.2 for x in xs], [mean(acc[a]["distill"]) for a in ARMS], 0.4, label="distillation problems")
    ax.bar([x + 0.2 for x in xs], [mean(acc[a]["heldout"]) for a in ARMS], 0.4, label="held-out")
    ax.set_xticks(list(xs))
    ax.set_xticklabels([a.replace("reference: ", "ref: ") for a in ARMS], fontsize=7, rotation=20)
    ax.set_ylabel("accuracy (greedy, no reference)")
    ax.set_title("privileged self-distillation")
    ax.legend(fontsize=7)
