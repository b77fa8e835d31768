"""A real HTTP server on 127.0.0.1 that speaks the OpenAI chat-completions protocol.

It answers each ``POST /v1/chat/completions`` (also ``/chat/completions``) with
the next item of a script, so tests exercise the real openai SDK, real HTTP
and real JSON without a model. Script items:

- ``"text"``: an assistant message with that content;
- ``{"tool_calls": [{"name": ..., "arguments": {...} | "raw string", "id": optional}],
  "content": optional}``: an assistant message calling tools;
- ``{"status": 500, "body": dict | str}``: an HTTP error;
- ``{"raw": "..."}``: a 200 answer whose body is exactly that text (malformed replies);
- a callable ``f(request_json) -> item`` for replies that depend on the request.

Any dict item may also carry ``"usage"`` (a usage dict) or ``"finish_reason"``.
Every request body is recorded in ``server.requests``. When the script runs out
the server answers HTTP 500 ``script exhausted`` so a test that asks for more
than it scripted fails loudly.
"""

from __future__ import annotations

import json
import threading
from collections.abc import Callable, Iterable
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

__all__ = ["ScriptedChatServer", "ScriptItem"]

ScriptItem = str | dict[str, Any] | Callable[[dict[str, Any]], Any]

_PATHS = {"/v1/chat/completions", "/chat/completions"}


def _count_words(value: Any) -> int:
    """A deterministic stand-in for a token count: words in every string inside ``value``."""
    if isinstance(value, str):
        return len(value.split())
    if isinstance(value, dict):
        return sum(_count_words(v) for v in value.values())
    if isinstance(value, list):
        return sum(_count_words(v) for v in value)
    return 0


class ScriptedChatServer:
    """A chat-completions server replying from a script; use as a context manager or start/stop."""

    def __init__(self, script: Iterable[ScriptItem] = (), *, model: str = "scripted-model") -> None:
        self.script: list[ScriptItem] = list(script)
        self.model = model
        self.requests: list[dict[str, Any]] = []
        self._lock = threading.Lock()
        self._position = 0
        self._httpd: ThreadingHTTPServer | None = None
        self._thread: threading.Thread | None = None

    # -- lifecycle -----------------------------------------------------------

    def start(self) -> ScriptedChatServer:
        """Bind to a free port on 127.0.0.1 and serve from a daemon thread."""
        if self._httpd is not None:
            return self
        handler = _make_handler(self)
        self._httpd = ThreadingHTTPServer(("127.0.0.1", 0), handler)
        self._httpd.daemon_threads = True
        # a short poll interval: stop() waits for one poll, and tests start many servers
        self._thread = threading.Thread(
            target=self._httpd.serve_forever, kwargs={"poll_interval": 0.02}, name="scripted-chat-server", daemon=True
        )
        self._thread.start()
        return self

    def stop(self) -> None:
        """Stop serving and release the port."""
        if self._httpd is None:
            return
        self._httpd.shutdown()
        self._httpd.server_close()
        if self._thread is not None:
            self._thread.join(timeout=5)
        self._httpd = None
        self._thread = None

    def __enter__(self) -> ScriptedChatServer:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.stop()

    @property
    def port(self) -> int:
        """The bound port (the server must be started)."""
        if self._httpd is None:
            raise RuntimeError("ScriptedChatServer is not started")
        return int(self._httpd.server_address[1])

    @property
    def base_url(self) -> str:
        """The OpenAI-style base URL, e.g. ``http://127.0.0.1:PORT/v1``."""
        return f"http://127.0.0.1:{self.port}/v1"

    @property
    def remaining(self) -> int:
        """How many script items have not been used yet."""
        with self._lock:
            return len(self.script) - self._position

    def add(self, *items: ScriptItem) -> None:
        """Append items to the script."""
        with self._lock:
            self.script.extend(items)

    # -- replies -------------------------------------------------------------

    def _next_item(self, request: dict[str, Any]) -> ScriptItem | None:
        with self._lock:
            self.requests.append(request)
            if self._position >= len(self.script):
                return None
            item = self.script[self._position]
            self._position += 1
        if callable(item):
            item = item(request)
        return item

    def reply(self, request: dict[str, Any]) -> tuple[int, str]:
        """The (status, body) answering one request, consuming one script item."""
        item = self._next_item(request)
        if item is None:
            return 500, json.dumps({"error": {"message": "script exhausted", "type": "server_error"}})
        if isinstance(item, str):
            item = {"content": item}
        if not isinstance(item, dict):
            raise TypeError(f"bad script item {item!r}")
        if "raw" in item:
            return 200, str(item["raw"])
        if "status" in item:
            body = item.get("body", {"error": {"message": f"HTTP {item['status']}", "type": "server_error"}})
            return int(item["status"]), body if isinstance(body, str) else json.dumps(body)
        return 200, json.dumps(self._completion(request, item))

    def _completion(self, request: dict[str, Any], item: dict[str, Any]) -> dict[str, Any]:
        message: dict[str, Any] = {"role": "assistant", "content": item.get("content")}
        calls = []
        for index, call in enumerate(item.get("tool_calls") or []):
            arguments = call.get("arguments", {})
            raw = arguments if isinstance(arguments, str) else json.dumps(arguments)
            calls.append(
                {
                    "id": call.get("id", f"call_{len(self.requests)}_{index}"),
                    "type": "function",
                    "function": {"name": call["name"], "arguments": raw},
                }
            )
        if calls:
            message["tool_calls"] = calls
        prompt = _count_words(request.get("messages", []))
        completion = _count_words(message.get("content")) + sum(
            _count_words(c["function"]["arguments"]) + 1 for c in calls
        )
        usage = item.get(
            "usage",
            {"prompt_tokens": prompt, "completion_tokens": completion, "total_tokens": prompt + completion},
        )
        body: dict[str, Any] = {
            "id": f"chatcmpl-{len(self.requests)}",
            "object": "chat.completion",
            "created": 0,
            "model": request.get("model", self.model),
            "choices": [
                {
                    "index": 0,
                    "message": message,
                    "finish_reason": item.get("finish_reason", "tool_calls" if calls else "stop"),
                }
            ],
        }
        if usage is not None:
            body["usage"] = usage
        return body


def _make_handler(server: ScriptedChatServer) -> type[BaseHTTPRequestHandler]:
    class Handler(BaseHTTPRequestHandler):
        def do_POST(self) -> None:  # noqa: N802 (http.server naming)
            if self.path.split("?")[0] not in _PATHS:
                self._send(404, json.dumps({"error": {"message": f"no route {self.path}"}}))
                return
            length = int(self.headers.get("Content-Length") or 0)
            raw = self.rfile.read(length)
            try:
                request = json.loads(raw or b"{}")
            except json.JSONDecodeError:
                self._send(400, json.dumps({"error": {"message": "request body is not JSON"}}))
                return
            status, body = server.reply(request)
            self._send(status, body)

        def _send(self, status: int, body: str) -> None:
            data = body.encode()
            self.send_response(status)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(data)))
            self.end_headers()
            self.wfile.write(data)

        def log_message(self, format: str, *args: Any) -> None:  # noqa: A002
            # keep test output clean
            pass

    return Handler
