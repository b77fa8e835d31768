"""Experience entries, filters, merge policies and JSONL import errors."""

from __future__ import annotations

import json

import pytest
from pydantic import ValidationError

from memkit.embeddings import HashingEmbedder
from memkit.errors import ConfigError, DataFormatError
from memkit.experience import (
    DefaultMergePolicy,
    EntryFilter,
    ExperienceEntry,
    ExperienceLibrary,
    LLMMergePolicy,
    read_entries_jsonl,
)
from memkit.llm import OpenAIChat
from stores.experience import InMemoryBackend


@pytest.mark.parametrize(
    ("fields", "problem"),
    [
        ({"tier": "rule", "text": "x"}, "tier"),
        ({"tier": "case", "text": "   "}, "text"),
        ({"tier": "case", "text": "x", "polarity": "hint"}, "polarity"),
        ({"tier": "case", "text": "x", "support": 0}, "support"),
        ({"tier": "case", "text": "x", "colour": "red"}, "colour"),
    ],
)
def test_invalid_entries_are_rejected(fields: dict, problem: str) -> None:
    with pytest.raises(ValidationError, match=problem):
        ExperienceEntry(**fields)


def test_entry_lists_are_deduplicated_in_order() -> None:
    e = ExperienceEntry(tier="case", text="x", sources=["b", "a", "b", ""], specialties=["c", "c"])
    assert e.sources == ["b", "a"] and e.specialties == ["c"]


def test_filter_semantics() -> None:
    e = ExperienceEntry(tier="pattern", text="x", specialties=["cardiology"], links=["p1"], namespace=["a", "b"])
    assert EntryFilter().matches(e)
    assert EntryFilter(tiers=("pattern", "case"), specialties_any=("neurology", "cardiology")).matches(e)
    assert not EntryFilter(specialties_any=()).matches(e)
    assert not EntryFilter(links_any=("p2",)).matches(e)
    assert EntryFilter(namespace_prefix=("a",)).matches(e)
    assert not EntryFilter(namespace_prefix=("a", "b", "c")).matches(e)
    assert not EntryFilter(polarity="warning").matches(e)


def test_default_policy_discards_copies_and_merges_additions() -> None:
    policy = DefaultMergePolicy()
    old = ExperienceEntry(tier="pattern", text="Check renal function before metformin.")
    assert policy.decide(old, old.model_copy(), 0.99).action == "discard"
    same_words = ExperienceEntry(tier="pattern", text="before metformin, check renal function")
    assert policy.decide(old, same_words, 0.85).action == "discard"
    reworded = ExperienceEntry(tier="pattern", text="Always check renal function before metformin.")
    assert policy.decide(old, reworded, 0.9).action == "discard"
    more = ExperienceEntry(tier="pattern", text="Check renal function, lactate and liver enzymes before metformin.")
    decision = policy.decide(old, more, 0.85)
    assert decision.action == "merge" and "lactate" in (decision.text or "") and "renal" in (decision.text or "")


def test_default_policy_keeps_merged_text_bounded() -> None:
    policy = DefaultMergePolicy(max_chars=60)
    old = ExperienceEntry(tier="case", text="a" * 40)
    new = ExperienceEntry(tier="case", text="bbb ccc ddd eee fff ggg hhh iii")
    decision = policy.decide(old, new, 0.85)
    assert decision.action == "merge" and len(decision.text or "") <= 60


def test_library_rejects_bad_threshold_and_bad_k() -> None:
    with pytest.raises(ConfigError):
        ExperienceLibrary(InMemoryBackend(), HashingEmbedder(), novelty_threshold=1.5)
    lib = ExperienceLibrary(InMemoryBackend(), HashingEmbedder())
    with pytest.raises(ConfigError, match="unknown tier"):
        lib.retrieve("q", k={"rules": 1})  # type: ignore[dict-item]


def test_import_reports_the_bad_line(tmp_path) -> None:
    good = ExperienceEntry(tier="case", text="fine").model_dump_json()
    path = tmp_path / "lib.jsonl"
    path.write_text(good + "\n\n" + json.dumps({"tier": "case"}) + "\n")
    with pytest.raises(DataFormatError, match=r"lib.jsonl:3: invalid entry: text"):
        read_entries_jsonl(path)
    path.write_text(good + "\n{not json\n")
    with pytest.raises(DataFormatError, match=r"lib.jsonl:2: invalid JSON"):
        read_entries_jsonl(path)
    lib = ExperienceLibrary(InMemoryBackend(), HashingEmbedder())
    with pytest.raises(DataFormatError):
        lib.import_jsonl(path)
    assert lib.count() == 0  # validated before anything is written


def test_llm_merge_policy_uses_the_model(chat_server) -> None:
    server = chat_server(['{"action": "merge", "text": "Check renal function and lactate before metformin.", "reason": "adds lactate"}'])
    policy = LLMMergePolicy(OpenAIChat("m", base_url=server.base_url, api_key="x"))
    lib = ExperienceLibrary(InMemoryBackend(), HashingEmbedder(), merge_policy=policy, novelty_threshold=0.3)
    first = ExperienceEntry(tier="pattern", text="Check renal function before metformin.")
    lib.add([first])
    (result,) = lib.add([ExperienceEntry(tier="pattern", text="Check lactate before metformin.")])
    assert result.action == "merged"
    assert lib.get(first.id).text == "Check renal function and lactate before metformin."
    assert "EXISTING: Check renal function before metformin." in json.dumps(server.requests[0])


def test_llm_merge_policy_falls_back_on_bad_output(chat_server) -> None:
    server = chat_server(["not json", '{"action": "explode"}', '{"action": "merge"}'])
    policy = LLMMergePolicy(OpenAIChat("m", base_url=server.base_url, api_key="x"), retries=2)
    old = ExperienceEntry(tier="case", text="Check renal function before metformin.")
    decision = policy.decide(old, old.model_copy(), 0.99)
    assert decision.action == "discard"  # the default policy's verdict, not the model's junk
    assert len(policy.failures) == 1 and "merge" in policy.failures[0]
