"""Loaders for the medical QA formats; every malformed file raises DataFormatError naming the file and line.

| loader | format |
| --- | --- |
| :func:`load_pubmedqa` | PubMedQA ``ori_pqal.json`` (PMID -> {QUESTION, CONTEXTS, final_decision}) + official test ids |
| :func:`load_options_jsonl` | MedQA-US / MMLU medical jsonl: question, options {A..}, answer_idx |
| :func:`load_medmcqa` | MedMCQA jsonl: question, opa..opd, cop (1-based) |
| :func:`load_mmlu_pro` | MMLU-Pro jsonl: question, options (list or A..J keys), answer_index (0-based) |
"""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

from pydantic import ValidationError

from agents.emr.types import MCQuestion, option_letters
from memkit.errors import ConfigError, DataFormatError

__all__ = [
    "DATA_DIR",
    "DATASETS",
    "PUBMEDQA_OPTIONS",
    "load_dataset",
    "load_pubmedqa",
    "load_options_jsonl",
    "load_medmcqa",
    "load_mmlu_pro",
]

# ../shared/data/medqa relative to the project root (the checkout's parent holds shared/).
DATA_DIR = Path(__file__).resolve().parents[3] / "shared" / "data" / "medqa"
PUBMEDQA_OPTIONS = {"A": "yes", "B": "no", "C": "maybe"}


def _jsonl(path: Path) -> list[tuple[int, dict[str, Any]]]:
    try:
        lines = path.read_text(encoding="utf-8").splitlines()
    except OSError as exc:
        raise DataFormatError(f"cannot read: {exc.strerror or exc}", path=str(path)) from exc
    out: list[tuple[int, dict[str, Any]]] = []
    for number, line in enumerate(lines, start=1):
        if not line.strip():
            continue
        try:
            value = json.loads(line)
        except json.JSONDecodeError as exc:
            raise DataFormatError(f"invalid JSON: {exc.msg}", path=str(path), line=number) from exc
        if not isinstance(value, dict):
            raise DataFormatError("expected a JSON object", path=str(path), line=number)
        out.append((number, value))
    if not out:
        raise DataFormatError("no questions in the file", path=str(path))
    return out


def _question(path: Path, line: int | None, **fields: Any) -> MCQuestion:
    try:
        return MCQuestion(**fields)
    except ValidationError as exc:
        first = exc.errors()[0]
        where = ".".join(str(p) for p in first["loc"])
        msg = first["msg"].removeprefix("Value error, ")
        raise DataFormatError(f"{where + ': ' if where else ''}{msg}", path=str(path), line=line) from exc


def _need(path: Path, line: int, row: dict[str, Any], *keys: str) -> None:
    missing = [k for k in keys if k not in row]
    if missing:
        raise DataFormatError(f"missing field(s) {missing}", path=str(path), line=line)


def load_options_jsonl(path: str | Path, dataset: str = "medqa") -> list[MCQuestion]:
    """MedQA-US 4-option / MMLU medical: ``question``, ``options`` {A..D}, ``answer_idx``."""
    source = Path(path)
    out = []
    for line, row in _jsonl(source):
        _need(source, line, row, "question", "options", "answer_idx")
        if not isinstance(row["options"], dict):
            raise DataFormatError("options must be an object {letter: text}", path=str(source), line=line)
        out.append(
            _question(
                source,
                line,
                id=f"{dataset}-{row.get('realidx', line)}",
                dataset=dataset,
                question=row["question"],
                options={str(k): str(v) for k, v in row["options"].items()},
                answer=row["answer_idx"],
                meta={k: row[k] for k in ("meta_info", "subject") if k in row},
            )
        )
    return out


def load_medmcqa(path: str | Path, dataset: str = "medmcqa") -> list[MCQuestion]:
    """MedMCQA: ``question``, ``opa``..``opd``, ``cop`` (1-based correct option)."""
    source = Path(path)
    out = []
    for line, row in _jsonl(source):
        _need(source, line, row, "question", "opa", "opb", "opc", "opd", "cop")
        cop = row["cop"]
        if not isinstance(cop, int) or not 1 <= cop <= 4:
            raise DataFormatError(f"cop must be an integer 1..4, got {cop!r}", path=str(source), line=line)
        options = {letter: str(row[f"op{letter.lower()}"]) for letter in "ABCD"}
        out.append(
            _question(
                source,
                line,
                id=f"{dataset}-{row.get('id', line)}",
                dataset=dataset,
                question=row["question"],
                options=options,
                answer="ABCD"[cop - 1],
                meta={k: row[k] for k in ("subject_name", "topic_name") if k in row},
            )
        )
    return out


def load_mmlu_pro(path: str | Path, dataset: str = "mmlu_pro") -> list[MCQuestion]:
    """MMLU-Pro: ``question``, ``options`` (a list, or keys ``A``..``J``), ``answer_index`` (0-based)."""
    source = Path(path)
    out = []
    for line, row in _jsonl(source):
        _need(source, line, row, "question", "answer_index")
        if isinstance(row.get("options"), list):
            texts = [str(t) for t in row["options"]]
        else:
            keys = [k for k in "ABCDEFGHIJ" if k in row]
            if not keys:
                raise DataFormatError("no options (a list 'options' or keys A..J)", path=str(source), line=line)
            texts = [str(row[k]) for k in keys]
        index = row["answer_index"]
        if not isinstance(index, int) or not 0 <= index < len(texts):
            raise DataFormatError(
                f"answer_index must be an integer 0..{len(texts) - 1}, got {index!r}", path=str(source), line=line
            )
        letters = option_letters(len(texts))
        out.append(
            _question(
                source,
                line,
                id=f"{dataset}-{row.get('question_id', line)}",
                dataset=dataset,
                question=row["question"],
                options=dict(zip(letters, texts, strict=True)),
                answer=letters[index],
                meta={k: row[k] for k in ("category", "src") if k in row},
            )
        )
    return out


def load_pubmedqa(path: str | Path, test_ids: str | Path | None = None, dataset: str = "pubmedqa") -> list[MCQuestion]:
    """PubMedQA ``ori_pqal.json`` as yes/no/maybe questions; ``meta.official_test`` marks the official test ids."""
    source = Path(path)
    try:
        data = json.loads(source.read_text(encoding="utf-8"))
    except OSError as exc:
        raise DataFormatError(f"cannot read: {exc.strerror or exc}", path=str(source)) from exc
    except json.JSONDecodeError as exc:
        raise DataFormatError(f"invalid JSON: {exc.msg}", path=str(source), line=exc.lineno) from exc
    if not isinstance(data, dict):
        raise DataFormatError("expected an object PMID -> record", path=str(source))
    official: set[str] = set()
    if test_ids is not None:
        ids_path = Path(test_ids)
        try:
            ids = json.loads(ids_path.read_text(encoding="utf-8"))
        except (OSError, json.JSONDecodeError) as exc:
            raise DataFormatError(f"cannot read the test ids: {exc}", path=str(ids_path)) from exc
        if not isinstance(ids, dict):
            raise DataFormatError("expected an object PMID -> label", path=str(ids_path))
        official = set(ids)
        unknown = official - set(data)
        if unknown:
            raise DataFormatError(f"{len(unknown)} test id(s) not in {source.name}, e.g. {sorted(unknown)[0]}", path=str(ids_path))
    by_label = {v: k for k, v in PUBMEDQA_OPTIONS.items()}
    out = []
    for pmid, record in data.items():
        if not isinstance(record, dict) or "QUESTION" not in record or "final_decision" not in record:
            raise DataFormatError(f"record {pmid}: needs QUESTION and final_decision", path=str(source))
        label = record["final_decision"]
        if label not in by_label:
            raise DataFormatError(f"record {pmid}: final_decision must be yes/no/maybe, got {label!r}", path=str(source))
        contexts = record.get("CONTEXTS", [])
        out.append(
            _question(
                source,
                None,
                id=f"{dataset}-{pmid}",
                dataset=dataset,
                question=record["QUESTION"],
                options=dict(PUBMEDQA_OPTIONS),
                answer=by_label[label],
                context=" ".join(contexts) if isinstance(contexts, list) else str(contexts),
                meta={"pmid": pmid, "official_test": pmid in official},
            )
        )
    return out


def _pubmedqa_default(path: Path | None) -> list[MCQuestion]:
    return load_pubmedqa(path or DATA_DIR / "pubmedqa_ori_pqal.json", DATA_DIR / "pubmedqa_test_ground_truth.json")


DATASETS: dict[str, Callable[[Path | None], list[MCQuestion]]] = {
    "pubmedqa": _pubmedqa_default,
    "medqa": lambda p: load_options_jsonl(p or DATA_DIR / "medqa_us4_test.jsonl", "medqa"),
    "mmlu": lambda p: load_options_jsonl(p or DATA_DIR / "mmlu_medical_test.jsonl", "mmlu"),
    "medmcqa": lambda p: load_medmcqa(_required(p, "medmcqa")),
    "mmlu_pro": lambda p: load_mmlu_pro(_required(p, "mmlu_pro")),
}


def _required(path: Path | None, name: str) -> Path:
    if path is None:
        raise ConfigError(f"dataset {name!r} has no bundled file: pass --data PATH")
    return path


def load_dataset(name: str, path: str | Path | None = None) -> list[MCQuestion]:
    """Load a named dataset, from ``path`` when given (same format), else from the shared data directory."""
    if name not in DATASETS:
        raise ConfigError(f"unknown dataset {name!r}; known: {sorted(DATASETS)}")
    return DATASETS[name](Path(path) if path is not None else None)
