"""Backends for the conformance suite: in memory, Chroma persistent, Chroma over HTTP against a real server."""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import threading
import uuid
from collections.abc import Iterator
from pathlib import Path

import pytest

from stores.experience import InMemoryBackend
from stores.experience.conformance import BackendHarness

CHROMA_BIN = Path(sys.executable).with_name("chroma")


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


@pytest.fixture(scope="session")
def chroma_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[str, int]]:
    """A `chroma run` server on 127.0.0.1 (free port, temp dir), started once per session and stopped after."""
    path = tmp_path_factory.mktemp("chroma-server")
    port = _free_port()
    env = {**os.environ, "ANONYMIZED_TELEMETRY": "False", "NO_COLOR": "1"}
    proc = subprocess.Popen(
        [str(CHROMA_BIN), "run", "--path", str(path), "--host", "127.0.0.1", "--port", str(port)],
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
        env=env,
    )
    assert proc.stdout is not None
    seen: list[str] = []
    # The server logs a line once it accepts connections; wait for it instead of sleeping.
    for line in proc.stdout:
        seen.append(line)
        if "listening on address" in line:
            break
    else:
        proc.wait()
        raise RuntimeError("chroma server exited before listening:\n" + "".join(seen[-20:]))
    # Keep draining its log: a full pipe would block the server mid-request.
    drain = threading.Thread(target=lambda: [None for _ in proc.stdout], daemon=True)  # type: ignore[union-attr]
    drain.start()
    try:
        yield "127.0.0.1", port
    finally:
        proc.terminate()
        try:
            proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()
        drain.join(timeout=10)


def _unique() -> str:
    return "t-" + uuid.uuid4().hex[:12]


@pytest.fixture(params=["memory", "chroma-persistent", "chroma-http"])
def harness(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory) -> BackendHarness:
    """One registered backend of the conformance suite."""
    if request.param == "memory":
        return BackendHarness("memory", InMemoryBackend)
    from stores.experience.chroma import ChromaBackend

    if request.param == "chroma-persistent":
        root = tmp_path_factory.mktemp("chroma-local")

        def make_local() -> ChromaBackend:
            return ChromaBackend.persistent(root, _unique())

        def reopen_local(old: object) -> ChromaBackend:
            assert isinstance(old, ChromaBackend)
            return ChromaBackend.persistent(root, old._collection_name)

        return BackendHarness("chroma-persistent", make_local, reopen_local)
    host, port = request.getfixturevalue("chroma_server")

    def make_http() -> ChromaBackend:
        return ChromaBackend.http(host, port, _unique())

    def reopen_http(old: object) -> ChromaBackend:
        assert isinstance(old, ChromaBackend)
        return ChromaBackend.http(host, port, old._collection_name)

    return BackendHarness("chroma-http", make_http, reopen_http)
