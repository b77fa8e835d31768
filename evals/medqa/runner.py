"""Mine, then evaluate with and without the mined library, over several seeded runs.

For each run ``r`` (seed ``seed + r``): split the mining data set, mine
``rounds`` passes over its mining half through the mining graph (the library
grows by ``add``), then answer the evaluation half twice with the team graph:
once over an empty library ("none") and once over the mined one ("mined").
The library is never written during evaluation, and mining never sees an
evaluation question.
"""

from __future__ import annotations

import random
import shutil
import statistics
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from pydantic import BaseModel, Field

from agents.emr import DEFAULT_ROUNDS, MCQuestion, build_mining_graph, build_team_graph
from evals.medqa.loaders import load_dataset
from evals.medqa.splits import split
from memkit.embeddings import Embedder
from memkit.errors import ConfigError
from memkit.experience import ExperienceLibrary, TIERS, EntryFilter
from memkit.llm import ChatModel
from stores.experience import InMemoryBackend, open_library

__all__ = ["RunSettings", "run_experiment"]

Progress = Callable[[str, int, int], None]


class RunSettings(BaseModel):
    """Everything that decides a run; written into the JSON results."""

    mine_on: str
    eval_on: str
    data: str | None = None
    eval_data: str | None = None
    model: str = "knn"
    library: str | None = None
    rounds: int = Field(default=DEFAULT_ROUNDS, ge=0)
    runs: int = Field(default=3, ge=1)
    limit: int | None = Field(default=None, ge=1)
    seed: int = 0


def _accuracy(graph: Any, questions: list[MCQuestion], progress: Progress | None, label: str) -> tuple[float, int]:
    correct = failures = 0
    for i, q in enumerate(questions):
        out = graph.invoke({"question": q.model_dump(), "opinions": [], "steps": []})
        correct += out.get("answer") == q.answer
        failures += sum(1 for s in out.get("steps", []) if s.get("failure"))
        if progress:
            progress(label, i + 1, len(questions))
    return correct / max(len(questions), 1), failures


def _library_location(root: str | None, settings: RunSettings, run: int) -> Path | None:
    if root is None:
        return None
    target = Path(root) / f"{settings.mine_on}-run{run}"
    # Start each run from an empty library; only ever remove a Chroma directory we made.
    if target.exists() and (target / "chroma.sqlite3").exists():
        shutil.rmtree(target)
    return target


def run_experiment(
    settings: RunSettings,
    embedder: Embedder,
    *,
    chat: ChatModel | None = None,
    progress: Progress | None = None,
) -> dict[str, Any]:
    """Run the experiment; returns ``{"settings", "results", "runs"}`` (the CLI's JSON)."""
    if settings.model != "knn" and chat is None:
        raise ConfigError(f"model {settings.model!r} needs a chat endpoint (set MEMKIT_LLM_BASE_URL)")
    mine_all = load_dataset(settings.mine_on, settings.data)
    same = settings.eval_on == settings.mine_on
    eval_all = mine_all if same and settings.eval_data is None else load_dataset(settings.eval_on, settings.eval_data)
    per_run: list[dict[str, Any]] = []
    for run in range(settings.runs):
        seed = settings.seed + run
        mining, held_out = split(mine_all, seed)
        evaluation = held_out if same else split(eval_all, seed)[1]
        if settings.limit:
            mining, evaluation = mining[: settings.limit], evaluation[: settings.limit]
        overlap = {q.id for q in mining} & {q.id for q in evaluation}
        if overlap:  # pragma: no cover - a guard on the splits, which tests pin
            raise ConfigError(f"mining and evaluation share {len(overlap)} question(s)")
        location = _library_location(settings.library, settings, run)
        library = open_library(location, embedder) if location else ExperienceLibrary(InMemoryBackend(), embedder)
        mining_graph = build_mining_graph(chat, library, embedder=embedder)
        started = time.perf_counter()
        tokens_before = chat.usage.total_tokens if chat else 0
        round_acc = []
        rng = random.Random(seed)
        for round_no in range(settings.rounds):
            order = list(mining)
            rng.shuffle(order)
            correct = 0
            for i, q in enumerate(order):
                out = mining_graph.invoke({"question": q.model_dump(), "steps": []})
                correct += bool(out.get("correct"))
                if progress:
                    progress(f"run {run + 1} mine round {round_no + 1}", i + 1, len(order))
            round_acc.append(correct / max(len(order), 1))
        mine_seconds = time.perf_counter() - started
        stats = {tier: library.count(EntryFilter(tiers=(tier,))) for tier in TIERS}
        results: dict[str, Any] = {}
        for name, lib in (("none", ExperienceLibrary(InMemoryBackend(), embedder)), ("mined", library)):
            team = build_team_graph(chat, lib, embedder=embedder)
            t0 = time.perf_counter()
            tok0 = chat.usage.total_tokens if chat else 0
            acc, failures = _accuracy(team, evaluation, progress, f"run {run + 1} eval library={name}")
            seconds = time.perf_counter() - t0
            results[name] = {
                "accuracy": acc,
                "step_failures": failures,
                "seconds_per_question": seconds / max(len(evaluation), 1),
                "tokens_per_question": ((chat.usage.total_tokens - tok0) / max(len(evaluation), 1)) if chat else 0.0,
            }
        per_run.append(
            {
                "run": run,
                "seed": seed,
                "mining_questions": len(mining),
                "eval_questions": len(evaluation),
                "mining_accuracy_per_round": round_acc,
                "mining_seconds": mine_seconds,
                "mining_tokens": (chat.usage.total_tokens - tokens_before) if chat else 0,
                "library": stats,
                "library_location": str(location) if location else "memory",
                "eval": results,
            }
        )
        library.close()
    rows = []
    for name in ("none", "mined"):
        accs = [r["eval"][name]["accuracy"] for r in per_run]
        rows.append(
            {
                "dataset": settings.eval_on,
                "mined_on": settings.mine_on,
                "model": settings.model,
                "library": name,
                "accuracy_mean": statistics.fmean(accs),
                "accuracy_std": statistics.stdev(accs) if len(accs) > 1 else 0.0,
                "runs": len(accs),
                "questions": per_run[0]["eval_questions"],
                "seconds_per_question": statistics.fmean(r["eval"][name]["seconds_per_question"] for r in per_run),
                "tokens_per_question": statistics.fmean(r["eval"][name]["tokens_per_question"] for r in per_run),
            }
        )
    return {"settings": settings.model_dump(), "results": rows, "runs": per_run}
