"""``memkit worldshift``: check a world, print its true side effects, score predictions, run the benchmark."""

from __future__ import annotations

import argparse
import json
from collections import Counter
from pathlib import Path
from typing import Any

from memkit.errors import ConfigError, DataFormatError
from memkit.rules import Engine, score_effects
from memkit.rules.predict import effects_of_tests
from memkit.rules.scoring import score_world

from evals.worldshift.worlds_index import load_named_world

__all__ = ["register"]


def register(subparsers: argparse._SubParsersAction) -> None:
    """Add the ``worldshift`` group to the ``memkit`` parser."""
    p = subparsers.add_parser("worldshift", help="WorldShift worlds: check, truth, score, run the CDA benchmark")
    sub = p.add_subparsers(dest="command", metavar="{check,truth,score,run}")
    sub.required = True

    c = sub.add_parser("check", help="validate a world and print a summary")
    c.add_argument("world", help="world file or built-in name (ews-A ... ews-D)")
    c.set_defaults(func=_check)

    t = sub.add_parser("truth", help="each test's true side effects, as JSON")
    t.add_argument("world")
    t.add_argument("--json", dest="json_path", help="write to this file instead of stdout")
    t.set_defaults(func=_truth)

    s = sub.add_parser("score", help="score predicted side effects against the truth")
    s.add_argument("world")
    s.add_argument("predictions", help="JSON: one list of effects per test, in test order")
    s.add_argument("--json", dest="json_path", help="also write the scores to this file")
    s.set_defaults(func=_score)

    try:
        from evals.worldshift.run_cli import add_run_parser
    except ImportError:  # pragma: no cover - benchmark module not present in a partial install
        return
    add_run_parser(sub)


def _check(args: argparse.Namespace) -> int:
    from rich.console import Console
    from rich.table import Table

    world = load_named_world(args.world)
    engine = Engine(world.schema, world.rules)
    initial = world.initial_state()
    fires: Counter[str] = Counter()
    rolled_back = 0
    for test in world.tests:
        result = engine.run(initial, test)
        rolled_back += result.error is not None
        for rid in set(result.fired):
            fires[rid] += 1
    console = Console()
    n_records = sum(len(rows) for rows in world.records.values())
    console.print(
        f"[bold]{world.name}[/bold] ({world.path}): OK — {len(world.schema.tables)} tables, "
        f"{n_records} records, {len(world.rules)} rules, {len(world.tests)} tests"
        + (f", {rolled_back} rolled back" if rolled_back else "")
    )
    if world.shift and any(world.shift.values()):
        console.print("shift: " + "; ".join(f"{k} {', '.join(v)}" for k, v in world.shift.items() if v))
    table = Table(title="rules (how many tests each fires in)")
    for col in ("id", "table", "events", "when", "fires in", "name"):
        table.add_column(col)
    for rule in world.rules:
        table.add_row(rule.id, rule.table, ",".join(rule.events), rule.when, str(fires.get(rule.id, 0)), rule.name)
    console.print(table)
    return 0


def _truth_lists(world) -> list[list[list[Any]]]:
    effects = effects_of_tests(world.schema, world.rules, world.initial_state(), world.tests)
    return [[list(e) for e in test_effects] for test_effects in effects]


def _truth(args: argparse.Namespace) -> int:
    world = load_named_world(args.world)
    text = json.dumps(_truth_lists(world), indent=None, separators=(",", ":"))
    if args.json_path:
        Path(args.json_path).parent.mkdir(parents=True, exist_ok=True)
        Path(args.json_path).write_text(text + "\n")
        print(f"wrote {len(world.tests)} tests' side effects to {args.json_path}")
    else:
        print(text)
    return 0


def _load_predictions(path: str, n_tests: int) -> list[list[list[Any]]]:
    p = Path(path)
    if not p.exists():
        raise ConfigError(f"no such predictions file: {path}")
    try:
        data = json.loads(p.read_text())
    except json.JSONDecodeError as exc:
        raise DataFormatError(f"invalid JSON: {exc.msg}", path=path, line=exc.lineno) from exc
    if not isinstance(data, list):
        raise DataFormatError("predictions must be a JSON list with one list of effects per test", path=path)
    if len(data) != n_tests:
        raise DataFormatError(f"{len(data)} entries for {n_tests} tests", path=path)
    for i, entry in enumerate(data):
        if not isinstance(entry, list):
            raise DataFormatError(f"entry {i} is not a list of effects", path=path)
        for effect in entry:
            ok = isinstance(effect, list) and effect and effect[0] in ("set", "create", "delete")
            ok = ok and len(effect) == {"set": 5, "create": 4, "delete": 3}.get(effect[0], -1)
            if not ok:
                raise DataFormatError(
                    f"entry {i}: {effect!r} is not an effect ([set, table, id, field, value], "
                    "[create, table, field, value] or [delete, table, id])",
                    path=path,
                )
    return data


def _score(args: argparse.Namespace) -> int:
    world = load_named_world(args.world)
    truth = _truth_lists(world)
    predicted = _load_predictions(args.predictions, len(truth))
    mean = score_world(predicted, truth)
    per_test = [score_effects(p, t) for p, t in zip(predicted, truth)]
    print(f"{world.name}: precision {mean.precision:.4f}  recall {mean.recall:.4f}  IoU {mean.iou:.4f}  ({len(truth)} tests)")
    if args.json_path:
        out = {
            "world": world.name,
            "tests": len(truth),
            "precision": mean.precision,
            "recall": mean.recall,
            "iou": mean.iou,
            "per_test": [{"precision": s.precision, "recall": s.recall, "iou": s.iou} for s in per_test],
        }
        Path(args.json_path).parent.mkdir(parents=True, exist_ok=True)
        Path(args.json_path).write_text(json.dumps(out, indent=2))
    return 0
