"""`majordomus mcp serve` before the MCP SDK is imported: the handshake answered at once.

A client waits for `initialize`, `tools/list` and `resources/list` at every session start, and
importing the SDK costs most of a second. So the server reads its first lines itself, one byte
at a time from standard input (it never takes a byte beyond the line it reads), and answers
those three requests as the SDK answers them (`packages` tests hold the bytes equal to the
SDK's own answer, for every protocol version the handshake offers). Anything else — a tool
call, a request shaped in any way the SDK might judge otherwise, a pause in the conversation —
hands the stream to the SDK (`majordomus.mcp.server`): it is given the handshake again (its
answer to that is not sent twice), then every line this module has not answered.
"""

from __future__ import annotations

import json
import os
import select

from majordomus.mcp import shapes as mcpshapes

TYPE_CHECKING = False  # `typing` is not imported at run time on a start-up path
if TYPE_CHECKING:
    from pathlib import Path
    from typing import Any

IDLE = 0.25  # seconds of quiet after an answer before the SDK is imported


class Early:
    """What happened before the SDK: the lines it must see first (`replay`), the one it must
    answer (`pending`), the id of the handshake answered here and that answer, whether the
    client has gone (`ended`)."""

    __slots__ = ("answer", "drop", "ended", "pending", "replay")

    def __init__(self) -> None:
        self.replay: list[bytes] = []
        self.pending: list[bytes] = []
        self.drop: int | str | None = None
        self.answer: bytes = b""
        self.ended = False


def serve(root: Path, version: str, fd_in: int = 0, fd_out: int = 1) -> Early:
    """Answer what can be answered here; return when the SDK must take over or input ended."""
    early = Early()
    wait: float | None = None  # the first line is waited for as long as it takes
    while True:
        line = _line(fd_in, wait)
        if line is None:  # quiet: the SDK is imported while the client is not waiting
            return early
        if not line:
            early.ended = True
            return early
        reply = answer(line, root, version, early)
        if reply is None:
            early.pending.append(line)
            return early
        if reply:
            _write(fd_out, reply)
        wait = IDLE


def answer(line: bytes, root: Path, version: str, early: Early) -> bytes | None:
    """The reply to `line` (b"" for a notification the SDK is handed later), or None when the
    SDK must judge it."""
    message = _message(line)
    if message is None:
        return None
    method, ident = message["method"], message.get("id")
    if "id" not in message:
        if early.drop is None:
            return None  # before the handshake: the SDK decides what it means
        early.replay.append(line)
        return b""
    if method == "initialize" and early.drop is None:
        result = mcpshapes.initialized(message.get("params"), version)
        if result is None:
            return None
        early.replay.append(line)
        early.drop, early.answer = ident, _response(ident, result)
        return early.answer
    if early.drop is None or not _plain_params(message.get("params", {})):
        return None
    result = mcpshapes.listing(method, root)
    return None if result is None else _response(ident, result)


def _message(line: bytes) -> dict[str, Any] | None:
    """A JSON-RPC request or notification in its plainest form, else None."""
    try:
        message = json.loads(line)
    except (ValueError, UnicodeDecodeError):
        return None
    if not isinstance(message, dict) or message.get("jsonrpc") != "2.0":
        return None
    if not set(message) <= {"jsonrpc", "id", "method", "params"}:
        return None
    if not isinstance(message.get("method"), str):
        return None
    ident = message.get("id", 0)
    plain_id = isinstance(ident, str) or type(ident) is int
    return message if plain_id else None


def _plain_params(params: Any) -> bool:
    """No parameters but, at most, a progress token (which a listing never uses)."""
    if params == {}:
        return True
    meta = params.get("_meta") if isinstance(params, dict) and set(params) == {"_meta"} else None
    if not isinstance(meta, dict) or set(meta) != {"progressToken"}:
        return False
    token = meta["progressToken"]
    return isinstance(token, str) or type(token) is int


def _response(ident: int | str | None, result: dict[str, Any]) -> bytes:
    """The answer as the SDK's stdio transport writes it: compact JSON, UTF-8, one line."""
    body = {"jsonrpc": "2.0", "id": ident, "result": result}
    return json.dumps(body, ensure_ascii=False, separators=(",", ":")).encode() + b"\n"


def _line(fd: int, wait: float | None) -> bytes | None:
    """One line from `fd` (its newline kept; the last may lack one), b"" at its end, None when
    nothing arrived within `wait` seconds."""
    if wait is not None and not select.select([fd], [], [], wait)[0]:
        return None
    got = bytearray()
    while True:
        byte = os.read(fd, 1)
        got += byte
        if not byte or byte == b"\n":
            return bytes(got)


def _write(fd: int, data: bytes) -> None:
    view = memoryview(data)
    while view:
        view = view[os.write(fd, view) :]
