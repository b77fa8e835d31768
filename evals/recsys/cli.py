"""``memkit lion run``: the streaming recommendation benchmark of LION parametric memory."""

from __future__ import annotations

import argparse
import json
import time
from pathlib import Path
from typing import Any

from pydantic import ValidationError

from memkit.errors import ConfigError

__all__ = ["register", "DEFAULT_USERS", "DEFAULT_MIN_LENGTH"]

# Default subsample sizes that keep the default run (tiger, lion) under 20
# minutes on 2 CPU cores (--full lifts them).
DEFAULT_USERS: dict[str, int] = {"games": 3000, "toys": 3000, "synthetic": 600}
# Amazon users have 9 interactions on average, so a random user gives about
# two P0 interactions: both models then stay at the popularity floor. The
# default run draws its users among those with at least this many
# interactions (about 4-8k users per set); --full takes every user with >= 5.
DEFAULT_MIN_LENGTH = 10


def register(subparsers: argparse._SubParsersAction) -> None:
    """Add the ``lion`` group to the ``memkit`` parser."""
    from evals.recsys.runner import METHODS

    p = subparsers.add_parser("lion", help="LION parametric memory: the streaming recommendation benchmark")
    sub = p.add_subparsers(dest="command", metavar="{run}")
    sub.required = True
    r = sub.add_parser(
        "run",
        help="train on P0, then evaluate and fine-tune period by period (P1..P4); tables, JSON, plot",
        description=(
            "Each user's history is cut by position into 5 periods (the data have no timestamps). "
            "Train on P0; for t=1..4 evaluate next-item prediction on P_t, then fine-tune on P_t."
        ),
    )
    r.add_argument("--data", required=True, choices=["games", "toys", "synthetic"])
    r.add_argument("--methods", default="tiger,lion", help=f"comma-separated, of {','.join(METHODS)} (default tiger,lion; the others cost more)")
    r.add_argument("--epochs", type=int, default=5, help="epochs on P0 (and on each from-scratch retraining)")
    r.add_argument("--finetune-epochs", type=int, default=2, help="epochs on each later period")
    r.add_argument("--limit-users", type=int, default=None, help=f"users to sample (default {DEFAULT_USERS})")
    r.add_argument("--min-length", type=int, default=None,
                   help=f"Amazon sets: draw users among those with at least this many interactions "
                        f"(default {DEFAULT_MIN_LENGTH}; 5 with --full)")
    r.add_argument("--full", action="store_true", help="all users with >= 5 interactions (slow: hours on a CPU)")
    r.add_argument("--eval-limit", type=int, default=None, help="max evaluation samples per period")
    r.add_argument("--seed", type=int, default=0)
    r.add_argument("--value-lr", type=float, default=5e-2, help="learning rate of the memory values (LION)")
    r.add_argument("--consolidation-weight", type=float, default=0.5, help="weight of the consolidation loss (LION)")
    r.add_argument("--consolidation-pool", choices=["last", "mean", "read"], default="last",
                   help="what the consolidation head reads: the most recent item's tokens, all tokens, or the memory read alone")
    r.add_argument("--read-positions", choices=["last", "all"], default="last",
                   help="where the memory is read: the most recent item's tokens, or every token (LION)")
    r.add_argument("--long-window", type=int, default=50, help="items summarized for the memory query (LION)")
    r.add_argument("--memory-after", type=int, default=None, help="encoder blocks below the memory layer (default: half)")
    r.add_argument("--memory-query", choices=["hidden", "item", "item-only"], default="hidden",
                   help="LION memory query from the hidden state after the lower blocks (default), or from the read "
                        "item's own embedding (a slot stays tied to an item across periods); both with the long history; item-only: without it")
    r.add_argument("--memory-token", action="store_true",
                   help="LION: also append the memory read as one extra encoder token the decoder attends to")
    r.add_argument("--memory-decoder", action="store_true",
                   help="LION: also add the memory read to every decoder input position")
    r.add_argument("--memory-dropout", type=float, default=0.0, help="dropout on the memory read (LION)")
    r.add_argument("--value-init-std", type=float, default=None, help="std of the memory values' init (default dim**-0.5)")
    r.add_argument("--memory-sparse", action="store_true",
                   help="LION: sparse value gradients (SparseAdam): only the slots read in a step are updated")
    r.add_argument("--finetune-scope", choices=["all", "memory"], default="all",
                   help="LION variants on P1..: fine-tune every parameter, or only the memory, its query context and head")
    r.add_argument("--no-new-item-ids", dest="new_item_ids", action="store_false",
                   help="keep the random code paths P0 gives items it never showed (default: place them by their "
                        "known neighbours before each fine-tuning)")
    r.add_argument("--seen-items", choices=["auto", "drop", "keep"], default="auto",
                   help="items the user already interacted with: drop them from the ranked lists, keep them, or "
                        "auto (default): drop them where no user repeats an item in P0")
    r.add_argument("--dropout", type=float, default=0.1, help="backbone dropout (every method)")
    r.add_argument("--label-smoothing", type=float, default=0.0, help="label smoothing of the code losses (every method)")
    r.add_argument("--lr", type=float, default=1e-3, help="learning rate of the backbone (every method)")
    r.add_argument("--bucket", type=int, default=0,
                   help="length-bucket the training batches in pools of this many batches (faster; 0 = random batches)")
    r.add_argument("--threads", type=int, default=1, help="torch threads")
    r.add_argument("--data-dir", default=None, help="folder of the recsys files (default ../shared/data/recsys)")
    r.add_argument("--json", dest="json_path", default=None, help="write settings and results here")
    r.add_argument("--plot", dest="plot_path", default=None, help="draw Recall@10 per period and per group (PNG)")
    r.set_defaults(func=_run)


def _run(args: argparse.Namespace) -> int:
    from rich.console import Console
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

    from evals.recsys import report
    from evals.recsys.runner import RunSettings, _steps_of, prepare, run_method, slot_overlaps

    if args.full and args.limit_users is not None:
        raise ConfigError("--full and --limit-users exclude each other")
    limit = None if args.full else (args.limit_users or DEFAULT_USERS[args.data])
    min_length = args.min_length or (5 if args.full else DEFAULT_MIN_LENGTH)
    try:
        settings = RunSettings(
            data=args.data,
            methods=[m.strip() for m in args.methods.split(",") if m.strip()],
            epochs=args.epochs,
            finetune_epochs=args.finetune_epochs,
            limit_users=limit,
            min_length=min_length,
            eval_limit=args.eval_limit,
            seed=args.seed,
            value_lr=args.value_lr,
            consolidation_weight=args.consolidation_weight,
            consolidation_pool=args.consolidation_pool,
            read_positions=args.read_positions,
            long_window=args.long_window,
            memory_after=args.memory_after,
            memory_dropout=args.memory_dropout,
            memory_query=args.memory_query,
            memory_token=args.memory_token,
            memory_decoder=args.memory_decoder,
            value_init_std=args.value_init_std,
            memory_sparse=args.memory_sparse,
            finetune_scope=args.finetune_scope,
            dropout=args.dropout,
            label_smoothing=args.label_smoothing,
            lr=args.lr,
            bucket=args.bucket,
            threads=args.threads,
            data_dir=args.data_dir,
            new_item_ids=args.new_item_ids,
            seen_items=args.seen_items,
        )
    except ValidationError as exc:
        raise ConfigError("; ".join(f"{'.'.join(map(str, e['loc']))}: {e['msg']}" for e in exc.errors())) from None
    console = Console()
    started = time.perf_counter()
    prepared = prepare(settings)
    for note in prepared.notes:
        console.print(f"[bold]{note}[/bold]" if note.startswith("SUBSAMPLE") else note)
    results = []
    with Progress(
        TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(), TimeElapsedColumn(), console=console
    ) as progress:
        for method in settings.methods:
            task = progress.add_task(f"{args.data}: {method}", total=_steps_of(settings, prepared, method))
            results.append(run_method(prepared, method, settings, advance=lambda n, t=task: progress.advance(t, n)))
    overlaps: list[dict[str, Any]] = []
    for res in results:
        if res.slot_usage is not None:
            overlaps.extend({"method": res.method, **row} for row in slot_overlaps(res.slot_usage))
    payload = report.build_payload(settings, prepared, results, overlaps, time.perf_counter() - started)
    report.print_tables(console, payload)
    if args.json_path:
        path = Path(args.json_path)
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(json.dumps(payload, indent=2))
        console.print(f"wrote {path}")
    if args.plot_path:
        report.plot(payload, args.plot_path)
        console.print(f"wrote {args.plot_path}")
    return 0
