"""``memkit worldshift run``: the CDA benchmark from the command line (table, JSON, plot)."""

from __future__ import annotations

import argparse
import json
import math
import os
from pathlib import Path
from typing import Any

from memkit.errors import ConfigError

from evals.worldshift.benchmark import DEFAULT_METHODS, METHODS, BenchmarkSettings, run_benchmark
from evals.worldshift.worlds_index import DEFAULT_FAMILY, load_named_world

__all__ = ["add_run_parser", "render_table", "result_line", "plot_iou"]


def add_run_parser(sub: argparse._SubParsersAction) -> None:
    """Add ``run`` to the ``worldshift`` group."""
    r = sub.add_parser("run", help="run the CDA benchmark over a world family (default ews-A ews-B ews-C ews-D)")
    r.add_argument("--worlds", nargs="+", default=list(DEFAULT_FAMILY), help="world files or built-in names, in family order")
    # options are checked in _run (ConfigError: one line, exit 2) rather than by argparse (usage dump)
    r.add_argument("--access", default="blind", help="blind (default), listing or definitions")
    r.add_argument("--budget", default="300", help="platform writes per world (default 300)")
    r.add_argument("--methods", default=",".join(DEFAULT_METHODS), help=f"comma-separated, of {', '.join(METHODS)}")
    r.add_argument("--seeds", default="1", help="number of seeds (default 1)")
    r.add_argument("--checkpoint-every", default="10", help="score the model every N writes (for writes-to-IoU-0.95; default 10)")
    r.add_argument("--json", dest="json_path", help="write all results to this JSON file")
    r.add_argument("--plot", dest="plot_path", help="draw IoU per world and method to this PNG")
    r.add_argument("--store", dest="store_path", help="SQLite file where every learned model is saved per method/seed/world")
    r.set_defaults(func=_run)


def _llm_factory(methods: list[str]):
    if "llm" not in methods:
        return None
    missing = [v for v in ("MEMKIT_LLM_BASE_URL", "MEMKIT_LLM_MODEL") if not os.environ.get(v)]
    if missing:
        raise ConfigError(f"method 'llm' needs an endpoint: set {', '.join(missing)} (and MEMKIT_LLM_API_KEY)")
    try:
        from agents.cda.llm_policy import LLMPolicy
        from memkit.llm import OpenAIChat
    except ImportError as exc:  # pragma: no cover - depends on the optional LLM parts being installed
        raise ConfigError(f"method 'llm' is not available: {exc}") from exc
    chat = OpenAIChat.from_env()
    return lambda: LLMPolicy(chat)


def _int(option: str, text: str) -> int:
    try:
        return int(text)
    except ValueError:
        raise ConfigError(f"{option} needs a whole number, got {text!r}") from None


def _run(args: argparse.Namespace) -> int:
    from rich.console import Console
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

    methods = [m.strip() for m in args.methods.split(",") if m.strip()]
    settings = BenchmarkSettings(worlds=list(args.worlds), access=args.access, budget=_int("--budget", args.budget),
                                 methods=methods, seeds=_int("--seeds", args.seeds),
                                 checkpoint_every=_int("--checkpoint-every", args.checkpoint_every))
    settings.validate()
    worlds = [load_named_world(w) for w in args.worlds]
    factory = _llm_factory(methods)
    store = None
    if args.store_path:
        from stores.rule_store import SQLiteRuleStore

        store = SQLiteRuleStore(args.store_path, worlds[0].schema)
    console = Console(width=max(Console().width, 150))
    console.print(f"[bold]EnterpriseWorldShift[/bold]: worlds {' -> '.join(w.name for w in worlds)}, access {args.access}, "
                  f"budget {args.budget} writes/world, methods {', '.join(methods)}, seeds {args.seeds}")
    with Progress(TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(), TimeElapsedColumn(),
                  console=console, transient=True) as progress:
        tasks: dict[str, Any] = {}

        def on_progress(label: str, done: int, total: int) -> None:
            if label not in tasks:
                tasks[label] = progress.add_task(label, total=total)
            progress.update(tasks[label], completed=done)

        def on_result(row: dict[str, Any]) -> None:
            # printed above the bars, and in a log where a terminal's bars do not show: a run of
            # several families and seeds can take an hour
            progress.console.print(result_line(row))

        results = run_benchmark(settings, worlds, progress=on_progress, on_result=on_result, store=store,
                                llm_policy_factory=factory)
    console.print(render_table(results))
    if args.json_path:
        Path(args.json_path).parent.mkdir(parents=True, exist_ok=True)
        Path(args.json_path).write_text(json.dumps(results, indent=2))
        console.print(f"wrote {args.json_path}")
    if args.plot_path:
        plot_iou(results, args.plot_path)
        console.print(f"wrote {args.plot_path}")
    if store is not None:
        store.close()
    return 0


def result_line(row: dict[str, Any]) -> str:
    """One line for a finished (method, seed, world): its scores, writes and time."""
    retired = row.get("deleted_rule_retired")
    tail = "" if retired is None else f", deleted rule {'retired' if retired else 'NOT retired'}"
    return (f"{row['method']} {row['world']} seed {row['seed']}: IoU {row['iou']:.3f} (precision {row['precision']:.3f}, "
            f"recall {row['recall']:.3f}), rules {row['rules_recovered']}/{row['rules_true']}, {row['writes']} writes, "
            f"{row['seconds']:.1f} s{tail}")


def _pm(mean: float, std: float, fmt: str = "{:.3f}") -> str:
    if isinstance(mean, float) and math.isnan(mean):
        return "-"
    text = fmt.format(mean)
    return text + (f" ±{fmt.format(std)}" if std else "")


def _num(value: float) -> str:
    return f"{value:.0f}" if float(value).is_integer() else f"{value:.1f}"


def render_table(results: dict[str, Any]):
    """The results table: one row per method and world, mean ± std over seeds."""
    from rich.table import Table

    table = Table(title="EnterpriseWorldShift: side-effect prediction after discovery (mean over tests; ± std over seeds)")
    for col in ("method", "world", "precision", "recall", "IoU", "rules", "deleted retired", "writes", "writes→IoU .95", "reads", "seconds"):
        table.add_column(col, justify="right" if col not in ("method", "world") else "left")
    for s in results["summary"]:
        reach = "-" if s["writes_to_iou_95"] is None else f"{s['writes_to_iou_95']:.0f} ({s['reached_95']})"
        if s["reached_95"] and s["writes_to_iou_95"] is None:
            reach = f"never (0/{s['seeds']})"
        table.add_row(
            s["method"], s["world"], _pm(s["precision"], s["precision_std"]), _pm(s["recall"], s["recall_std"]),
            _pm(s["iou"], s["iou_std"]), f"{_num(s['rules_recovered'])}/{s['rules_true']}" + (f" ({s['rules_probed']} probed)" if s["rules_probed"] != s["rules_true"] else ""), s["deleted_rule_retired"] or "-",
            f"{s['writes']:.0f}", reach, f"{s['reads']:.0f}", f"{s['seconds']:.1f}",
        )
    return table


def plot_iou(results: dict[str, Any], path: str) -> None:
    """Grouped bars: IoU per world, one bar per method (mean over seeds, std as error bar)."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    summary = results["summary"]
    methods = list(dict.fromkeys(s["method"] for s in summary))
    worlds = list(dict.fromkeys(s["world"] for s in summary))
    width = 0.8 / max(len(methods), 1)
    fig, ax = plt.subplots(figsize=(max(6, 1.6 * len(worlds) + 2), 4))
    for i, method in enumerate(methods):
        vals = [next((s["iou"] for s in summary if s["method"] == method and s["world"] == w), 0.0) for w in worlds]
        errs = [next((s["iou_std"] for s in summary if s["method"] == method and s["world"] == w), 0.0) for w in worlds]
        xs = [j + i * width - 0.4 + width / 2 for j in range(len(worlds))]
        ax.bar(xs, vals, width, yerr=errs, label=method)
    ax.set_xticks(range(len(worlds)))
    ax.set_xticklabels(worlds)
    ax.set_ylim(0, 1.05)
    ax.set_ylabel("IoU of predicted side effects")
    ax.axhline(0.95, color="grey", linestyle=":", linewidth=1)
    ax.legend(fontsize=8, ncol=3, loc="lower center")
    ax.set_title("EnterpriseWorldShift: IoU per world and method")
    Path(path).parent.mkdir(parents=True, exist_ok=True)
    fig.tight_layout()
    fig.savefig(path, dpi=120)
    plt.close(fig)
