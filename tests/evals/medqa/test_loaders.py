"""Loaders read every bundled format and name the file and line of a malformed one; splits never leak."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from agents.emr import MCQuestion
from evals.medqa.loaders import (
    DATA_DIR,
    load_dataset,
    load_medmcqa,
    load_mmlu_pro,
    load_options_jsonl,
    load_pubmedqa,
)
from evals.medqa.splits import split
from memkit.errors import ConfigError, DataFormatError

# the bundled data sets live in ../shared beside the checkout; a clone elsewhere has none
_needs_shared_data = pytest.mark.skipif(not (DATA_DIR / "pubmedqa_ori_pqal.json").exists(),
                                        reason="../shared/data/medqa is not beside this checkout")


def _write(tmp_path: Path, rows: list, name: str = "data.jsonl") -> Path:
    path = tmp_path / name
    path.write_text("\n".join(r if isinstance(r, str) else json.dumps(r) for r in rows) + "\n")
    return path


@_needs_shared_data
def test_bundled_files_load_with_their_sizes() -> None:
    pubmed = load_dataset("pubmedqa")
    assert len(pubmed) == 1000 and sum(q.meta["official_test"] for q in pubmed) == 500
    assert {q.answer for q in pubmed} == {"A", "B", "C"} and pubmed[0].options == {"A": "yes", "B": "no", "C": "maybe"}
    medqa = load_dataset("medqa")
    assert len(medqa) == 1273 and all(len(q.options) == 4 for q in medqa)
    assert len(load_dataset("mmlu")) == 1089


def test_medmcqa_format(tmp_path: Path) -> None:
    path = _write(tmp_path, [{"id": "x1", "question": "Q?", "opa": "a", "opb": "b", "opc": "c", "opd": "d", "cop": 3}])
    (q,) = load_medmcqa(path)
    assert q.answer == "C" and q.options["C"] == "c" and q.id == "medmcqa-x1"


def test_mmlu_pro_list_and_letter_forms(tmp_path: Path) -> None:
    path = _write(
        tmp_path,
        [
            {"question": "Q1", "options": ["o0", "o1", "o2", "o3", "o4", "o5", "o6", "o7", "o8", "o9"], "answer_index": 9},
            {"question": "Q2", "A": "x", "B": "y", "C": "z", "answer_index": 1},
        ],
    )
    q1, q2 = load_mmlu_pro(path)
    assert q1.answer == "J" and len(q1.options) == 10
    assert q2.answer == "B" and q2.options == {"A": "x", "B": "y", "C": "z"}


@pytest.mark.parametrize(
    ("loader", "rows", "error"),
    [
        (load_options_jsonl, ['{"question": "q", "options": {"A": "a", "B": "b"}, "answer_idx": "A"}', "{oops"], r"data.jsonl:2: invalid JSON"),
        (load_options_jsonl, [{"question": "q", "options": {"A": "a", "B": "b"}}], r"data.jsonl:1: missing field\(s\) \['answer_idx'\]"),
        (load_options_jsonl, [{"question": "q", "options": {"A": "a", "B": "b"}, "answer_idx": "E"}], r"data.jsonl:1: answer 'E' is not one of"),
        (load_options_jsonl, [{"question": "q", "options": ["a", "b"], "answer_idx": "A"}], r"data.jsonl:1: options must be an object"),
        (load_options_jsonl, ["[1, 2]"], r"data.jsonl:1: expected a JSON object"),
        (load_options_jsonl, [""], r"no questions"),
        (load_medmcqa, [{"question": "q", "opa": "a", "opb": "b", "opc": "c", "opd": "d", "cop": 0}], r"data.jsonl:1: cop must be an integer 1..4"),
        (load_medmcqa, [{"question": "q", "opa": "a", "cop": 1}], r"data.jsonl:1: missing field"),
        (load_mmlu_pro, [{"question": "q", "options": ["a", "b"], "answer_index": 2}], r"data.jsonl:1: answer_index must be an integer 0..1"),
        (load_mmlu_pro, [{"question": "q", "answer_index": 0}], r"data.jsonl:1: no options"),
        (load_mmlu_pro, [{"question": "", "options": ["a", "b"], "answer_index": 0}], r"data.jsonl:1: question"),
    ],
)
def test_malformed_files_name_file_and_line(tmp_path: Path, loader, rows: list, error: str) -> None:
    with pytest.raises(DataFormatError, match=error):
        loader(_write(tmp_path, rows))


def test_pubmedqa_errors(tmp_path: Path) -> None:
    bad = tmp_path / "p.json"
    bad.write_text('{"1": {"QUESTION": "q", "final_decision": "perhaps"}}')
    with pytest.raises(DataFormatError, match="final_decision must be yes/no/maybe"):
        load_pubmedqa(bad)
    good = tmp_path / "g.json"
    good.write_text('{"1": {"QUESTION": "q", "final_decision": "yes", "CONTEXTS": ["c"]}}')
    ids = tmp_path / "ids.json"
    ids.write_text('{"2": "yes"}')
    with pytest.raises(DataFormatError, match="not in g.json"):
        load_pubmedqa(good, ids)
    broken = tmp_path / "b.json"
    broken.write_text('{"1": \n oops}')
    with pytest.raises(DataFormatError, match=r"b.json:2: invalid JSON"):
        load_pubmedqa(broken)
    with pytest.raises(DataFormatError, match="cannot read"):
        load_pubmedqa(tmp_path / "missing.json")


def test_unknown_dataset_and_unbundled_format() -> None:
    with pytest.raises(ConfigError, match="unknown dataset"):
        load_dataset("nope")
    with pytest.raises(ConfigError, match="--data"):
        load_dataset("medmcqa")


@_needs_shared_data
def test_pubmedqa_split_evaluates_on_the_official_ids() -> None:
    questions = load_pubmedqa(DATA_DIR / "pubmedqa_ori_pqal.json", DATA_DIR / "pubmedqa_test_ground_truth.json")
    official = set(json.loads((DATA_DIR / "pubmedqa_test_ground_truth.json").read_text()))
    mining, evaluation = split(questions, seed=1)
    assert {q.meta["pmid"] for q in evaluation} == official
    assert not {q.id for q in mining} & {q.id for q in evaluation} and len(mining) == 500


@given(st.integers(min_value=2, max_value=60), st.integers(min_value=0, max_value=10_000))
@settings(max_examples=40, deadline=None)
def test_split_is_a_seeded_disjoint_half(n: int, seed: int) -> None:
    qs = [MCQuestion(id=f"q{i}", question=f"question {i}", options={"A": "a", "B": "b"}, answer="A") for i in range(n)]
    mining, evaluation = split(qs, seed)
    assert len(mining) == n // 2 and len(mining) + len(evaluation) == n
    assert not {q.id for q in mining} & {q.id for q in evaluation}
    assert [q.id for q in split(qs, seed)[0]] == [q.id for q in mining]
