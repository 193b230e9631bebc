"""The handshake `majordomus mcp` answers before the SDK loads is byte-equal to the SDK's own.

The SDK's answer is taken from the SDK's stdio transport itself (`stdio_server` with streams
handed in, so its own reading and writing of lines run) over the server `mcp.server.build`
makes; the early answer from `mcp.early.answer` on the same line. A request the early path
leaves to the SDK (None) is always allowed; an early answer that differs never is.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import anyio
import pytest
from hypothesis import HealthCheck
from hypothesis import event
from hypothesis import given
from hypothesis import settings
from hypothesis import strategies as st
from majordomus.mcp import early as mcpearly
from majordomus.mcp import shapes as mcpshapes

VERSION = "0.1.0"
INITIALIZED = '{"jsonrpc":"2.0","method":"notifications/initialized"}\n'
# what the real clients sent as their first line (recorded from Claude Code 2.1.197, Gemini
# CLI 0.61.0 and Codex CLI 0.171.0 against this server), and the plainest request
REAL = {
    "codex": '{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":'
    '"2025-06-18","capabilities":{"experimental":{"codex/auth-change":{}},"elicitation":{"form"'
    ':{},"url":{}}},"clientInfo":{"name":"codex-mcp-client","title":"Codex","version":'
    '"0.171.0"}}}',
    "gemini": '{"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":'
    '{"roots":{"listChanged":true}},"clientInfo":{"name":"gemini-cli-mcp-client","version":'
    '"0.61.0"}},"jsonrpc":"2.0","id":0}',
    "claude-code": '{"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":'
    '{"roots":{},"elicitation":{}},"clientInfo":{"name":"claude-code","title":"Claude Code",'
    '"version":"2.1.197","description":"Anthropic\'s agentic coding tool","websiteUrl":'
    '"https://claude.com/claude-code"}},"jsonrpc":"2.0","id":0}',
    "plain": '{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":'
    '"2025-06-18","capabilities":{},"clientInfo":{"name":"bench","version":"1"}}}',
}


class _Lines:
    """Standard input for the SDK's transport: the lines given, then open until told."""

    def __init__(self, lines: list[str]) -> None:
        self.lines, self.closed = list(lines), anyio.Event()

    def __aiter__(self) -> _Lines:
        return self

    async def __anext__(self) -> str:
        if self.lines:
            return self.lines.pop(0)
        await self.closed.wait()
        raise StopAsyncIteration


class _Written:
    def __init__(self, want: int) -> None:
        self.lines: list[str] = []
        self.want, self.enough = want, anyio.Event()

    async def write(self, text: str) -> None:
        self.lines.append(text)
        if len(self.lines) >= self.want:
            self.enough.set()

    async def flush(self) -> None:
        return None


def sdk(root: Path, lines: list[str], want: int) -> list[bytes]:
    """What the SDK's own server and transport write for `lines` (the first `want` lines)."""
    from majordomus.mcp import server as mcpserver
    from mcp.server.stdio import stdio_server

    async def main() -> list[str]:
        server = mcpserver.build(root, VERSION)
        given, written = _Lines(lines), _Written(want)
        transport = stdio_server(stdin=given, stdout=written)  # type: ignore[arg-type]
        async with transport as (reads, writes), anyio.create_task_group() as group:
            options = server.create_initialization_options()
            group.start_soon(server.run, reads, writes, options)
            with anyio.move_on_after(30):
                await written.enough.wait()
            given.closed.set()
        return written.lines

    return [line.encode() for line in anyio.run(main)]


def early(root: Path, lines: list[str]) -> list[bytes | None]:
    state = mcpearly.Early()
    return [mcpearly.answer(line.encode(), root, VERSION, state) for line in lines]


@pytest.fixture(scope="module")
def root(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """An adopted repository with a record to list."""
    path = tmp_path_factory.mktemp("repo")
    env = {**os.environ, "GIT_CONFIG_GLOBAL": "/dev/null", "GIT_CONFIG_NOSYSTEM": "1"}
    env.update({"GIT_AUTHOR_NAME": "t", "GIT_AUTHOR_EMAIL": "t@example.invalid"})
    env.update({"GIT_COMMITTER_NAME": "t", "GIT_COMMITTER_EMAIL": "t@example.invalid"})
    mj = str(Path(sys.executable).parent / "majordomus")
    for argv in (
        ["git", "init", "-q", "-b", "main"],
        [mj, "init"],
        [mj, "decision", "add", "Ptarmigans — « winter » \u2028 \u00e9", "--why", "snow"],
    ):
        subprocess.run(argv, cwd=path, env=env, check=True, capture_output=True)
    return path


def test_the_handshake_versions_are_the_sdks() -> None:
    from mcp_types import version

    assert mcpshapes.HANDSHAKE == version.HANDSHAKE_PROTOCOL_VERSIONS


@pytest.mark.parametrize("asked", [*mcpshapes.HANDSHAKE, "2026-07-28", "1999-01-01"])
@pytest.mark.parametrize("ident", [1, 0, "a-string", 2**40])
def test_initialize_and_both_listings_are_the_sdks_bytes(
    root: Path, asked: str, ident: int | str
) -> None:
    request = json.loads(REAL["plain"])
    request["id"], request["params"]["protocolVersion"] = ident, asked
    lines = [
        json.dumps(request) + "\n",
        INITIALIZED,
        '{"jsonrpc":"2.0","id":"t","method":"tools/list"}\n',
        '{"jsonrpc":"2.0","id":7,"method":"resources/list","params":{}}\n',
    ]
    ours = early(root, lines)
    assert ours[1] == b""  # a notification is handed to the SDK, never answered
    assert [ours[0], ours[2], ours[3]] == sdk(root, lines, 3)


@pytest.mark.parametrize(
    "params",
    [{"_meta": {"progressToken": 0}}, {"_meta": {"progressToken": "p"}}, {"cursor": "0"}],
)
def test_a_listing_with_a_progress_token_is_the_sdks(root: Path, params: dict[str, Any]) -> None:
    lines = [
        REAL["plain"] + "\n",
        INITIALIZED,
        json.dumps({"jsonrpc": "2.0", "id": 1, "method": "tools/list", "params": params}) + "\n",
        json.dumps({"jsonrpc": "2.0", "id": 2, "method": "resources/list", "params": params})
        + "\n",
    ]
    ours = early(root, lines)
    if "cursor" in params:  # a page is the SDK's to give
        assert ours[2:] == [None, None]
        return
    assert [ours[0], *ours[2:]] == sdk(root, lines, 3)


@pytest.mark.parametrize("client", sorted(REAL))
def test_what_real_clients_send_is_answered_early_as_the_sdk_answers(
    root: Path, client: str
) -> None:
    line = REAL[client] + "\n"
    ours = early(root, [line])[0]
    assert ours is not None, "a real client's handshake must not wait for the SDK"
    assert [ours] == sdk(root, [line], 1)


def test_nothing_is_answered_early_before_the_handshake(root: Path) -> None:
    assert early(root, ['{"jsonrpc":"2.0","id":2,"method":"tools/list"}\n']) == [None]
    assert early(root, [INITIALIZED]) == [None]


def _mostly(usual: st.SearchStrategy[Any], other: st.SearchStrategy[Any]) -> Any:
    """`usual` four times in five, else `other`."""
    return st.integers(0, 4).flatmap(lambda pick: usual if pick else other)


_scalar = st.one_of(st.none(), st.booleans(), st.integers(), st.text(max_size=5), st.floats())
_json = st.recursive(
    _scalar,
    lambda inner: st.one_of(
        st.lists(inner, max_size=3), st.dictionaries(st.text(max_size=6), inner, max_size=3)
    ),
    max_leaves=6,
)
_flags = st.dictionaries(st.sampled_from(["listChanged", "form", "url", "context", "x"]), _json)
_plausible = st.sampled_from(
    [
        *({}, {"listChanged": True}, {"listChanged": False}, {"form": {}}, {"url": {}}),
        *({"form": {}, "url": {}}, {"listChanged": 1}, {"listChanged": "yes"}, {"a": 1}),
        *({"url": None}, {"tools": {}}, {"context": {}}, []),
    ]
)
_caps = st.one_of(
    st.dictionaries(st.sampled_from(["roots", "elicitation", "sampling"]), _plausible),
    st.dictionaries(
        st.sampled_from(["roots", "elicitation", "sampling", "experimental", "tasks", "zzz"]),
        st.one_of(_plausible, _flags, _json),
        max_size=3,
    ),
)
_valid_caps = st.fixed_dictionaries(
    {},
    optional={
        "experimental": st.dictionaries(st.text(max_size=8), st.one_of(st.just({}), _json)),
        "roots": st.sampled_from([{}, {"listChanged": True}, {"listChanged": False}]),
        "elicitation": st.sampled_from([{}, {"form": {}}, {"url": {}}, {"form": {}, "url": {}}]),
        "sampling": st.just({}),
    },
)
_text = st.text(max_size=8)
_valid_info = st.fixed_dictionaries(
    {"name": _text, "version": _text},
    optional={"title": _text, "description": _text, "websiteUrl": _text},
)
_extra_info = st.dictionaries(
    st.sampled_from(["title", "websiteUrl", "description", "icons", "other"]),
    st.one_of(_text, _text, st.just("https://example.invalid/x"), _json),
    max_size=3,
)
_info = st.builds(
    lambda base, extra: {**base, **extra},
    st.fixed_dictionaries(
        {}, optional={"name": st.one_of(_text, _json), "version": st.one_of(_text, _json)}
    ),
    st.one_of(st.just({}), _extra_info),
)
_params = st.builds(
    lambda version, caps, info, extra: {
        "protocolVersion": version,
        "capabilities": caps,
        "clientInfo": info,
        **extra,
    },
    _mostly(st.sampled_from([*mcpshapes.HANDSHAKE, "2026-07-28"]), st.one_of(_text, _json)),
    _mostly(_valid_caps, st.one_of(_caps, _json)),
    _mostly(_valid_info, st.one_of(_info, _json)),
    _mostly(st.just({}), st.dictionaries(st.sampled_from(["_meta", "x"]), _json)),
)


@settings(
    max_examples=200, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(params=_params, ident=st.one_of(st.integers(), st.text(max_size=4), st.integers(), _json))
def test_an_early_handshake_answer_is_always_the_sdks(
    root: Path, params: dict[str, Any], ident: Any
) -> None:
    line = json.dumps({"jsonrpc": "2.0", "id": ident, "method": "initialize", "params": params})
    ours = early(root, [line + "\n"])[0]
    event("left to the SDK" if ours is None else "answered early")
    if ours is None:
        return  # always allowed
    assert [ours] == sdk(root, [line + "\n"], 1)
