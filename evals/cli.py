"""The ``memkit`` command line: one sub-command group per evaluation.

Each group lives beside its evaluation (``evals/<name>/cli.py``) and exposes
``register(subparsers)``, which adds its parser and sets ``func`` on it; the
function returns an exit code. User mistakes (any :class:`MemkitError`) exit
with code 2 and a one-line message, never a traceback.
"""

from __future__ import annotations

import argparse
import importlib
import os
import sys
from collections.abc import Sequence

from memkit.errors import MemkitError

__all__ = ["main", "build_parser", "COMMAND_MODULES"]

# Sub-command groups, imported lazily so that `memkit worldshift ...` does not
# pay for torch or chromadb imports.
COMMAND_MODULES: dict[str, str] = {
    "worldshift": "evals.worldshift.cli",
    "emr": "evals.medqa.cli",
    "lion": "evals.recsys.cli",
    "objectives": "evals.objectives.cli",
}


class _Parser(argparse.ArgumentParser):
    """argparse exits with 2 on usage errors already; keep its one-line message."""


def build_parser(only: str | None = None) -> argparse.ArgumentParser:
    """Build the full parser; with ``only``, import just that group (faster start)."""
    parser = _Parser(prog="memkit", description="memkit: agent memory learned from experience.")
    sub = parser.add_subparsers(dest="group", metavar="{" + ",".join(COMMAND_MODULES) + "}")
    sub.required = True
    for name, module_name in COMMAND_MODULES.items():
        if only is not None and name != only:
            sub.add_parser(name, help=f"(see `memkit {name} --help`)")
            continue
        module = importlib.import_module(module_name)
        module.register(sub)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Entry point of the ``memkit`` console script."""
    os.environ.setdefault("HF_HUB_OFFLINE", "1")
    os.environ.setdefault("TRANSFORMERS_OFFLINE", "1")
    os.environ.setdefault("ANONYMIZED_TELEMETRY", "False")
    args_list = list(sys.argv[1:] if argv is None else argv)
    only = args_list[0] if args_list and args_list[0] in COMMAND_MODULES else None
    parser = build_parser(only)
    args = parser.parse_args(args_list)
    try:
        return int(args.func(args) or 0)
    except MemkitError as exc:
        print(f"memkit: error: {exc}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print("memkit: interrupted", file=sys.stderr)
        return 130


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
