"""``memkit emr``: run the MedQA-style experiment and inspect experience libraries.

    memkit emr run --dataset pubmedqa [--data PATH] [--model knn|NAME] [--library DIR]
                   [--rounds 5] [--runs 3] [--limit N] [--mine-on A --eval-on B] [--json P] [--plot P]
    memkit emr library stats|show|export PATH [--out FILE] [--tier T] [--limit N]
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path
from typing import Any

from memkit.errors import ConfigError

__all__ = ["register"]


def register(subparsers: Any) -> None:
    """Add the ``emr`` group to the ``memkit`` parser."""
    emr = subparsers.add_parser("emr", help="experience library (EMR): mine, evaluate, inspect")
    sub = emr.add_subparsers(dest="emr_command", required=True)

    run = sub.add_parser("run", help="mine a library, then evaluate with and without it")
    run.add_argument("--dataset", help="data set for both mining and evaluation (pubmedqa, medqa, mmlu, medmcqa, mmlu_pro)")
    run.add_argument("--mine-on", help="data set to mine on (cross-dataset transfer)")
    run.add_argument("--eval-on", help="data set to evaluate on (cross-dataset transfer)")
    run.add_argument("--data", help="a file of the mining data set's format, instead of the bundled one")
    run.add_argument("--eval-data", help="a file of the evaluation data set's format")
    run.add_argument("--model", default="knn", help="'knn' (offline case-based answerer) or a chat model name")
    run.add_argument("--library", help="directory for the mined libraries (Chroma); default in memory")
    run.add_argument("--rounds", type=int, default=5, help="mining rounds (default 5)")
    run.add_argument("--runs", type=int, default=3, help="seeded runs (default 3)")
    run.add_argument("--limit", type=int, help="at most N mining and N evaluation questions")
    run.add_argument("--seed", type=int, default=0)
    run.add_argument("--threads", type=int, default=1, help="torch threads for embedding (default 1: fastest on a busy machine)")
    run.add_argument("--json", help="write results here")
    run.add_argument("--plot", help="draw accuracy with spread to this PNG")
    run.set_defaults(func=_run)

    lib = sub.add_parser("library", help="inspect a library directory (or http://HOST:PORT)")
    lib_sub = lib.add_subparsers(dest="library_command", required=True)
    for name, helptext in (("stats", "counts per tier and polarity"), ("show", "entries as a table"), ("export", "entries as JSONL")):
        p = lib_sub.add_parser(name, help=helptext)
        p.add_argument("path")
        if name == "show":
            p.add_argument("--tier", choices=["principle", "pattern", "case"])
            p.add_argument("--limit", type=int, default=20)
        if name == "export":
            p.add_argument("--out", required=True, help="JSONL file to write")
        p.set_defaults(func=_library)


def _run(args: argparse.Namespace) -> int:
    from rich.console import Console
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn
    from rich.table import Table

    from evals.medqa.runner import RunSettings, run_experiment
    from memkit.embeddings import SentenceTransformerEmbedder

    mine_on = args.mine_on or args.dataset
    eval_on = args.eval_on or args.dataset
    if not mine_on or not eval_on:
        raise ConfigError("give --dataset NAME, or both --mine-on A and --eval-on B")
    settings = RunSettings(
        mine_on=mine_on,
        eval_on=eval_on,
        data=args.data,
        eval_data=args.eval_data,
        model=args.model,
        library=args.library,
        rounds=args.rounds,
        runs=args.runs,
        limit=args.limit,
        seed=args.seed,
    )
    chat = None
    if args.model != "knn":
        import os

        from memkit.llm import OpenAIChat

        chat = OpenAIChat.from_env({**os.environ, "MEMKIT_LLM_MODEL": args.model})
    console = Console()
    embedder = SentenceTransformerEmbedder(num_threads=args.threads)
    with Progress(
        TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(), TimeElapsedColumn(), console=console
    ) as progress:
        tasks: dict[str, Any] = {}

        def report(label: str, done: int, total: int) -> None:
            if label not in tasks:
                tasks[label] = progress.add_task(label, total=total)
            progress.update(tasks[label], completed=done)

        out = run_experiment(settings, embedder, chat=chat, progress=report)
    table = Table(title=f"EMR: mined on {mine_on}, evaluated on {eval_on} ({args.model})")
    for col in ("dataset", "library", "accuracy", "runs", "questions", "s/question", "tokens/question"):
        table.add_column(col)
    for row in out["results"]:
        table.add_row(
            row["dataset"],
            row["library"],
            f"{row['accuracy_mean']:.3f} ± {row['accuracy_std']:.3f}",
            str(row["runs"]),
            str(row["questions"]),
            f"{row['seconds_per_question']:.3f}",
            f"{row['tokens_per_question']:.0f}",
        )
    console.print(table)
    for run in out["runs"]:
        console.print(
            f"run {run['run']}: library {run['library']}, mining accuracy per round "
            + ", ".join(f"{a:.3f}" for a in run["mining_accuracy_per_round"])
            + f", mining {run['mining_seconds']:.1f}s"
        )
    if args.json:
        path = Path(args.json)
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(json.dumps(out, indent=2))
        console.print(f"wrote {path}")
    if args.plot:
        _plot(out, Path(args.plot))
        console.print(f"wrote {args.plot}")
    return 0


def _plot(out: dict[str, Any], path: Path) -> None:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    rows = out["results"]
    fig, ax = plt.subplots(figsize=(4.5, 3.5))
    labels = [f"{r['dataset']}\n{r['library']}" for r in rows]
    ax.bar(labels, [r["accuracy_mean"] for r in rows], yerr=[r["accuracy_std"] for r in rows], capsize=6,
           color=["#999999" if r["library"] == "none" else "#3366cc" for r in rows])
    ax.set_ylabel(f"accuracy (mean ± std, {rows[0]['runs']} runs)")
    ax.set_ylim(0, 1)
    ax.set_title(f"EMR ({out['settings']['model']})")
    fig.tight_layout()
    path.parent.mkdir(parents=True, exist_ok=True)
    fig.savefig(path, dpi=120)
    plt.close(fig)


def _library(args: argparse.Namespace) -> int:
    from rich.console import Console
    from rich.table import Table

    from memkit.embeddings import SentenceTransformerEmbedder
    from memkit.experience import POLARITIES, TIERS, EntryFilter
    from stores.experience import open_library

    location = args.path
    if not str(location).startswith("http") and not Path(location).exists():
        raise ConfigError(f"no library at {location}")
    library = open_library(location, SentenceTransformerEmbedder(num_threads=1))
    console = Console()
    if args.library_command == "stats":
        table = Table(title=f"library {location}: {library.count()} entries")
        table.add_column("tier")
        for pol in POLARITIES:
            table.add_column(pol)
        table.add_column("mean support")
        for tier in TIERS:
            entries = library.list(EntryFilter(tiers=(tier,)))
            counts = [sum(1 for e in entries if e.polarity == pol) for pol in POLARITIES]
            support = sum(e.support for e in entries) / len(entries) if entries else 0.0
            table.add_row(tier, *map(str, counts), f"{support:.2f}")
        console.print(table)
    elif args.library_command == "show":
        where = EntryFilter(tiers=(args.tier,)) if args.tier else None
        table = Table(title=f"library {location}")
        for col in ("id", "tier", "polarity", "support", "specialties", "text"):
            table.add_column(col)
        for e in library.list(where, limit=args.limit):
            table.add_row(e.id[:12], e.tier, e.polarity, str(e.support), ",".join(e.specialties), e.text[:120])
        console.print(table)
    else:
        n = library.export_jsonl(args.out)
        console.print(f"wrote {n} entries to {args.out}")
    return 0
