"""Semantic EOS: a student that stops with one end token, a teacher that prefers another.

Vocabulary: 6 content tokens and two stop tokens, A (the student's) and B (the
teacher's). Both models are position-wise categorical tables over a length
budget of 16: a 4-token answer, then stop. The student ends answers with A and
almost never emits B; the teacher ends them with B and gives A a tiny
probability. On-policy, sampled-token reverse-KL distillation, three arms:

- per-token (no fix): only A ends a generation; every token scored by itself;
- stop-list only: A and B both end a generation, tokens still scored by themselves;
- semantic EOS: A and B both end it and are scored as one stop event (log-sum-exp).

Measured on the trained student: mean length, share of generations that hit
the length budget, and the probability of stopping right after the answer.
"""

from __future__ import annotations

import time
from typing import Any

import torch

from stores.parametric.objectives import gather_logprobs, sampled_token_reverse_kl, semantic_eos_logprobs

from .common import ExperimentResult, Progress, fmt_ci, mean, no_progress

__all__ = ["run", "plot", "NAME"]

NAME = "semantic-eos"
N_CONTENT, EOS_A, EOS_B = 6, 6, 7
V, BUDGET, ANSWER = 8, 16, 4
ARMS = ("per-token", "stop-list only", "semantic EOS")


def _tables(seed: int) -> tuple[torch.Tensor, torch.Tensor]:
    g = torch.Generator().manual_seed(seed)
    content = 0.5 * torch.randn(BUDGET, N_CONTENT, generator=g)
    student = torch.cat([content, torch.zeros(BUDGET, 2)], 1)
    teacher = torch.cat([content + 0.2 * torch.randn(BUDGET, N_CONTENT, generator=g), torch.zeros(BUDGET, 2)], 1)
    student[:ANSWER, EOS_A], student[:ANSWER, EOS_B] = -4.0, -8.0
    student[ANSWER:, EOS_A], student[ANSWER:, EOS_B] = 3.0, -6.0
    teacher[:ANSWER, EOS_A], teacher[:ANSWER, EOS_B] = -8.0, -4.0
    teacher[ANSWER:, EOS_A], teacher[ANSWER:, EOS_B] = -6.0, 3.0
    return student, teacher


@torch.no_grad()
def _generate(student: torch.Tensor, n: int, stops: list[int], g: torch.Generator) -> tuple[torch.Tensor, torch.Tensor, torch.Tensor]:
    """Tokens (n, BUDGET), loss mask (n, BUDGET) up to and including the stop token, lengths (n,)."""
    probs = torch.softmax(student, -1)  # (BUDGET, V)
    tokens = torch.stack([torch.multinomial(probs[t], n, replacement=True, generator=g) for t in range(BUDGET)], 1)
    is_stop = torch.isin(tokens, torch.tensor(stops))
    first = torch.where(is_stop.any(1), is_stop.float().argmax(1), torch.full((n,), BUDGET))
    lengths = torch.clamp(first + 1, max=BUDGET)  # tokens generated, the stop token included
    mask = (torch.arange(BUDGET)[None] < lengths[:, None]).float()
    return tokens, mask, first


def _train(arm: str, seed: int, steps: int, batch: int) -> dict[str, Any]:
    init, teacher = _tables(seed)
    student = init.clone().requires_grad_(True)
    opt = torch.optim.Adam([student], lr=0.05)
    g = torch.Generator().manual_seed(1000 + seed)
    stops = [EOS_A] if arm == "per-token" else [EOS_A, EOS_B]
    stop_curve = []
    for step in range(steps):
        tokens, mask, _ = _generate(student.detach(), batch, stops, g)
        s_logits = student[None].expand(batch, BUDGET, V)
        t_logits = teacher[None].expand(batch, BUDGET, V)
        if arm == "semantic EOS":
            s_lp = semantic_eos_logprobs(s_logits, tokens, [EOS_A, EOS_B])
            t_lp = semantic_eos_logprobs(t_logits, tokens, [EOS_A, EOS_B])
        else:
            s_lp, t_lp = gather_logprobs(s_logits, tokens), gather_logprobs(t_logits, tokens)
        loss = sampled_token_reverse_kl(s_lp, t_lp, mask)
        opt.zero_grad()
        loss.backward()
        opt.step()
        stop_curve.append(_stop_prob(student.detach(), stops))
    _, _, first = _generate(student.detach(), 4000, stops, g)
    length = torch.clamp(first + 1, max=BUDGET).float()
    return {
        "mean_length": float(length.mean()),
        "budget_rate": float((first >= BUDGET).float().mean()),
        "stop_prob": _stop_prob(student.detach(), stops),
        "stop_curve": stop_curve,
    }


def _stop_prob(student: torch.Tensor, stops: list[int]) -> float:
    """Probability that the generation ends right after the answer (position ANSWER)."""
    return float(torch.softmax(student[ANSWER], -1)[stops].sum())


def run(seeds: int = 3, quick: bool = False, progress: Progress = no_progress) -> ExperimentResult:
    """Distil with each arm for each seed; compare length, budget hits and stop probability."""
    t0 = time.perf_counter()
    torch.set_num_threads(1)
    steps, batch = (30, 32) if quick else (300, 64)
    metrics: dict[str, Any] = {}
    init_stop = _stop_prob(_tables(0)[0], [EOS_A, EOS_B])
    for arm in ARMS:
        runs = []
        for seed in range(seeds):
            progress(f"{NAME}: {arm}, seed {seed}")
            runs.append(_train(arm, seed, steps, batch))
        metrics[arm] = {k: [r[k] for r in runs] for k in ("mean_length", "budget_rate", "stop_prob")}
        metrics[arm]["stop_curve"] = [mean(c) for c in zip(*(r["stop_curve"] for r in runs))]
    base, fix, stop_list = metrics["per-token"], metrics["semantic EOS"], metrics["stop-list only"]
    teacher_stop = _stop_prob(_tables(0)[1], [EOS_A, EOS_B])
    reproduced = (
        mean(fix["stop_prob"]) >= 0.75 * init_stop
        and mean(stop_list["stop_prob"]) < 0.5 * mean(fix["stop_prob"])
        and mean(fix["budget_rate"]) < 0.5 * max(mean(base["budget_rate"]), 1e-9)
        and mean(base["mean_length"]) > mean(fix["mean_length"]) + 1.0
    )
    measured = "; ".join(
        f"{arm}: length {fmt_ci(m['mean_length'], 2)}, hit budget {fmt_ci(m['budget_rate'], 2)}, "
        f"stop prob after answer {fmt_ci(m['stop_prob'], 2)}"
        for arm, m in metrics.items()
    )
    return ExperimentResult(
        method=NAME,
        claim="scoring equivalent stop tokens as one event keeps the student stopping; per-token scoring teaches it "
        "not to stop (answers run to the length budget), and a stop list alone does not fix it",
        baseline=f"per-token: length {mean(base['mean_length']):.2f}, hit budget {mean(base['budget_rate']):.2f}; "
        f"stop-list only: length {mean(stop_list['mean_length']):.2f}",
        measured=measured + f" (initial stop prob {init_stop:.2f}, teacher's {teacher_stop:.2f})",
        reproduced=reproduced,
        seeds=seeds,
        metrics={**metrics, "initial_stop_prob": init_stop, "teacher_stop_prob": teacher_stop},
        settings={"vocab": V, "budget": BUDGET, "answer_tokens": ANSWER, "steps": steps, "batch": batch, "lr": 0.05,
                  "reproduced_if": "semantic-EOS stop prob >= 0.75 x the initial one, stop-list-only stop prob "
                  "< half of semantic EOS's, semantic-EOS budget-hit rate < half the per-token one, and per-token "
                  "answers > 1 token longer"},
        seconds=time.perf_counter() - t0,
    )


def plot(result: ExperimentResult, ax: Any) -> None:
    """Probability of stopping after the answer, per arm, over distillation steps."""
    for arm in ARMS:
        ax.plot(result.metrics[arm]["stop_curve"], label=arm)
    ax.set_title("semantic EOS: stop probability after the answer")
    ax.set_xlabel("step")
    ax.set_ylabel("P(stop)")
    ax.set_ylim(0, 1.02)
    ax.legend(fontsize=7)
