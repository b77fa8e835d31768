"""The team and mining graphs end to end against the scripted chat-completions server, and offline."""

from __future__ import annotations

import json
import threading
from typing import Any

import pytest

from agents.emr import MCQuestion, build_mining_graph, build_team_graph
from agents.emr.prompts import prompt
from memkit.embeddings import HashingEmbedder
from memkit.errors import ConfigError
from memkit.experience import EntryFilter, ExperienceEntry, ExperienceLibrary
from memkit.llm import OpenAIChat
from stores.experience import InMemoryBackend

Q = MCQuestion(
    id="q1",
    dataset="toy",
    question="A 60-year-old with crushing chest pain and ST elevation. Best first drug?",
    options={"A": "Aspirin", "B": "Insulin", "C": "Levothyroxine", "D": "Amoxicillin"},
    answer="A",
)


def _library() -> ExperienceLibrary:
    return ExperienceLibrary(InMemoryBackend(), HashingEmbedder(dim=128))


class Responder:
    """Replies by role, read from the prompt; counts calls per role (specialists run in parallel threads)."""

    def __init__(self, specialist: list[str] | None = None, aggregator: str = '{"answer": "A", "rationale": "MI"}',
                 critic: str | None = None) -> None:
        self.specialist = specialist or ['{"answer": "A", "rationale": "antiplatelet"}']
        self.aggregator = aggregator
        self.critic = critic or json.dumps(
            {
                "principles": ["Treat suspected myocardial infarction first, investigate later."],
                "patterns": ["Chest pain with ST elevation: give aspirin before anything else."],
                "cases": ["Crushing chest pain with ST elevation in a 60-year-old: aspirin."],
                "specialties": ["cardiology"],
            }
        )
        self.calls: dict[str, int] = {}
        self.lock = threading.Lock()

    def __call__(self, request: dict[str, Any]) -> str:
        text = " ".join(str(m.get("content", "")) for m in request["messages"])
        if "You coordinate a team" in text:
            role = "planner"
        elif "You review a finished attempt" in text:
            role = "critic"
        elif "You lead a team" in text:
            role = "aggregator"
        else:
            role = "specialist"
        with self.lock:
            n = self.calls.get(role, 0)
            self.calls[role] = n + 1
        if role == "planner":
            return '{"specialties": ["cardiology", "pharmacology"], "reason": "chest pain"}'
        if role == "specialist":
            return self.specialist[min(n, len(self.specialist) - 1)]
        return self.aggregator if role == "aggregator" else self.critic


def _chat(server) -> OpenAIChat:
    return OpenAIChat("scripted", base_url=server.base_url, api_key="x", max_retries=0)


def test_team_runs_planner_parallel_specialists_aggregator(chat_server) -> None:
    responder = Responder()
    server = chat_server([responder] * 10)
    lib = _library()
    lib.add([ExperienceEntry(tier="principle", text="In chest pain think of myocardial infarction", specialties=["cardiology"])])
    out = build_team_graph(_chat(server), lib).invoke({"question": Q.model_dump()})
    assert out["answer"] == "A"
    roles = [s["role"] for s in out["steps"]]
    assert roles[0] == "planner" and roles[-1] == "aggregator" and roles.count("specialist") == 2
    assert {s["name"] for s in out["steps"] if s["role"] == "specialist"} == {"cardiology", "pharmacology"}
    assert responder.calls == {"planner": 1, "specialist": 2, "aggregator": 1}
    # Every role was given the experience retrieved for it, and the trajectory says which.
    assert all(s["experience"] for s in out["steps"])
    specialist_prompt = next(r for r in server.requests if "You are a cardiology specialist" in json.dumps(r))
    assert "In chest pain think of myocardial infarction" in json.dumps(specialist_prompt)


def test_answer_that_is_not_an_option_is_repaired_then_recorded(chat_server) -> None:
    # First specialist call answers "E" (no such option), then "A" after being shown the letters.
    responder = Responder(specialist=['{"answer": "E"}', '{"answer": "(a)", "rationale": "fixed"}'] + ['{"answer": "Z"}'] * 10)
    server = chat_server([responder] * 20)
    out = build_team_graph(_chat(server), _library(), retries=1).invoke({"question": Q.model_dump()})
    specialists = [s for s in out["steps"] if s["role"] == "specialist"]
    answers = sorted(str(s["output"]["answer"]) for s in specialists)
    failures = [s["failure"] for s in specialists if s["failure"]]
    # One specialist was repaired to "A"; the other stayed invalid and is recorded as a failure, not an answer.
    assert answers == ["A", "None"]
    assert len(failures) == 1 and "not an option" in failures[0]
    assert out["answer"] == "A"
    assert any(prompt("repair_option", answer="E", letters="A, B, C, D")[:30] in json.dumps(r) for r in server.requests)


def test_mining_writes_three_linked_tiers_through_add(chat_server) -> None:
    responder = Responder()
    server = chat_server([responder] * 20)
    lib = _library()
    graph = build_mining_graph(_chat(server), lib)
    out = graph.invoke({"question": Q.model_dump()})
    assert out["correct"] is True
    assert [s["role"] for s in out["steps"]][-3:] == ["judge", "critic", "updater"]
    (principle,) = lib.list(EntryFilter(tiers=("principle",)))
    (pattern,) = lib.list(EntryFilter(tiers=("pattern",)))
    cases = lib.list(EntryFilter(tiers=("case",)))
    assert principle.polarity == pattern.polarity == "practice"
    assert pattern.links == [principle.id] and all(c.links == [pattern.id] for c in cases)
    assert cases[0].data["answer"] == "Aspirin" and out["trajectory_id"] in cases[0].sources
    # Mining the same question again merges into the same entries instead of duplicating them.
    graph.invoke({"question": Q.model_dump()})
    assert lib.count(EntryFilter(tiers=("principle",))) == 1
    assert lib.list(EntryFilter(tiers=("principle",)))[0].support == 2


def test_failure_yields_warnings_and_the_corrected_case(chat_server) -> None:
    responder = Responder(specialist=['{"answer": "B"}'], aggregator='{"answer": "B"}')
    server = chat_server([responder] * 20)
    lib = _library()
    out = build_mining_graph(_chat(server), lib).invoke({"question": Q.model_dump()})
    assert out["correct"] is False
    assert lib.list(EntryFilter(tiers=("principle",)))[0].polarity == "warning"
    cases = lib.list(EntryFilter(tiers=("case",)))
    assert {(c.polarity, c.data["answer"]) for c in cases} == {("warning", "Insulin"), ("practice", "Aspirin")}


def test_invalid_critic_output_is_recorded_and_nothing_is_written(chat_server) -> None:
    responder = Responder(critic="I refuse to answer in JSON")
    server = chat_server([responder] * 20)
    lib = _library()
    out = build_mining_graph(_chat(server), lib, retries=1).invoke({"question": Q.model_dump()})
    critic = next(s for s in out["steps"] if s["role"] == "critic")
    updater = next(s for s in out["steps"] if s["role"] == "updater")
    assert critic["failure"] and "CriticOutput" in critic["failure"]
    assert updater["failure"] and lib.count() == 0
    assert responder.calls["critic"] == 2  # one try plus one bounded repair


def test_offline_mining_then_answering_uses_the_cases() -> None:
    lib = _library()
    mining = build_mining_graph(None, lib)
    first = mining.invoke({"question": Q.model_dump()})
    assert lib.count(EntryFilter(tiers=("case",))) >= 1
    assert [s["role"] for s in first["steps"]][:1] == ["planner"]
    # A paraphrase with shuffled options: the vote follows the answer text, not the letter.
    q2 = Q.model_copy(update={"id": "q2", "options": {"A": "Insulin", "B": "Amoxicillin", "C": "Aspirin", "D": "Levothyroxine"}, "answer": "C"})
    out = build_team_graph(None, lib).invoke({"question": q2.model_dump()})
    assert out["answer"] == "C"


def test_prompts_are_package_data_and_checked() -> None:
    assert "{" not in prompt("repair_option", answer="E", letters="A, B")
    with pytest.raises(ConfigError, match="no prompt"):
        prompt("nonexistent")
    with pytest.raises(ConfigError, match="needs the field"):
        prompt("planner")


@pytest.mark.parametrize(("bad", "problem"), [({"options": {"A": "x"}}, "two options"), ({"answer": "Q"}, "not one of")])
def test_invalid_questions_are_rejected(bad: dict, problem: str) -> None:
    with pytest.raises(ValueError, match=problem):
        MCQuestion(**{**Q.model_dump(), **bad})
