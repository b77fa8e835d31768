"""EPIG-Tree: gradient error at equal budget for uniform, entropy-based and EPIG rollout allocation.

Environments are clonable trees: depth ``D``, ``A`` actions per node, a tabular
softmax policy (random logits) and either dense rewards (a reward on every
edge) or sparse ones (1 at 3% of the leaves). The exact policy gradient at a
node is ``reach(s) * pi_s * (Q(s, .) - V(s))``, computed by dynamic programming.

One trial: 4 trajectories sampled from the root give the branch points (the
distinct nodes they visit). Every arm gets the same budget in environment
steps (a rollout from depth ``d`` costs ``D - d``): first 2 pilot rollouts per
branch point, then the rest allocated by the arm -- uniform, proportional to
the policy's entropy at the node, or EPIG (reach x score norm x pilot std of
the return / sqrt(cost)), integerised by largest remainder. Each branch point
then gets the leave-one-out REINFORCE estimate of its gradient from all its
rollouts; the error is measured against the exact gradient at those nodes
(relative MSE and cosine).
"""

from __future__ import annotations

import math
import time
from typing import Any

import numpy as np
import torch

from stores.parametric.objectives import epig_allocation, largest_remainder

from .common import ExperimentResult, Progress, fmt_ci, mean, no_progress

__all__ = ["run", "plot", "NAME", "Tree"]

NAME = "epig-tree"
ARMS = ("uniform", "entropy", "EPIG")
ENVS = {  # name -> (actions, depth, dense)
    "dense, 6 actions": (6, 4, True),
    "dense, 2 actions": (2, 8, True),
    "sparse, 6 actions": (6, 4, False),
    "sparse, 2 actions": (2, 8, False),
}
SKELETONS, PILOT, EXTRA_PER_POINT = 4, 2, 4


class Tree:
    """A clonable tree environment with a tabular softmax policy; nodes are (depth, index) with index < A**depth."""

    def __init__(self, actions: int, depth: int, dense: bool, rng: np.random.Generator) -> None:
        self.A, self.D = actions, depth
        self.probs = []
        self.rewards = []
        for d in range(depth):
            logits = rng.normal(0.0, 1.5, size=(actions**d, actions))
            p = np.exp(logits - logits.max(1, keepdims=True))
            self.probs.append(p / p.sum(1, keepdims=True))
            if dense:
                self.rewards.append(rng.normal(0.0, 1.0, size=(actions**d, actions)))
            else:
                self.rewards.append(np.zeros((actions**d, actions)))
        if not dense:
            leaves = self.rewards[-1].reshape(-1)
            k = max(1, int(round(0.03 * leaves.size)))
            leaves[rng.choice(leaves.size, size=k, replace=False)] = 1.0
        # exact values by backward dynamic programming: Q[d][i, a], V[d][i]
        self.Q: list[np.ndarray] = [np.zeros(0)] * depth
        self.V: list[np.ndarray] = [np.zeros(0)] * (depth + 1)
        self.V[depth] = np.zeros(actions**depth)
        for d in reversed(range(depth)):
            self.Q[d] = self.rewards[d] + self.V[d + 1].reshape(actions**d, actions)
            self.V[d] = (self.probs[d] * self.Q[d]).sum(1)

    def exact_grad(self, d: int, i: int, reach: float) -> np.ndarray:
        """The exact gradient of the root value with respect to the logits of node (d, i)."""
        p = self.probs[d][i]
        return reach * p * (self.Q[d][i] - self.V[d][i])

    def rollouts(self, d: int, i: int, n: int, rng: np.random.Generator) -> tuple[np.ndarray, np.ndarray]:
        """``n`` rollouts from node (d, i): the first actions ``(n,)`` and the returns from the node ``(n,)``."""
        idx = np.full(n, i)
        ret = np.zeros(n)
        first = np.zeros(n, dtype=int)
        for depth in range(d, self.D):
            p = self.probs[depth][idx]
            a = (rng.random((n, 1)) > np.cumsum(p, 1)).sum(1).clip(max=self.A - 1)
            if depth == d:
                first = a
            ret += self.rewards[depth][idx, a]
            idx = idx * self.A + a
        return first, ret


def _branch_points(tree: Tree, rng: np.random.Generator) -> list[tuple[int, int, float]]:
    points: dict[tuple[int, int], float] = {}
    for _ in range(SKELETONS):
        i, reach = 0, 1.0
        for d in range(tree.D):
            points[(d, i)] = reach
            p = tree.probs[d][i]
            a = int(rng.choice(tree.A, p=p))
            reach *= p[a]
            i = i * tree.A + a
    return [(d, i, r) for (d, i), r in points.items()]


def _estimate(tree: Tree, point: tuple[int, int, float], first: np.ndarray, ret: np.ndarray) -> np.ndarray:
    d, i, reach = point
    n = len(ret)
    p = tree.probs[d][i]
    base = (ret.sum() - ret) / (n - 1) if n > 1 else np.zeros(n)  # leave-one-out baseline
    score = np.eye(tree.A)[first] - p
    return reach * ((ret - base)[:, None] * score).mean(0)


def _trial(tree: Tree, rng: np.random.Generator) -> dict[str, tuple[float, float]]:
    points = _branch_points(tree, rng)
    cost = np.array([tree.D - d for d, _, _ in points], dtype=float)
    budget_steps = float((PILOT + EXTRA_PER_POINT) * cost.sum())
    pilots = [tree.rollouts(d, i, PILOT, rng) for d, i, _ in points]
    exact = np.concatenate([tree.exact_grad(d, i, r) for d, i, r in points])
    extra_steps = budget_steps - PILOT * cost.sum()
    entropy = np.array([-(tree.probs[d][i] * np.log(tree.probs[d][i] + 1e-12)).sum() for d, i, _ in points])
    reach = np.array([r for _, _, r in points])
    score_norm = np.array([math.sqrt(max(1.0 - float((tree.probs[d][i] ** 2).sum()), 0.0)) for d, i, _ in points])
    pilot_std = np.array([ret.std(ddof=1) for _, ret in pilots])
    out = {}
    for arm in ARMS:
        if arm == "uniform":
            w = np.ones(len(points))
        elif arm == "entropy":
            w = entropy
        else:
            w = reach * score_norm * np.maximum(pilot_std, 1e-6) / np.sqrt(cost)
        share = w / w.sum() if w.sum() > 0 else np.full(len(points), 1.0 / len(points))
        n_total = int(round(extra_steps / float((share * cost).sum())))  # the same step budget for every arm
        if arm == "EPIG":
            counts = epig_allocation(torch.tensor(reach), torch.tensor(score_norm),
                                     torch.tensor(np.maximum(pilot_std, 1e-6)), n_total, torch.tensor(cost)).numpy()
        else:
            counts = largest_remainder(torch.tensor(w), n_total).numpy()
        est = []
        for k, (d, i, r) in enumerate(points):
            first, ret = pilots[k]
            if counts[k]:
                f2, r2 = tree.rollouts(d, i, int(counts[k]), rng)
                first, ret = np.concatenate([first, f2]), np.concatenate([ret, r2])
            est.append(_estimate(tree, (d, i, r), first, ret))
        g = np.concatenate(est)
        rel_mse = float(((g - exact) ** 2).sum() / max((exact**2).sum(), 1e-30))
        cos = float(g @ exact / max(np.linalg.norm(g) * np.linalg.norm(exact), 1e-30))
        out[arm] = (rel_mse, cos)
    return out


def run(seeds: int = 3, quick: bool = False, progress: Progress = no_progress) -> ExperimentResult:
    """For each environment kind and seed, average gradient error over many trials per allocation arm."""
    t0 = time.perf_counter()
    trials = 8 if quick else 300
    metrics: dict[str, Any] = {}
    for env, (actions, depth, dense) in ENVS.items():
        per_arm: dict[str, dict[str, list[float]]] = {a: {"rel_mse": [], "cosine": []} for a in ARMS}
        for seed in range(seeds):
            progress(f"{NAME}: {env}, seed {seed}")
            rng = np.random.default_rng(seed)
            tree = Tree(actions, depth, dense, rng)
            results = [_trial(tree, rng) for _ in range(trials)]
            for arm in ARMS:
                per_arm[arm]["rel_mse"].append(mean([r[arm][0] for r in results]))
                per_arm[arm]["cosine"].append(mean([r[arm][1] for r in results]))
        metrics[env] = per_arm

    def ratio(env: str) -> float:  # EPIG's error over the best baseline's; < 1 means EPIG wins
        m = metrics[env]
        return mean(m["EPIG"]["rel_mse"]) / min(mean(m["uniform"]["rel_mse"]), mean(m["entropy"]["rel_mse"]))

    ratios = {env: ratio(env) for env in ENVS}
    win_env = "dense, 6 actions"
    reproduced = ratios[win_env] < 0.95 and all(ratios[e] > ratios[win_env] for e in ENVS if e != win_env)
    measured = "; ".join(
        f"{env}: rel. MSE " + "/".join(fmt_ci(metrics[env][a]["rel_mse"], 2) for a in ARMS)
        + f" (EPIG/best baseline {ratios[env]:.2f}), cosine " + "/".join(f"{mean(metrics[env][a]['cosine']):.2f}" for a in ARMS)
        for env in ENVS
    )
    return ExperimentResult(
        method=NAME,
        claim="at equal budget EPIG allocation lowers gradient error vs uniform and entropy-based allocation with "
        "dense reward and large action spaces, but not with sparse reward or small action spaces",
        baseline="uniform and entropy-based allocation at the same step budget (errors listed as uniform/entropy/EPIG)",
        measured=measured,
        reproduced=reproduced,
        seeds=seeds,
        metrics={"per_env": metrics, "epig_over_best_baseline": ratios},
        settings={"envs": {k: {"actions": a, "depth": d, "dense": dn} for k, (a, d, dn) in ENVS.items()},
                  "trials_per_seed": trials, "skeletons": SKELETONS, "pilot_per_point": PILOT,
                  "budget_steps": f"({PILOT}+{EXTRA_PER_POINT}) x sum over branch points of remaining depth",
                  "reproduced_if": "EPIG/best-baseline MSE ratio < 0.95 in dense 6-action trees and larger (a smaller "
                  "win or a loss) in every other environment"},
        seconds=time.perf_counter() - t0,
    )


def plot(result: ExperimentResult, ax: Any) -> None:
    """Relative gradient MSE per environment and allocation arm (log scale)."""
    per_env = result.metrics["per_env"]
    envs = list(per_env)
    width = 0.25
    for k, arm in enumerate(ARMS):
        ax.bar([x + (k - 1) * width for x in range(len(envs))], [mean(per_env[e][arm]["rel_mse"]) for e in envs], width, label=arm)
    ax.set_xticks(range(len(envs)))
    ax.set_xticklabels(envs, fontsize=7, rotation=15)
    ax.set_yscale("log")
    ax.set_title("EPIG-Tree: gradient error at equal budget")
    ax.set_ylabel("relative MSE")
    ax.legend(fontsize=7)
