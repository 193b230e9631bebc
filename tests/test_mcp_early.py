"""`majordomus mcp` answers the handshake before it loads the MCP SDK, and hands the rest to it.

Seen from outside: the process's own import log (`PYTHONPROFILEIMPORTTIME`) shows no SDK module
when a client only shook hands and listed; a tool call after that is answered by the SDK, and
the handshake's answer is sent once, never twice.
"""

from __future__ import annotations

import json
import re
import subprocess
import tempfile
from typing import Any

from conftest import Repo
from conftest import exe

IMPORTED = re.compile(r"^import time:\s+\d+ \|\s+\d+ \|\s*(\S+)$", re.M)
SDK = ("mcp", "mcp_types", "pydantic", "anyio")
HANDSHAKE = [
    {
        "jsonrpc": "2.0",
        "id": 1,
        "method": "initialize",
        "params": {
            "protocolVersion": "2025-06-18",
            "capabilities": {"roots": {"listChanged": True}},
            "clientInfo": {"name": "test", "version": "1"},
        },
    },
    {"jsonrpc": "2.0", "method": "notifications/initialized"},
    {"jsonrpc": "2.0", "id": 2, "method": "tools/list"},
    {"jsonrpc": "2.0", "id": 3, "method": "resources/list"},
]
CALL = {
    "jsonrpc": "2.0",
    "id": 4,
    "method": "tools/call",
    "params": {"name": "search", "arguments": {"text": "Merlin"}},
}


def _serve(repo: Repo, messages: list[dict[str, Any]]) -> tuple[list[dict[str, Any]], set[str]]:
    """Every message on stdin at once; input closed once every request is answered (as a
    client does); (the answers, the modules imported)."""
    env = {**repo.env, "PYTHONPROFILEIMPORTTIME": "1"}
    asked = sum("id" in message for message in messages)
    # the import log is longer than a pipe holds: it goes to a file
    with (
        tempfile.TemporaryFile("w+") as log,
        subprocess.Popen(
            [exe("majordomus"), "mcp"],
            cwd=repo.root,
            env=env,
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=log,
            text=True,
        ) as server,
    ):
        assert server.stdin and server.stdout
        server.stdin.write("".join(json.dumps(message) + "\n" for message in messages))
        server.stdin.flush()
        answers = [json.loads(server.stdout.readline()) for _ in range(asked)]
        server.stdin.close()
        assert server.stdout.read() == ""  # nothing more, and never a second handshake answer
        code = server.wait(timeout=60)
        log.seek(0)
        logged = log.read()
        assert code == 0, logged[-2000:]
    modules = {name.split(".")[0] for name in IMPORTED.findall(logged)}
    return answers, modules


def test_a_handshake_and_the_listings_need_no_sdk(layer_repo: Repo) -> None:
    answers, modules = _serve(layer_repo, HANDSHAKE)
    assert [answer["id"] for answer in answers] == [1, 2, 3]
    assert answers[0]["result"]["serverInfo"]["name"] == "majordomus"
    names = [tool["name"] for tool in answers[1]["result"]["tools"]]
    assert sorted(names) == ["context", "get", "list", "search"]
    assert answers[2]["result"]["resources"]
    assert not modules & set(SDK), sorted(modules & set(SDK))


def test_a_tool_call_after_it_is_the_sdks_and_the_handshake_is_answered_once(
    layer_repo: Repo,
) -> None:
    assert layer_repo.mj("decision", "add", "ring Merlin", "--why", "dusk").code == 0
    answers, modules = _serve(layer_repo, [*HANDSHAKE, CALL])
    assert [answer["id"] for answer in answers] == [1, 2, 3, 4]
    text = answers[3]["result"]["content"][0]["text"]
    assert "ring Merlin" in text
    assert "mcp" in modules  # the call was the SDK's to answer


def test_a_request_before_the_handshake_is_the_sdks_to_refuse(layer_repo: Repo) -> None:
    answers, modules = _serve(layer_repo, [HANDSHAKE[2], HANDSHAKE[0]])
    assert [answer["id"] for answer in answers] == [2, 1]
    assert "error" in answers[0] and "result" in answers[1]
    assert "mcp" in modules
