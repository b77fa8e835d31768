"""The LangGraph BaseStore adapter behaves like LangGraph's own stores, over both backends."""

from __future__ import annotations

import asyncio
from typing import Any, TypedDict

import pytest
from langgraph.graph import END, START, StateGraph
from langgraph.store.base import GetOp, ListNamespacesOp, PutOp, SearchOp
from langgraph.store.memory import InMemoryStore

from memkit.embeddings import HashingEmbedder
from memkit.experience import ExperienceEntry, ExperienceLibrary
from stores.experience import InMemoryBackend
from stores.langgraph_store import ExperienceStore


@pytest.fixture(params=["memory", "chroma"])
def store(request: pytest.FixtureRequest, tmp_path) -> ExperienceStore:
    if request.param == "memory":
        backend = InMemoryBackend()
    else:
        from stores.experience.chroma import ChromaBackend

        backend = ChromaBackend.persistent(tmp_path / "chroma", "lgstore")
    return ExperienceStore(ExperienceLibrary(backend, HashingEmbedder(dim=64)))


def _fill(s: Any) -> None:
    s.put(("users", "alice"), "p1", {"text": "likes aspirin trials", "score": 3, "kind": "pref"})
    s.put(("users", "alice"), "p2", {"text": "hates long questions", "score": 7, "kind": "pref"})
    s.put(("users", "bob"), "p1", {"text": "cardiology resident", "score": 5, "kind": "bio"})
    s.put(("docs",), "d1", {"text": "renal dosing of metformin", "nested": {"a": 1}})


def test_put_get_delete(store: ExperienceStore) -> None:
    _fill(store)
    item = store.get(("users", "alice"), "p1")
    assert item is not None and item.value == {"text": "likes aspirin trials", "score": 3, "kind": "pref"}
    assert item.key == "p1" and item.namespace == ("users", "alice")
    created = item.created_at
    store.put(("users", "alice"), "p1", {"text": "changed"})
    again = store.get(("users", "alice"), "p1")
    assert again is not None and again.value == {"text": "changed"}
    assert again.created_at == created and again.updated_at >= item.updated_at
    store.delete(("users", "alice"), "p1")
    assert store.get(("users", "alice"), "p1") is None
    assert store.get(("users", "nobody"), "p1") is None


def test_search_matches_langgraph_in_memory_store_without_query(store: ExperienceStore) -> None:
    reference = InMemoryStore()
    _fill(store)
    _fill(reference)
    cases = [
        (("users",), None, 10, 0),
        (("users", "alice"), {"kind": "pref"}, 10, 0),
        (("users",), {"score": {"$gte": 5}}, 10, 0),
        ((), {"nested": {"a": 1}}, 10, 0),
        (("users",), {"kind": "bio", "score": {"$lt": 9}}, 10, 0),
        (("nothing",), None, 10, 0),
    ]
    for prefix, flt, limit, offset in cases:
        mine = {(i.namespace, i.key) for i in store.search(prefix, filter=flt, limit=limit, offset=offset)}
        theirs = {(i.namespace, i.key) for i in reference.search(prefix, filter=flt, limit=limit, offset=offset)}
        assert mine == theirs, (prefix, flt)
    assert len(store.search((), limit=2)) == 2
    assert len(store.search((), limit=10, offset=3)) == 1


def test_search_with_query_is_semantic(store: ExperienceStore) -> None:
    _fill(store)
    hits = store.search((), query="metformin renal dosing", limit=2)
    assert hits[0].key == "d1" and hits[0].score is not None and hits[0].score > hits[1].score  # type: ignore[operator]
    only_alice = store.search(("users", "alice"), query="aspirin", limit=5)
    assert [h.key for h in only_alice][0] == "p1" and {h.namespace for h in only_alice} == {("users", "alice")}
    filtered = store.search((), query="aspirin", filter={"kind": "bio"})
    assert [h.key for h in filtered] == ["p1"] and filtered[0].namespace == ("users", "bob")


def test_list_namespaces_matches_langgraph(store: ExperienceStore) -> None:
    reference = InMemoryStore()
    for s in (store, reference):
        _fill(s)
        s.put(("users", "alice", "notes"), "n1", {"text": "deep"})
    for kwargs in (
        {},
        {"prefix": ("users",)},
        {"suffix": ("notes",)},
        {"prefix": ("users", "*", "notes")},
        {"max_depth": 1},
        {"prefix": ("users",), "max_depth": 2, "limit": 1, "offset": 1},
    ):
        assert store.list_namespaces(**kwargs) == reference.list_namespaces(**kwargs), kwargs


def test_batch_answers_reads_before_puts_like_langgraph(store: ExperienceStore) -> None:
    reference = InMemoryStore()
    ops = [
        PutOp(("a",), "k", {"text": "one"}),
        GetOp(("a",), "k"),
        SearchOp(("a",)),
    ]
    mine, theirs = store.batch(ops), reference.batch(ops)
    assert mine == theirs == [None, None, []]
    assert store.batch([ListNamespacesOp()]) == [[("a",)]]
    assert store.batch([GetOp(("a",), "k")])[0].value == {"text": "one"}  # type: ignore[union-attr]


def test_async_forms(store: ExperienceStore) -> None:
    async def go() -> None:
        await store.aput(("a", "b"), "k", {"text": "async value"})
        item = await store.aget(("a", "b"), "k")
        assert item is not None and item.value == {"text": "async value"}
        assert [i.key for i in await store.asearch(("a",), query="async")] == ["k"]
        assert await store.alist_namespaces() == [("a", "b")]
        await store.adelete(("a", "b"), "k")
        assert await store.aget(("a", "b"), "k") is None

    asyncio.run(go())


def test_library_entries_show_under_library_and_tier(store: ExperienceStore) -> None:
    lib = store.library
    lib.add([ExperienceEntry(id="p1", tier="principle", text="weigh the study design first")])
    item = store.get(("experience", "principle"), "p1")
    assert item is not None and item.value["text"] == "weigh the study design first" and item.value["support"] == 1
    store.put(("experience", "case"), "c9", {"text": "case from a graph", "polarity": "warning"})
    assert lib.get("c9").polarity == "warning" and lib.get("c9").tier == "case"
    assert ("experience", "principle") in store.list_namespaces(prefix=("experience",))


def test_graph_node_reaches_the_library_through_get_store(store: ExperienceStore) -> None:
    from langgraph.config import get_store

    store.library.add([ExperienceEntry(tier="principle", text="check renal function before metformin")])

    class State(TypedDict):
        question: str
        advice: list[str]

    def advise(state: State) -> dict[str, Any]:
        hits = get_store().search(("experience",), query=state["question"], limit=1)
        return {"advice": [h.value["text"] for h in hits]}

    builder = StateGraph(State)
    builder.add_node("advise", advise)
    builder.add_edge(START, "advise")
    builder.add_edge("advise", END)
    graph = builder.compile(store=store)
    out = graph.invoke({"question": "metformin and renal function", "advice": []})
    assert out["advice"] == ["check renal function before metformin"]
