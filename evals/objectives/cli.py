"""``memkit objectives run NAME``: run the learning-objective experiments and report claim vs measurement."""

from __future__ import annotations

import argparse
import importlib
import json
from pathlib import Path
from typing import Any

from memkit.errors import ConfigError

from .common import ExperimentResult

__all__ = ["register", "EXPERIMENTS", "run_experiments", "render_table", "write_json", "write_plot"]

# experiment name -> module with run(seeds, quick, progress) and plot(result, ax); imported lazily
EXPERIMENTS: dict[str, str] = {
    "score-centering": "evals.objectives.score_centering_exp",
    "semantic-eos": "evals.objectives.semantic_eos_exp",
    "baton": "evals.objectives.baton_exp",
    "epig-tree": "evals.objectives.epig_tree_exp",
    "match": "evals.objectives.match_exp",
    "self-distill": "evals.objectives.self_distill_exp",
}


def register(subparsers: argparse._SubParsersAction) -> None:
    """Add the ``objectives`` group to the ``memkit`` parser."""
    p = subparsers.add_parser("objectives", help="learning objectives: run each method's CPU experiment")
    sub = p.add_subparsers(dest="command", metavar="{run}")
    sub.required = True
    r = sub.add_parser("run", help="run one experiment (or all) and print claim, measurement and verdict")
    r.add_argument("name", choices=[*EXPERIMENTS, "all"], help="experiment to run")
    r.add_argument("--seeds", type=int, default=3, help="seeds per arm (default 3)")
    r.add_argument("--quick", action="store_true", help="tiny settings for a smoke run (numbers are not meaningful)")
    r.add_argument("--json", dest="json_path", help="write settings and results to this JSON file")
    r.add_argument("--plot", dest="plot_path", help="draw a PNG with one panel per experiment")
    r.set_defaults(func=_run)


def run_experiments(names: list[str], seeds: int, quick: bool = False) -> list[tuple[ExperimentResult, Any]]:
    """Run the named experiments with a rich progress line; return (result, module) pairs."""
    from rich.progress import Progress, SpinnerColumn, TextColumn, TimeElapsedColumn

    out = []
    with Progress(SpinnerColumn(), TextColumn("{task.description}"), TimeElapsedColumn(), transient=True) as bar:
        task = bar.add_task("starting", total=None)
        for name in names:
            module = importlib.import_module(EXPERIMENTS[name])
            result = module.run(seeds=seeds, quick=quick, progress=lambda text: bar.update(task, description=text))
            out.append((result, module))
    return out


def render_table(results: list[ExperimentResult]) -> Any:
    """A rich table: method, the paper's claim, its baseline, our measurement, reproduced or not."""
    from rich.table import Table

    table = Table(title="learning objectives: paper claim vs our CPU experiment", show_lines=True)
    for col, kw in (("method", {}), ("claim", {"ratio": 3}), ("baseline", {"ratio": 2}), ("measured", {"ratio": 4}),
                    ("reproduced", {}), ("seeds", {}), ("time", {})):
        table.add_column(col, **kw)
    for r in results:
        verdict = "[green]yes[/green]" if r.reproduced else "[red]no[/red]"
        table.add_row(r.method, r.claim, r.baseline, r.measured, verdict, str(r.seeds), f"{r.seconds:.0f}s")
    return table


def write_json(results: list[ExperimentResult], path: str, settings: dict[str, Any]) -> None:
    """``{"settings": {...}, "results": [...]}``, each result with method, claim, baseline, measured, reproduced, seeds."""
    data = {
        "settings": {**settings, "per_experiment": {r.method: r.settings for r in results}},
        "results": [r.model_dump() for r in results],
    }
    Path(path).parent.mkdir(parents=True, exist_ok=True)
    Path(path).write_text(json.dumps(data, indent=2))


def write_plot(pairs: list[tuple[ExperimentResult, Any]], path: str) -> None:
    """One panel per experiment, drawn by that experiment's ``plot(result, ax)``."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    n = len(pairs)
    cols = min(n, 3)
    rows = (n + cols - 1) // cols
    fig, axes = plt.subplots(rows, cols, figsize=(5.2 * cols, 4.0 * rows), squeeze=False)
    for ax, (result, module) in zip(axes.flat, pairs):
        module.plot(result, ax)
    for ax in list(axes.flat)[n:]:
        ax.axis("off")
    fig.tight_layout()
    Path(path).parent.mkdir(parents=True, exist_ok=True)
    fig.savefig(path, dpi=110)
    plt.close(fig)


def _run(args: argparse.Namespace) -> int:
    from rich.console import Console

    if args.seeds < 1:
        raise ConfigError(f"--seeds must be >= 1, got {args.seeds}")
    names = list(EXPERIMENTS) if args.name == "all" else [args.name]
    pairs = run_experiments(names, args.seeds, args.quick)
    results = [r for r, _ in pairs]
    console = Console(width=max(Console().width, 180))
    console.print(render_table(results))
    n_ok = sum(r.reproduced for r in results)
    console.print(f"{n_ok}/{len(results)} claims reproduced" + (" (--quick: settings too small to judge)" if args.quick else ""))
    if args.json_path:
        write_json(results, args.json_path, {"names": names, "seeds": args.seeds, "quick": args.quick})
        console.print(f"wrote {args.json_path}")
    if args.plot_path:
        write_plot(pairs, args.plot_path)
        console.print(f"wrote {args.plot_path}")
    return 0
