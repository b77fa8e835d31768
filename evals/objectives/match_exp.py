"""MATCH on real BFCL calls: how gated and additive rewards rank controlled corruptions; curriculum vs baselines.

Part 1 (rewards). For every BFCL question in the simple, multiple, parallel
and parallel-multiple sets, the gold answer is turned into a correct call list
(first acceptable value of every argument) and then corrupted one way at a
time: wrong tool name (arguments kept), missing required key, extra key, wrong
value, extra (duplicated) call, broken JSON. Each variant is scored by the
gated MATCH reward and by an additive ToolRL-style reward (name Jaccard +
key Jaccard + value matches, normalised by the maximum, no gating). The
paper's claim: the gated reward never gives a wrong-tool call more than a
right-tool call with a wrong key or value; the additive one does.

Part 2 (curriculum). A simulated learner with skill ``s`` solves item ``i``
with probability ``sigmoid(2 (s - d_i))``, where the latent difficulty
``d_i`` grows with the item's number of calls and arguments; each round it
trains on a batch (4 rollouts each) and its skill grows by
``lr * mean 4 p (1 - p)``: practice at the edge of its ability teaches most.
Arms: the MATCH curriculum (mean-difficulty batch plus the top-k hardest,
refreshing only selected samples), a fixed threshold (random among samples
whose estimated pass rate is at least 0.5) and uniform random sampling.
"""

from __future__ import annotations

import copy
import json
import math
import random
import time
from pathlib import Path
from typing import Any

from memkit.errors import ConfigError, DataFormatError
from stores.parametric.objectives import GoldCall, MatchCurriculum, best_assignment, gold_from_bfcl, match_reward, parse_calls

from .common import ExperimentResult, Progress, fmt_ci, mean, no_progress

__all__ = ["run", "plot", "NAME", "load_bfcl", "additive_reward", "corruptions", "DEFAULT_DATA_DIR"]

NAME = "match"
CATEGORIES = ("simple_python", "multiple", "parallel", "parallel_multiple")
DEFAULT_DATA_DIR = Path(__file__).resolve().parents[2].parent / "shared" / "data" / "toolcalls"
KINDS = ("correct", "wrong tool", "missing key", "extra key", "wrong value", "extra call", "broken format")
RIGHT_TOOL_FLAWS = ("missing key", "extra key", "wrong value")
LEARNING_RATE = 0.04  # skill gained per round at the best possible difficulty


def load_bfcl(data_dir: Path = DEFAULT_DATA_DIR) -> list[dict[str, Any]]:
    """Items ``{id, category, functions: [names], gold: [GoldCall]}`` from the four BFCL question/answer file pairs."""
    if not data_dir.is_dir():
        raise ConfigError(f"BFCL data directory not found: {data_dir}")
    items = []
    for cat in CATEGORIES:
        q_path, a_path = data_dir / f"BFCL_v4_{cat}.json", data_dir / f"BFCL_v4_{cat}_answer.json"
        questions = _read_jsonl(q_path)
        answers = {a["id"]: a for a in _read_jsonl(a_path)}
        for q in questions:
            if q.get("id") not in answers:
                raise DataFormatError(f"question {q.get('id')!r} has no answer", path=str(a_path))
            items.append({
                "id": q["id"],
                "category": cat,
                "functions": [f["name"] for f in q["function"]],
                "gold": gold_from_bfcl(answers[q["id"]]["ground_truth"]),
            })
    return items


def _read_jsonl(path: Path) -> list[dict[str, Any]]:
    if not path.exists():
        raise ConfigError(f"BFCL file not found: {path}")
    rows = []
    for n, line in enumerate(path.read_text().splitlines(), 1):
        if line.strip():
            try:
                rows.append(json.loads(line))
            except json.JSONDecodeError as exc:
                raise DataFormatError(f"invalid JSON: {exc.msg}", path=str(path), line=n) from exc
    return rows


def _canonical(gold: list[GoldCall]) -> list[dict[str, Any]]:
    calls = []
    for g in gold:
        args = {}
        for key, ok in g.arguments.items():
            values = [v for v in ok if v != ""]
            if values:
                args[key] = copy.deepcopy(values[0])
        calls.append({"name": g.name, "arguments": args})
    return calls


def _wrong(value: Any) -> Any:
    if isinstance(value, bool):
        return not value
    if isinstance(value, (int, float)):
        return value * 2 + 7
    if isinstance(value, str):
        return value + "_wrong"
    if isinstance(value, list):
        return value + ["_wrong"]
    if isinstance(value, dict):
        return {**value, "_wrong": 1}
    return "_wrong"


def corruptions(item: dict[str, Any], other_names: list[str]) -> dict[str, str | list[dict[str, Any]]]:
    """The correct call list and each corruption of it (``None`` where one does not apply to the item)."""
    correct = _canonical(item["gold"])
    out: dict[str, Any] = {"correct": correct}
    first = correct[0]
    wrong_tool = copy.deepcopy(correct)
    offered = [n for n in item["functions"] if n not in {c["name"] for c in correct}]
    wrong_tool[0]["name"] = offered[0] if offered else next(n for n in other_names if n != first["name"])
    out["wrong tool"] = wrong_tool
    required = sorted(item["gold"][0].required)
    if required:
        missing = copy.deepcopy(correct)
        del missing[0]["arguments"][required[0]]
        out["missing key"] = missing
    else:
        out["missing key"] = None
    extra_key = copy.deepcopy(correct)
    extra_key[0]["arguments"]["unrequested_option"] = 1
    out["extra key"] = extra_key
    if first["arguments"]:
        wrong_value = copy.deepcopy(correct)
        key = sorted(first["arguments"])[0]
        wrong_value[0]["arguments"][key] = _wrong(first["arguments"][key])
        out["wrong value"] = wrong_value
    else:
        out["wrong value"] = None
    out["extra call"] = copy.deepcopy(correct) + [copy.deepcopy(first)]
    out["broken format"] = json.dumps(correct)[:-2]
    return out


def additive_reward(output: str | list[dict[str, Any]], gold: list[GoldCall]) -> float:
    """ToolRL-style additive correctness in [0, 1] (format is scored separately and not included).

    Name Jaccard over the sets of tool names, plus per matched call the key
    Jaccard and the count of acceptable values, divided by the maximum
    ``1 + #gold + sum #gold keys``; calls are matched by the best assignment of
    the key+value scores, names not required to agree (no gating).
    """
    calls = parse_calls(output)
    if calls is None:
        return 0.0
    from stores.parametric.objectives.match import _value_ok  # the same value comparison as MATCH

    names_p, names_g = {c.name for c in calls}, {g.name for g in gold}
    r_name = len(names_p & names_g) / len(names_p | names_g) if names_p | names_g else 1.0

    def pair(p, g) -> float:
        kp, kg = set(p.arguments), set(g.arguments)
        r_key = len(kp & kg) / len(kp | kg) if kp | kg else 1.0
        r_val = sum(1 for k in kp & kg if _value_ok(p.arguments[k], g.arguments[k]))
        return r_key + r_val

    total, _ = best_assignment([[pair(p, g) for g in gold] for p in calls]) if calls else (0.0, [])
    r_max = 1 + len(gold) + sum(len(g.arguments) for g in gold)
    return (r_name + total) / r_max


def _rank_rewards(items: list[dict[str, Any]]) -> dict[str, Any]:
    names = sorted({n for it in items for n in it["functions"]})
    per_kind: dict[str, dict[str, list[float]]] = {k: {"gated": [], "additive": []} for k in KINDS}
    violations = {"gated": 0, "additive": 0}
    compared = 0
    for it in items:
        variants = corruptions(it, names)
        scores = {}
        for kind, out in variants.items():
            if out is None:
                continue
            gated = match_reward(out, it["gold"]).correctness
            additive = additive_reward(out, it["gold"])
            per_kind[kind]["gated"].append(gated)
            per_kind[kind]["additive"].append(additive)
            scores[kind] = (gated, additive)
        flaws = [k for k in RIGHT_TOOL_FLAWS if k in scores]
        compared += 1
        for j, name in enumerate(("gated", "additive")):
            if any(scores["wrong tool"][j] > scores[k][j] for k in flaws):
                violations[name] += 1
    return {
        "mean_reward": {k: {r: mean(v) for r, v in d.items()} for k, d in per_kind.items()},
        "violations": violations,
        "items": compared,
        "correct_full_credit": mean([1.0 if s == 1.0 else 0.0 for s in per_kind["correct"]["gated"]]),
    }


def _sigmoid(x: float) -> float:
    return 1.0 / (1.0 + math.exp(-x))


def _simulate(arm: str, difficulty: list[float], seed: int, rounds: int, batch: int) -> dict[str, Any]:
    rng = random.Random(seed)
    n = len(difficulty)
    skill, lr, rollouts = -1.5, LEARNING_RATE, 4
    cur = MatchCurriculum(n, batch, top_k_hard=batch // 8, seed=seed)  # estimates shared by the adaptive arms
    curve = []
    for _ in range(rounds):
        if arm == "curriculum":
            chosen = cur.select()
        elif arm == "fixed threshold":
            pool = [i for i in range(n) if cur.difficulty[i] <= 0.5]
            chosen = rng.sample(pool, batch) if len(pool) >= batch else pool + rng.sample([i for i in range(n) if i not in set(pool)], batch - len(pool))
        else:
            chosen = rng.sample(range(n), batch)
        probs = [_sigmoid(2.0 * (skill - difficulty[i])) for i in chosen]
        rewards = [[1.0 if rng.random() < p else 0.0 for _ in range(rollouts)] for p in probs]
        cur.update(chosen, rewards)
        skill += lr * mean([4 * p * (1 - p) for p in probs])
        curve.append(mean([_sigmoid(2.0 * (skill - d)) for d in difficulty]))
    return {"final_success": curve[-1], "skill": skill, "curve": curve}


def _latent_difficulty(items: list[dict[str, Any]], seed: int) -> list[float]:
    rng = random.Random(seed)
    raw = [len(it["gold"]) + 0.3 * sum(len(g.arguments) for g in it["gold"]) + rng.gauss(0, 0.5) for it in items]
    order = sorted(range(len(raw)), key=raw.__getitem__)
    d = [0.0] * len(raw)
    for rank, i in enumerate(order):
        d[i] = -2.0 + 4.0 * rank / max(len(raw) - 1, 1)  # spread over [-2, 2] in logit units
    return d


def run(seeds: int = 3, quick: bool = False, progress: Progress = no_progress, data_dir: Path = DEFAULT_DATA_DIR) -> ExperimentResult:
    """Rank corruptions with both rewards on all BFCL items, then race the curriculum against its baselines."""
    t0 = time.perf_counter()
    items = load_bfcl(data_dir)
    if quick:
        items = [it for k, it in enumerate(items) if k % 10 == 0]
    progress(f"{NAME}: scoring {len(items)} BFCL items x {len(KINDS)} variants")
    ranking = _rank_rewards(items)
    rounds, batch = (20, 16) if quick else (100, 32)
    arms = ("curriculum", "fixed threshold", "random")
    sim: dict[str, Any] = {}
    for arm in arms:
        runs = []
        for seed in range(seeds):
            progress(f"{NAME}: simulated learner, {arm}, seed {seed}")
            runs.append(_simulate(arm, _latent_difficulty(items, seed), seed, rounds, batch))
        sim[arm] = {"final_success": [r["final_success"] for r in runs], "curve": [mean(c) for c in zip(*(r["curve"] for r in runs))]}
    v = ranking["violations"]
    cur_s = mean(sim["curriculum"]["final_success"])
    reproduced = v["gated"] == 0 and v["additive"] > 0 and cur_s > max(mean(sim[a]["final_success"]) for a in arms[1:])
    mr = ranking["mean_reward"]
    measured = (
        f"wrong tool outranks a right tool with a flawed key/value on {v['gated']}/{ranking['items']} items (gated) vs "
        f"{v['additive']}/{ranking['items']} (additive); mean reward gated/additive: "
        + ", ".join(f"{k} {mr[k]['gated']:.2f}/{mr[k]['additive']:.2f}" for k in KINDS)
        + "; final pass rate of the simulated learner: "
        + ", ".join(f"{a} {fmt_ci(sim[a]['final_success'])}" for a in arms)
    )
    return ExperimentResult(
        method=NAME,
        claim="gated hierarchical reward never pays a wrong-tool call more than a right-tool one (additive rewards do); "
        "the model-aware curriculum trains faster than fixed-threshold or random sampling",
        baseline=f"additive ToolRL-style reward: {v['additive']} ranking violations; fixed threshold "
        f"{mean(sim['fixed threshold']['final_success']):.3f}, random {mean(sim['random']['final_success']):.3f} final pass rate",
        measured=measured,
        reproduced=reproduced,
        seeds=seeds,
        metrics={"ranking": ranking, "curriculum": sim},
        settings={"data_dir": str(data_dir), "items": len(items), "categories": list(CATEGORIES), "rounds": rounds,
                  "batch": batch, "rollouts": 4, "top_k_hard": batch // 8, "learner_lr": LEARNING_RATE,
                  "note": "the simulated learner gains most at p=0.5 by construction (4p(1-p)); part 2 checks the curriculum tracks that edge, not that real models learn this way",
                  "reproduced_if": "0 gated violations, > 0 additive ones, and curriculum's final pass rate above both baselines"},
        seconds=time.perf_counter() - t0,
    )


def plot(result: ExperimentResult, ax: Any) -> None:
    """Simulated learner's pass rate over rounds per sampling arm."""
    for arm, m in result.metrics["curriculum"].items():
        ax.plot(m["curve"], label=arm)
    v = result.metrics["ranking"]["violations"]
    ax.set_title(f"MATCH: curriculum (ranking violations gated {v['gated']}, additive {v['additive']})", fontsize=9)
    ax.set_xlabel("round")
    ax.set_ylabel("expected pass rate over all items")
    ax.legend(fontsize=7)
