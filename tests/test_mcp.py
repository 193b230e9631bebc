"""`majordomus mcp`: the read-only MCP server, driven by the MCP Python SDK's own stdio client.

Initialise; list the four tools; list every resource page by page and read them; call each
tool; a path-shaped id refused and an unknown resource answered with a protocol error, after
which the server still answers; the repository, `.ai/` and the ledger byte-identical after the
session; no socket open; the process gone when its client closes its input.
"""

from __future__ import annotations

import json
import os
import subprocess
import time
from pathlib import Path
from typing import Any

import pytest
from conftest import Repo
from conftest import exe

anyio = pytest.importorskip("anyio")
mcp = pytest.importorskip("mcp")
from mcp.client.session import ClientSession  # noqa: E402
from mcp.client.stdio import StdioServerParameters  # noqa: E402
from mcp.client.stdio import stdio_client  # noqa: E402
from mcp.shared.exceptions import MCPError  # noqa: E402

WORD = "Kestrel"
HANDOVER = f"# Objective\nWatch the {WORD}.\n# Current State\nok\n# Next Action\nnone\n"
ISSUES = 120  # plan files enough for resources/list to need more than one page
INITIALIZE = {
    "jsonrpc": "2.0",
    "id": 1,
    "method": "initialize",
    "params": {
        "protocolVersion": "2025-06-18",
        "capabilities": {},
        "clientInfo": {"name": "test", "version": "1"},
    },
}


@pytest.fixture
def served(layer_repo: Repo) -> Repo:
    repo = layer_repo
    for number in range(1, ISSUES + 1):
        repo.write(f".ai/repo/project/issues/I{number:03d}.yaml", f"id: I{number:03d}\n")
    repo.commit("plan files")
    for args, stdin in (
        (("start", f"ring the {WORD}", "--scope", "lib"), None),
        (("checkpoint",), f"{WORD} seen\n"),
        (("handover",), HANDOVER),
        (("decision", "add", f"feed the {WORD}", "--why", "hungry"), None),
        (("question", "add", f"which {WORD}?"), None),
    ):
        result = repo.mj(*args, stdin=stdin)
        assert result.code == 0, (args, result)
    return repo


def _session(repo: Repo, body: Any) -> Any:
    """Run `body(session)` inside one initialised session with `majordomus mcp` in `repo`."""
    params = StdioServerParameters(
        command=exe("majordomus"), args=["mcp"], cwd=str(repo.root), env=repo.env
    )

    async def main() -> Any:
        with open(os.devnull, "w") as errlog:
            async with (
                stdio_client(params, errlog=errlog) as (read, write),
                ClientSession(read, write) as session,
            ):
                await session.initialize()
                return await body(session)

    return anyio.run(main)


def _text(result: Any) -> str:
    return "".join(block.text for block in result.content)


def _tree(root: Path) -> dict[str, bytes]:
    """Every file of the repository, `.git` included, by path: bytes and mode."""
    out = {}
    for path in sorted(root.rglob("*")):
        if path.is_file() and not path.is_symlink():
            out[path.relative_to(root).as_posix()] = (
                path.read_bytes() + oct(path.stat().st_mode).encode()
            )
    return out


def test_initialise_and_list_the_four_tools(served: Repo) -> None:
    async def body(session: ClientSession) -> Any:
        return await session.list_tools()

    listed = _session(served, body)
    assert sorted(tool.name for tool in listed.tools) == ["context", "get", "list", "search"]
    assert all(0 < len(tool.description or "") <= 100 for tool in listed.tools)


def test_resources_are_paginated_and_each_one_reads(served: Repo) -> None:
    async def body(session: ClientSession) -> Any:
        from mcp.types import PaginatedRequestParams

        pages, cursor = [], None
        while True:
            params = PaginatedRequestParams(cursor=cursor) if cursor else None
            page = await session.list_resources(params=params)
            pages.append(page.resources)
            cursor = page.next_cursor
            if not cursor:
                break
        handover = next(
            r for page in pages for r in page if r.uri.startswith("majordomus://handover/")
        )
        read = await session.read_resource(handover.uri)
        decision = await session.read_resource("majordomus://decision/1")
        issue = await session.read_resource("majordomus://plan/I007")
        return pages, read, decision, issue

    pages, read, decision, issue = _session(served, body)
    assert len(pages) >= 2 and all(len(page) <= 100 for page in pages)
    uris = [resource.uri for page in pages for resource in page]
    assert len(uris) == len(set(uris))
    kinds = {uri.split("/")[2] for uri in uris}
    assert kinds >= {
        "handover",
        "checkpoint",
        "decision",
        "question",
        "prompt",
        "ledger",
        "plan",
        "policy",
        "profile",
        "rule",
    }
    handover_file = next((served.root / ".ai/local/state/handovers").glob("*.md"))
    assert read.contents[0].text == handover_file.read_text()
    assert (
        decision.contents[0].text.startswith("## ")
        and f"feed the {WORD}" in decision.contents[0].text
    )
    assert issue.contents[0].text == "id: I007\n"


def test_each_tool_answers(served: Repo) -> None:
    async def body(session: ClientSession) -> Any:
        found = await session.call_tool(
            "search", {"text": WORD.lower(), "kind": ["handover", "decision"]}
        )
        nothing = await session.call_tool("search", {"text": "no such text at all"})
        listed = await session.call_tool("list", {"kind": "question"})
        got = await session.call_tool("get", {"uri": "majordomus://question/1"})
        briefing = await session.call_tool("context", {})
        return found, nothing, listed, got, briefing

    found, nothing, listed, got, briefing = _session(served, body)
    lines = _text(found).splitlines()
    assert not found.is_error and lines[-1] == "search: 2 match(es)"
    assert lines[0].startswith("handover") and lines[1].startswith("decision")
    assert not nothing.is_error and _text(nothing) == "search: 0 match(es)\n"
    assert _text(listed).startswith(f"majordomus://question/1  which {WORD}?")
    assert f"which {WORD}?" in _text(got) and not got.is_error
    assert not briefing.is_error and f"ring the {WORD}" in _text(briefing)


@pytest.mark.parametrize(
    "uri",
    [
        "majordomus://handover/../../../etc/passwd",
        "majordomus://handover/..",
        "majordomus://prompt//etc/passwd",
        "majordomus://rule/vendor/majordomus/manifest.yaml",
    ],
)
def test_a_path_escape_is_refused(served: Repo, uri: str) -> None:
    async def body(session: ClientSession) -> Any:
        with pytest.raises(MCPError) as refused:
            await session.read_resource(uri)
        as_tool = await session.call_tool("get", {"uri": uri})
        alive = await session.list_tools()
        return refused.value, as_tool, alive

    refused, as_tool, alive = _session(served, body)
    assert "path escape is refused" in refused.message
    assert as_tool.is_error and "path escape is refused" in _text(as_tool)
    assert len(alive.tools) == 4


def test_a_linked_record_is_not_followed(served: Repo, tmp_path: Path) -> None:
    outside = tmp_path / "secret.md"
    outside.write_text("secret\n")
    name = "20990101T000000Z--main--0000000--0000000000000000"
    os.symlink(outside, served.root / f".ai/local/state/handovers/{name}.md")

    async def body(session: ClientSession) -> Any:
        with pytest.raises(MCPError) as refused:
            await session.read_resource(f"majordomus://handover/{name}")
        return refused.value

    assert "not followed" in _session(served, body).message


@pytest.mark.parametrize(
    "uri",
    ["majordomus://handover/nope", "majordomus://wiki/1", "file:///etc/passwd", "majordomus://"],
)
def test_an_unknown_resource_is_a_protocol_error(served: Repo, uri: str) -> None:
    async def body(session: ClientSession) -> Any:
        with pytest.raises(MCPError) as unknown:
            await session.read_resource(uri)
        after = await session.call_tool("search", {"text": WORD})
        return unknown.value, after

    unknown, after = _session(served, body)
    assert unknown.message and "Traceback" not in unknown.message
    assert not after.is_error  # the server is still there


def test_a_session_of_calls_writes_nothing(served: Repo) -> None:
    before = _tree(served.root)
    status = served.git("status", "--porcelain", "--ignored")

    async def body(session: ClientSession) -> Any:
        from mcp.types import PaginatedRequestParams

        await session.list_tools()
        cursor = None
        while True:
            page = await session.list_resources(
                params=PaginatedRequestParams(cursor=cursor) if cursor else None
            )
            for resource in page.resources[:20]:
                await session.read_resource(resource.uri)
            cursor = page.next_cursor
            if not cursor:
                break
        for name, arguments in (
            ("search", {"text": WORD}),
            ("search", {"text": WORD, "task": "t-00000000000000-0000", "limit": 1}),
            ("context", {}),
            ("list", {"kind": "ledger"}),
            ("get", {"uri": "majordomus://ledger/1"}),
            ("get", {"uri": "majordomus://handover/../x"}),
        ):
            await session.call_tool(name, arguments)

    _session(served, body)
    assert _tree(served.root) == before
    assert served.git("status", "--porcelain", "--ignored") == status


def test_no_port_and_it_ends_with_its_client(served: Repo) -> None:
    proc = subprocess.Popen(
        [exe("majordomus"), "mcp"],
        cwd=served.root,
        env=served.env,
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,
    )
    try:
        assert proc.stdin is not None and proc.stdout is not None
        proc.stdin.write((json.dumps(INITIALIZE) + "\n").encode())
        proc.stdin.flush()
        reply = json.loads(proc.stdout.readline())
        assert reply["id"] == 1 and reply["result"]["serverInfo"]["name"] == "majordomus"
        assert not _network_sockets(proc.pid)
        proc.stdin.close()
        started = time.monotonic()
        assert proc.wait(timeout=10) == 0
        assert time.monotonic() - started < 10
    finally:
        if proc.poll() is None:
            proc.kill()


def test_a_client_gone_mid_reply_ends_it_quietly(served: Repo) -> None:
    proc = subprocess.Popen(
        [exe("majordomus"), "mcp"],
        cwd=served.root,
        env=served.env,
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
    )
    assert proc.stdin is not None and proc.stdout is not None and proc.stderr is not None
    proc.stdin.write((json.dumps(INITIALIZE) + "\n").encode())
    proc.stdin.close()
    proc.stdout.close()  # gone before the reply is written
    try:
        assert proc.wait(timeout=20) == 0
    finally:
        if proc.poll() is None:
            proc.kill()
    said = proc.stderr.read().decode()
    assert "internal error" not in said and "Traceback" not in said, said


def _network_sockets(pid: int) -> set[str]:
    """The inodes of the process's TCP and UDP sockets (an event loop's socket pair, a Unix
    socket, is no port)."""
    fds = os.listdir(f"/proc/{pid}/fd")
    links = {os.readlink(f"/proc/{pid}/fd/{fd}") for fd in fds}
    mine = {link[8:-1] for link in links if link.startswith("socket:[")}
    network = set()
    for table in ("tcp", "tcp6", "udp", "udp6"):
        try:
            rows = Path(f"/proc/{pid}/net/{table}").read_text().splitlines()[1:]
        except FileNotFoundError:
            continue
        network |= {row.split()[9] for row in rows if len(row.split()) > 9}
    return mine & network


def test_without_a_layer_it_is_12_before_serving(git_repo: Repo) -> None:
    result = git_repo.mj("mcp")
    assert result.code == 12, result
    assert len(result.err.splitlines()) == 1 and "Traceback" not in result.err
