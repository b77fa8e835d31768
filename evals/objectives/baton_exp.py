"""BATON: GRPO vs Bayesian step attribution vs trajectory-equal aggregation in a multi-step environment.

Environment: 8 tasks, each a fixed number of steps (2 to 6, so trajectories
differ in length); at every step the agent picks one of 3 actions and only
one is right; the episode succeeds when every step is right, and then the
environment's final feedback reads "success", else "failure". The policy is a
table of logits per (task, step) plus a feedback head that predicts the final
feedback from (task, step, action) -- the tiny stand-in for an LLM policy
scoring an observation -- trained by maximum likelihood on the outcomes seen.

Each iteration: 4 tasks x 8 rollouts, GRPO advantages (group-normalised
success). Arms: GRPO (token mean over the batch), +attribution (for every
executed step 4 alternative actions are sampled, not executed, and the feedback
head of the old policy scores the observed final feedback after each; the
per-trajectory normalised weights scale the advantage), +equal-trajectory
(token mean per trajectory, then equal weight per trajectory) and +both.
Measured: exact success probability of the learned policy over all tasks,
and wall time relative to GRPO, under Adam and under plain SGD (Adam's
per-entry scaling of a table policy largely cancels how trajectories are
weighted against each other, so the aggregation can only show under SGD).
"""

from __future__ import annotations

import time
from typing import Any

import torch

from stores.parametric.objectives import baton_policy_loss, baton_step_weights

from .common import ExperimentResult, Progress, fmt_ci, mean, no_progress

__all__ = ["run", "plot", "NAME"]

NAME = "baton"
TASKS, MAX_STEPS, ACTIONS = 8, 6, 3
GROUPS, GROUP_SIZE, ALTERNATIVES = 4, 8, 4
OPTIMIZERS = {"Adam": 0.1, "SGD": 2.0}  # name -> learning rate
ARMS = {"GRPO": (False, "token"), "+attribution": (True, "token"), "+equal-trajectory": (False, "trajectory"),
        "+both": (True, "trajectory")}


def _env(seed: int) -> tuple[torch.Tensor, torch.Tensor]:
    g = torch.Generator().manual_seed(seed)
    lengths = torch.tensor([2, 2, 3, 3, 4, 5, 6, 6])[torch.randperm(TASKS, generator=g)]
    correct = torch.randint(0, ACTIONS, (TASKS, MAX_STEPS), generator=g)
    return lengths, correct


def _success_prob(logits: torch.Tensor, lengths: torch.Tensor, correct: torch.Tensor) -> float:
    p = torch.softmax(logits, -1).gather(-1, correct[..., None]).squeeze(-1)  # (TASKS, MAX_STEPS)
    steps = torch.arange(MAX_STEPS)[None] < lengths[:, None]
    return float(torch.where(steps, p, torch.ones_like(p)).prod(1).mean())


def _log_p_outcome(success_logits: torch.Tensor, outcome: torch.Tensor) -> torch.Tensor:
    """log P(observed final feedback) from success logits ``(S, M)`` and outcomes ``(S,)`` in {0, 1}."""
    observed = outcome.bool()[:, None]
    return torch.where(observed, torch.nn.functional.logsigmoid(success_logits), torch.nn.functional.logsigmoid(-success_logits))


def _train(arm: str, seed: int, iterations: int, optimizer: str) -> dict[str, Any]:
    attribute, aggregation = ARMS[arm]
    lengths, correct = _env(seed)
    g = torch.Generator().manual_seed(100 + seed)
    policy = torch.zeros(TASKS, MAX_STEPS, ACTIONS, requires_grad=True)
    feedback = torch.zeros(TASKS, MAX_STEPS, ACTIONS, requires_grad=True)  # logit of P(final feedback = success)
    opt_cls = torch.optim.Adam if optimizer == "Adam" else torch.optim.SGD
    opt = opt_cls([policy, feedback], lr=OPTIMIZERS[optimizer])
    curve = []
    t0 = time.process_time()  # CPU time of this process: other jobs on the machine do not count
    for _ in range(iterations):
        tasks = torch.randperm(TASKS, generator=g)[:GROUPS]
        rows_task, rows_step, rows_action, rows_traj, rows_adv, rows_outcome = [], [], [], [], [], []
        traj = 0
        with torch.no_grad():
            probs = torch.softmax(policy, -1)
        for k in tasks.tolist():
            n = int(lengths[k])
            acts = torch.stack([torch.multinomial(probs[k, t], GROUP_SIZE, replacement=True, generator=g) for t in range(n)], 1)
            success = (acts == correct[k, :n]).all(1).float()  # (GROUP_SIZE,)
            adv = (success - success.mean()) / (success.std() + 1e-6) if GROUP_SIZE > 1 else success * 0
            for j in range(GROUP_SIZE):
                for t in range(n):
                    rows_task.append(k)
                    rows_step.append(t)
                    rows_action.append(int(acts[j, t]))
                    rows_traj.append(traj)
                    rows_adv.append(float(adv[j]))
                    rows_outcome.append(float(success[j]))
                traj += 1
        task_i, step_i, act_i = torch.tensor(rows_task), torch.tensor(rows_step), torch.tensor(rows_action)
        traj_i, adv_t, outcome = torch.tensor(rows_traj), torch.tensor(rows_adv), torch.tensor(rows_outcome)
        weights = None
        if attribute:
            with torch.no_grad():
                # alternatives: sampled from the old policy at the same step, never executed
                alt = torch.multinomial(probs[task_i, step_i], ALTERNATIVES, replacement=True, generator=g)
                fb = feedback[task_i, step_i]  # (S, ACTIONS) success logits of the old feedback head
                lp_obs = _log_p_outcome(fb.gather(1, act_i[:, None]), outcome).squeeze(1)  # (S,)
                lp_alt = _log_p_outcome(fb.gather(1, alt), outcome)  # (S, ALTERNATIVES)
            weights = baton_step_weights(lp_obs, lp_alt, torch.ones(len(rows_task)), traj_i)
        logp = torch.log_softmax(policy[task_i, step_i], -1).gather(1, act_i[:, None])  # (S, 1): one token per step
        loss = baton_policy_loss(logp, adv_t, torch.ones_like(logp), step_weights=weights, traj_index=traj_i,
                                 aggregation=aggregation)
        if attribute:
            fb_logit = feedback[task_i, step_i].gather(1, act_i[:, None]).squeeze(1)
            loss = loss + torch.nn.functional.binary_cross_entropy_with_logits(fb_logit, outcome)
        opt.zero_grad()
        loss.backward()
        opt.step()
        curve.append(_success_prob(policy.detach(), lengths, correct))
    return {"success": curve[-1], "curve": curve, "seconds": time.process_time() - t0}


def run(seeds: int = 3, quick: bool = False, progress: Progress = no_progress) -> ExperimentResult:
    """Train each arm under each optimizer for each seed; compare final success probability and wall time."""
    t0 = time.perf_counter()
    torch.set_num_threads(1)
    iterations = 15 if quick else 150
    metrics: dict[str, Any] = {}
    for optimizer in OPTIMIZERS:
        metrics[optimizer] = {}
        for arm in ARMS:
            runs = []
            for seed in range(seeds):
                progress(f"{NAME}: {optimizer}, {arm}, seed {seed}")
                runs.append(_train(arm, seed, iterations, optimizer))
            metrics[optimizer][arm] = {
                "success": [r["success"] for r in runs],
                "seconds": [r["seconds"] for r in runs],
                "mean_over_training": [mean(r["curve"]) for r in runs],
                "curve": [mean(c) for c in zip(*(r["curve"] for r in runs))],
            }

    def helps(optimizer: str, arm: str) -> bool:
        m = metrics[optimizer]
        return mean(m[arm]["success"]) > mean(m["GRPO"]["success"]) + 0.01

    verdicts = {opt: {arm: helps(opt, arm) for arm in ARMS if arm != "GRPO"} for opt in OPTIMIZERS}
    reproduced = all(all(v.values()) for v in verdicts.values())
    parts = []
    for optimizer, m in metrics.items():
        base_t = mean(m["GRPO"]["seconds"])
        parts.append(
            f"[{optimizer}] "
            + ", ".join(
                f"{arm} {fmt_ci(r['success'])} (x{mean(r['seconds']) / base_t:.2f} CPU time)" for arm, r in m.items()
            )
        )
    return ExperimentResult(
        method=NAME,
        claim="Bayesian step attribution and trajectory-equal aggregation each raise success over GRPO, "
        "together most, at a modest wall-time cost",
        baseline="GRPO (token mean): success "
        + ", ".join(f"{o} {mean(metrics[o]['GRPO']['success']):.3f}" for o in OPTIMIZERS),
        measured="final success probability: " + "; ".join(parts)
        + ". Improves on GRPO by > 0.01: "
        + "; ".join(f"{o}: " + ", ".join(f"{a} {'yes' if h else 'no'}" for a, h in v.items()) for o, v in verdicts.items()),
        reproduced=reproduced,
        seeds=seeds,
        metrics={"per_optimizer": metrics, "improves_on_grpo": verdicts},
        settings={"tasks": TASKS, "steps_per_task": "2-6", "actions": ACTIONS, "groups": GROUPS, "group_size": GROUP_SIZE,
                  "alternatives": ALTERNATIVES, "iterations": iterations, "optimizers_lr": OPTIMIZERS,
                  "policy": "table of logits per (task, step)",
                  "why_two_optimizers": "Adam rescales each table entry on its own, which largely cancels how "
                  "trajectories are weighted against each other; SGD keeps that weighting",
                  "reproduced_if": "every component (+attribution, +equal-trajectory, +both) beats GRPO by > 0.01 "
                  "final success under both optimizers"},
        seconds=time.perf_counter() - t0,
    )


def plot(result: ExperimentResult, ax: Any) -> None:
    """Exact success probability over training iterations, per optimizer and arm."""
    styles = {"Adam": "-", "SGD": "--"}
    for optimizer, per_arm in result.metrics["per_optimizer"].items():
        for k, arm in enumerate(ARMS):
            ax.plot(per_arm[arm]["curve"], styles.get(optimizer, ":"), color=f"C{k}", label=f"{arm} ({optimizer})")
    ax.set_title("BATON: success probability (solid Adam, dashed SGD)", fontsize=9)
    ax.set_xlabel("iteration")
    ax.set_ylabel("P(success), mean over tasks")
    ax.legend(fontsize=6)
