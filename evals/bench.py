"""``make bench``: every benchmark of the project in one run.

Each benchmark module exposes ``run(quick: bool = False) -> list[dict]`` and
reports ratios against a baseline measured in the same process (never
absolute-time assertions). Results are printed as tables and written to
``results/bench.json``.
"""

from __future__ import annotations

import argparse
import importlib
import json
import os
import sys
from pathlib import Path

__all__ = ["BENCH_MODULES", "main"]

BENCH_MODULES: dict[str, str] = {
    "emr": "evals.medqa.bench",
    "worldshift": "evals.worldshift.bench",
    "lion": "evals.recsys.bench",
}


def main(argv: list[str] | None = None) -> int:
    """Run the named benchmarks (default: all) and write results/bench.json."""
    os.environ.setdefault("HF_HUB_OFFLINE", "1")
    os.environ.setdefault("ANONYMIZED_TELEMETRY", "False")
    parser = argparse.ArgumentParser(prog="python -m evals.bench")
    parser.add_argument("names", nargs="*", help=f"benchmarks to run, of {sorted(BENCH_MODULES)}")
    parser.add_argument("--quick", action="store_true", help="smaller sizes, for a smoke run")
    parser.add_argument("--json", default="results/bench.json")
    args = parser.parse_args(argv)
    names = args.names or list(BENCH_MODULES)
    unknown = [n for n in names if n not in BENCH_MODULES]
    if unknown:
        print(f"unknown benchmark(s): {unknown}; known: {sorted(BENCH_MODULES)}", file=sys.stderr)
        return 2
    from rich.console import Console
    from rich.table import Table

    console = Console()
    everything: dict[str, list[dict]] = {}
    for name in names:
        console.rule(f"bench: {name}")
        rows = importlib.import_module(BENCH_MODULES[name]).run(quick=args.quick)
        everything[name] = rows
        if rows:
            table = Table(title=name)
            keys = list(dict.fromkeys(k for row in rows for k in row))
            for key in keys:
                table.add_column(key)
            for row in rows:
                table.add_row(*(_fmt(row.get(k)) for k in keys))
            console.print(table)
    out = Path(args.json)
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(json.dumps(everything, indent=2))
    console.print(f"wrote {out}")
    return 0


def _fmt(value: object) -> str:
    if isinstance(value, float):
        return f"{value:.4g}"
    return "" if value is None else str(value)


if __name__ == "__main__":
    sys.exit(main())
