"""`majordomus mcp` seen by real MCP clients (`realclients.py`; skipped with the reason when
npm cannot install them): the MCP Inspector's own CLI lists the four tools, calls one and
lists the resources; Claude Code, with the server wired by `mcp install --provider
claude-code --write`, offers the model the server's tools in the request it sends to the
recording model server. The repository is byte-identical afterwards."""

from __future__ import annotations

import json
import os
import subprocess
from pathlib import Path

import pytest
import realclients
from conftest import Repo
from conftest import bin_dir

TOOLS = ["context", "get", "list", "search"]
WORD = "Ptarmigan"


@pytest.fixture
def wired(layer_repo: Repo, monkeypatch: pytest.MonkeyPatch) -> Repo:
    """An adopted repository with records to find and `.mcp.json` naming the server, whose
    `majordomus` the clients find on PATH."""
    monkeypatch.setenv("PATH", f"{bin_dir()}{os.pathsep}{os.environ.get('PATH', '')}")
    assert layer_repo.mj("start", f"count the {WORD}s", "--scope", "lib").code == 0
    assert layer_repo.mj("decision", "add", f"count {WORD}s", "--why", "winter").code == 0
    installed = layer_repo.mj("mcp", "install", "--provider", "claude-code", "--write")
    assert installed.code == 0, installed
    return layer_repo


def _tree(root: Path) -> dict[str, bytes]:
    return {
        path.relative_to(root).as_posix(): path.read_bytes()
        for path in sorted(root.rglob("*"))
        if path.is_file() and not path.is_symlink()
    }


def _inspector(prefix: Path, repo: Repo, *args: str) -> dict[str, object]:
    argv = [str(prefix / "node_modules" / ".bin" / "mcp-inspector"), "--cli"]
    argv += [str(bin_dir() / "majordomus"), "mcp", *args]
    proc = subprocess.run(
        argv,
        cwd=repo.root,
        env={**repo.env, "PATH": os.environ["PATH"]},
        capture_output=True,
        text=True,
        timeout=realclients.TIMEOUT,
        check=False,
    )
    assert proc.returncode == 0, proc.stderr
    found: dict[str, object] = json.loads(proc.stdout)
    return found


def test_the_mcp_inspector_cli_lists_the_tools_and_calls_search(wired: Repo) -> None:
    prefix = realclients.extra("mcp-inspector")
    before = _tree(wired.root)
    listed = _inspector(prefix, wired, "--method", "tools/list")
    tools = listed["tools"]
    assert isinstance(tools, list)
    assert sorted(tool["name"] for tool in tools) == TOOLS
    called = _inspector(
        prefix,
        wired,
        "--method",
        "tools/call",
        "--tool-name",
        "search",
        "--tool-arg",
        f"text={WORD}",
    )
    content = called["content"]
    assert isinstance(content, list)
    text = content[0]["text"]
    assert f"count {WORD}s" in text and text.endswith("match(es)\n")
    resources = _inspector(prefix, wired, "--method", "resources/list")["resources"]
    assert isinstance(resources, list)
    assert "majordomus://decision/1" in [resource["uri"] for resource in resources]
    assert _tree(wired.root) == before


def test_claude_code_offers_the_model_the_servers_tools(wired: Repo) -> None:
    prefix = realclients.clients()
    home = Path(wired.env["HOME"])
    settings = home / ".claude" / "settings.json"
    settings.parent.mkdir(parents=True, exist_ok=True)
    # the person's approval of the project's .mcp.json servers, as Claude Code records it
    settings.write_text(json.dumps({"enableAllProjectMcpServers": True}), encoding="utf-8")
    before = _tree(wired.root)
    with realclients.Recorder() as server:
        # print mode connects MCP servers in the background unless told to wait for them
        more = {"MCP_CONNECTION_NONBLOCKING": "0"}
        run = realclients.run_claude(prefix, wired.root, home, server, more=more)
    assert run.returncode == 0, run.stderr
    assert server.requests, "the client sent nothing to the recording server"
    offered = {
        str(tool.get("name"))
        for request in server.requests
        for tool in request["body"].get("tools") or []
    }
    assert {f"mcp__majordomus__{name}" for name in TOOLS} <= offered, sorted(offered)
    assert _tree(wired.root) == before


def _offered(server: realclients.Recorder) -> set[str]:
    """The names of the tools the client offered its model, a namespace's tools within it."""
    names = set()
    for request in server.requests:
        for tool in request["body"].get("tools") or []:
            for declared in tool.get("functionDeclarations") or []:  # Gemini
                names.add(str(declared["name"]))
            for inner in tool.get("tools") or []:  # a Codex namespace
                names.add(f"{tool['name']}__{inner.get('name')}")
            names.add(str(tool.get("name")))
    return names


@pytest.fixture
def records(layer_repo: Repo, monkeypatch: pytest.MonkeyPatch) -> Repo:
    monkeypatch.setenv("PATH", f"{bin_dir()}{os.pathsep}{os.environ.get('PATH', '')}")
    assert layer_repo.mj("decision", "add", f"count {WORD}s", "--why", "winter").code == 0
    return layer_repo


def test_headless_gemini_offers_the_tools_with_the_entry_mcp_install_writes(
    records: Repo,
) -> None:
    prefix = realclients.clients()
    installed = records.mj("mcp", "install", "--provider", "gemini", "--write")
    assert installed.code == 0 and "trusted folder" in installed.out, installed
    # the folder is trusted as its `then:` says (GEMINI_CLI_TRUST_WORKSPACE, set by run_gemini)
    with realclients.Recorder() as server:
        run = realclients.run_gemini(prefix, records.root, Path(records.env["HOME"]), server)
    assert run.returncode == 0, run.stderr
    assert {f"mcp_majordomus_{name}" for name in TOOLS} <= _offered(server)


def test_codex_starts_the_server_once_the_project_is_trusted(records: Repo) -> None:
    prefix = realclients.clients()
    installed = records.mj("mcp", "install", "--provider", "codex", "--write")
    assert installed.code == 0 and "only in a project it trusts" in installed.out, installed
    home = Path(records.env["HOME"])
    wanted = {f"mcp__majordomus__{name}" for name in TOOLS}
    with realclients.Recorder() as server:
        untrusted = realclients.run_codex(prefix, records.root, home, server)
    assert untrusted.returncode == 0, untrusted.stderr
    assert not wanted & _offered(server)  # what the note says: not trusted, not started
    with realclients.Recorder() as server:
        trusted = realclients.run_codex(prefix, records.root, home, server, flags=("--trust",))
    assert trusted.returncode == 0, trusted.stderr
    assert wanted <= _offered(server), sorted(_offered(server))
