"""Tables, JSON payload and plot of a ``memkit lion run``."""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Mapping, Sequence
from typing import Any

from rich.console import Console
from rich.table import Table

from evals.recsys.runner import MethodResult, Prepared, RunSettings

__all__ = ["build_payload", "average_over_periods", "paired_differences", "print_tables", "plot"]


def build_payload(
    settings: RunSettings,
    prepared: Prepared,
    results: Sequence[MethodResult],
    overlaps: list[dict[str, Any]],
    seconds: float,
) -> dict[str, Any]:
    """The JSON document: settings, per-period rows, averages, slot overlap, step times."""
    rows = [row for res in results for row in res.rows]
    base = next((r for r in results if r.method == "tiger"), None)
    step_time = [
        {
            "method": r.method,
            "train_steps": r.train_steps,
            "step_seconds": r.step_seconds,
            "ratio_to_tiger": (r.step_seconds / base.step_seconds) if base and base.step_seconds else None,
            "train_seconds": r.train_seconds,
            "eval_seconds": r.eval_seconds,
        }
        for r in results
    ]
    return {
        "settings": {
            **settings.model_dump(),
            "users": len(prepared.sequences),
            "items": prepared.n_items,
            "interactions": sum(len(s) for s in prepared.sequences.values()),
            "semantic_id_sizes": prepared.semantic_ids.sizes,
            "notes": prepared.notes,
            "periods": "per user, by position: 5 consecutive chunks (no timestamps)",
        },
        "results": rows,
        "average_p1_p4": average_over_periods(rows),
        "paired_vs_tiger": paired_differences(results, prepared.groups),
        "slot_overlap": overlaps,
        "step_time": step_time,
        "losses": {r.method: r.losses for r in results},
        "new_items_placed": {r.method: r.new_items for r in results},
        "yardsticks_recall@10": prepared.yardsticks,
        "seconds": seconds,
    }


def average_over_periods(rows: Sequence[dict[str, Any]]) -> list[dict[str, Any]]:
    """Mean of each metric over the evaluated periods, per (method, group); plain mean of period values."""
    acc: dict[tuple[str, str], list[dict[str, Any]]] = defaultdict(list)
    for row in rows:
        acc[(row["method"], row["group"])].append(row)
    out = []
    for (method, group), items in acc.items():
        entry: dict[str, Any] = {"method": method, "group": group, "periods": len(items)}
        for key in ("recall@10", "recall@20", "ndcg@10", "ndcg@20"):
            entry[key] = sum(r[key] for r in items) / len(items)
        entry["samples"] = sum(r["samples"] for r in items)
        out.append(entry)
    return out


def paired_differences(
    results: Sequence[MethodResult], groups: Mapping[int, Sequence[str]], ks: Sequence[int] = (10, 20)
) -> list[dict[str, Any]]:
    """Each method's Recall@k minus tiger's, example by example, averaged over the periods, with a standard error.

    Both methods predicted the same examples in the same order, so the
    difference is taken per example (hit minus hit: -1, 0 or 1), averaged per
    period and then over the periods as ``average_p1_p4`` does; its standard
    error is ``sqrt(sum_p var_p / n_p) / n_periods``. Pairing removes the
    examples both methods get right or wrong from the noise, so this is the
    yardstick for "is the difference larger than chance". One row per
    (method, group, k); none when tiger did not run.
    """
    base = next((r for r in results if r.method == "tiger"), None)
    if base is None or not base.hits:
        return []
    out: list[dict[str, Any]] = []
    for res in results:
        if res is base or [(p, u) for p, u, _ in res.hits] != [(p, u) for p, u, _ in base.hits]:
            continue
        labels = list(dict.fromkeys(g for _, u, _ in base.hits for g in groups[u]))
        for group in labels:
            for k in ks:
                per_period: dict[int, list[float]] = defaultdict(list)
                for (period, user, rank), (_, _, rank0) in zip(res.hits, base.hits, strict=True):
                    if group in groups[user]:
                        per_period[period].append(float(0 <= rank < k) - float(0 <= rank0 < k))
                n = len(per_period)
                means = [sum(d) / len(d) for d in per_period.values()]
                var = sum(
                    sum((x - m) ** 2 for x in d) / len(d) / len(d) for d, m in zip(per_period.values(), means, strict=True)
                )
                out.append({"method": res.method, "group": group, "k": k, "diff": sum(means) / n,
                            "se": var**0.5 / n, "samples": sum(len(d) for d in per_period.values())})
    return out


def print_tables(console: Console, payload: dict[str, Any]) -> None:
    """Per-period overall table, per-group averages with change vs tiger, slot overlap, step time."""
    data = payload["settings"]["data"]
    t = Table(title=f"{data}: all users, per period (sample-weighted)")
    for col in ("method", "period", "recall@10", "recall@20", "ndcg@10", "ndcg@20", "samples"):
        t.add_column(col, justify="right" if col != "method" else "left")
    for row in payload["results"]:
        if row["group"] == "all":
            t.add_row(row["method"], f"P{row['period']}", *(f"{row[k]:.4f}" for k in ("recall@10", "recall@20", "ndcg@10", "ndcg@20")), str(row["samples"]))
    console.print(t)

    avg = payload["average_p1_p4"]
    methods = list(dict.fromkeys(r["method"] for r in avg))
    groups = list(dict.fromkeys(r["group"] for r in avg))
    value = {(r["method"], r["group"]): r["recall@10"] for r in avg}
    paired = {(r["method"], r["group"]): r for r in payload.get("paired_vs_tiger", []) if r["k"] == 10}
    g = Table(title=f"{data}: Recall@10 averaged over P1-P4, per group (change vs tiger; paired difference +- one standard error)")
    g.add_column("group")
    for m in methods:
        g.add_column(m, justify="right")
    for group in groups:
        cells = []
        for m in methods:
            v = value.get((m, group))
            base = value.get(("tiger", group))
            cell = "" if v is None else f"{v:.4f}"
            if v is not None and base and m != "tiger":
                cell += f" ({(v - base) / base * 100:+.1f}%)"
                pair = paired.get((m, group))
                if pair is not None:
                    cell += f" {pair['diff']:+.4f}+-{pair['se']:.4f}"
            cells.append(cell)
        g.add_row(group, *cells)
    console.print(g)

    if payload["slot_overlap"]:
        s = Table(title="slot usage overlap on P4 (1 = same slots, 0 = disjoint; 'half' rows: same group, the control)")
        keys = [k for k in payload["slot_overlap"][0] if k != "method"]
        s.add_column("method")
        for k in keys:
            s.add_column(k)
        for row in payload["slot_overlap"]:
            s.add_row(row["method"], *(f"{row[k]:.3f}" if isinstance(row[k], float) else str(row[k]) for k in keys))
        console.print(s)

    st = Table(title="training step time (same backbone, same batches)")
    for col in ("method", "steps", "s/step", "ratio to tiger", "train s", "eval s"):
        st.add_column(col)
    for row in payload["step_time"]:
        ratio = row["ratio_to_tiger"]
        st.add_row(row["method"], str(row["train_steps"]), f"{row['step_seconds']:.4f}", "" if ratio is None else f"{ratio:.2f}x",
                   f"{row['train_seconds']:.0f}", f"{row['eval_seconds']:.0f}")
    console.print(st)
    console.print(f"total {payload['seconds']:.0f} s; " + " ".join(payload["settings"]["notes"][:1]))


def plot(payload: dict[str, Any], path: str) -> None:
    """Two panels: Recall@10 per period per method; Recall@10 averaged over P1-P4 per group."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, (left, right) = plt.subplots(1, 2, figsize=(12, 4.5))
    by_method: dict[str, list[tuple[int, float]]] = defaultdict(list)
    for row in payload["results"]:
        if row["group"] == "all":
            by_method[row["method"]].append((row["period"], row["recall@10"]))
    for method, points in by_method.items():
        points.sort()
        left.plot([f"P{p}" for p, _ in points], [v for _, v in points], marker="o", label=method)
    left.set_title(f"{payload['settings']['data']}: Recall@10 per period")
    left.set_ylabel("Recall@10")
    left.legend(fontsize=8)
    avg = payload["average_p1_p4"]
    methods = list(dict.fromkeys(r["method"] for r in avg))
    groups = list(dict.fromkeys(r["group"] for r in avg))
    value = {(r["method"], r["group"]): r["recall@10"] for r in avg}
    width = 0.8 / max(len(methods), 1)
    for i, m in enumerate(methods):
        xs = [j + i * width for j in range(len(groups))]
        right.bar(xs, [value.get((m, g), 0.0) for g in groups], width=width, label=m)
    right.set_xticks([j + 0.4 - width / 2 for j in range(len(groups))])
    right.set_xticklabels(groups, rotation=30, fontsize=8)
    right.set_title("Recall@10, mean over P1-P4, per group")
    right.legend(fontsize=8)
    fig.tight_layout()
    fig.savefig(path, dpi=120)
    plt.close(fig)
