"""Fixtures shared by the whole suite (keep minimal: subdirectories have their own conftest files)."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator

import pytest

from tests.chat_server import ScriptedChatServer, ScriptItem


@pytest.fixture
def chat_server() -> Iterator[Callable[..., ScriptedChatServer]]:
    """A factory ``chat_server(script) -> started ScriptedChatServer``; every server is stopped afterwards."""
    servers: list[ScriptedChatServer] = []

    def start(script: Iterable[ScriptItem] = (), **kwargs: object) -> ScriptedChatServer:
        server = ScriptedChatServer(script, **kwargs).start()  # type: ignore[arg-type]
        servers.append(server)
        return server

    yield start
    for server in servers:
        server.stop()
