"""`majordomus mcp install --provider <p>`: each client's project configuration for the server,
printed, or added with `--write` without overwriting anything; `doctor` reports each one as
wired or not.
"""

from __future__ import annotations

import json
import tomllib

import pytest
from conftest import Repo

ENTRY = {"command": "majordomus", "args": ["mcp"]}
# what a client's row adds to the entry: Gemini CLI offers a headless run an MCP server's tools
# only when they need no confirmation (`trust`)
ADDED = {"gemini": {"trust": True}}
CLIENTS = [
    ("claude-code", ".mcp.json"),
    ("codex", ".codex/config.toml"),
    ("gemini", ".gemini/settings.json"),
    ("cursor", ".cursor/mcp.json"),
]


def _servers(repo: Repo, config: str) -> dict[str, object]:
    text = (repo.root / config).read_text()
    if config.endswith(".toml"):
        return dict(tomllib.loads(text)["mcp_servers"])
    return dict(json.loads(text)["mcpServers"])


@pytest.mark.parametrize(("provider", "config"), CLIENTS)
def test_print_names_the_file_and_writes_nothing(
    layer_repo: Repo, provider: str, config: str
) -> None:
    result = layer_repo.mj("mcp", "install", "--provider", provider)
    assert result.code == 0, result
    assert result.out.startswith(f"# add to {config} ({provider}):\n")
    snippet = result.out.split("\n", 1)[1].split("\nthen: ", 1)[0]
    parsed = (
        tomllib.loads(snippet)["mcp_servers"]
        if config.endswith(".toml")
        else json.loads(snippet)["mcpServers"]
    )
    assert parsed == {"majordomus": {**ENTRY, **ADDED.get(provider, {})}}
    assert not (layer_repo.root / config).exists()
    assert layer_repo.git("status", "--porcelain") == ""


@pytest.mark.parametrize(("provider", "config"), CLIENTS)
def test_write_creates_then_is_idempotent(layer_repo: Repo, provider: str, config: str) -> None:
    result = layer_repo.mj("mcp", "install", "--provider", provider, "--write")
    assert result.code == 0, result
    assert result.out.startswith(f"wrote: {config} (majordomus mcp for {provider})\n")
    assert _servers(layer_repo, config) == {"majordomus": {**ENTRY, **ADDED.get(provider, {})}}
    before = (layer_repo.root / config).read_bytes()
    again = layer_repo.mj("mcp", "install", "--provider", provider, "--write")
    assert again.code == 0 and "nothing to do" in again.out
    assert (layer_repo.root / config).read_bytes() == before
    doctor = layer_repo.mj("doctor")
    assert f"OK   mcp         {config} — {provider}: wired" in doctor.out, doctor.out


def test_write_adds_beside_what_is_there(layer_repo: Repo) -> None:
    layer_repo.write(
        ".mcp.json", json.dumps({"mcpServers": {"other": {"command": "x"}}, "keep": 1})
    )
    layer_repo.write(".codex/config.toml", 'model = "m"\n\n[mcp_servers.other]\ncommand = "x"\n')
    assert layer_repo.mj("mcp", "install", "--provider", "claude-code", "--write").code == 0
    assert layer_repo.mj("mcp", "install", "--provider", "codex", "--write").code == 0
    claude = json.loads((layer_repo.root / ".mcp.json").read_text())
    assert claude == {"mcpServers": {"other": {"command": "x"}, "majordomus": ENTRY}, "keep": 1}
    codex_text = (layer_repo.root / ".codex/config.toml").read_text()
    assert codex_text.startswith('model = "m"\n\n[mcp_servers.other]\ncommand = "x"\n')
    codex = tomllib.loads(codex_text)
    assert codex["model"] == "m" and codex["mcp_servers"] == {
        "other": {"command": "x"},
        "majordomus": ENTRY,
    }


def test_a_different_entry_is_refused_and_kept(layer_repo: Repo) -> None:
    text = json.dumps({"mcpServers": {"majordomus": {"command": "something-else"}}})
    layer_repo.write(".cursor/mcp.json", text)
    result = layer_repo.mj("mcp", "install", "--provider", "cursor", "--write")
    assert result.code == 15, result
    assert "nothing was overwritten" in result.err and len(result.err.splitlines()) == 1
    assert (layer_repo.root / ".cursor/mcp.json").read_text() == text
    doctor = layer_repo.mj("doctor")
    assert "WARN mcp         .cursor/mcp.json — cursor: not wired" in doctor.out, doctor.out


def test_a_malformed_file_is_10_naming_it(layer_repo: Repo) -> None:
    layer_repo.write(".gemini/settings.json", '{"mcpServers": {\n  "x": \n}\n')
    result = layer_repo.mj("mcp", "install", "--provider", "gemini", "--write")
    assert result.code == 10, result
    assert result.err.startswith("majordomus: .gemini/settings.json:3: not JSON")
    doctor = layer_repo.mj("doctor")
    assert "WARN mcp         .gemini/settings.json — gemini: not wired" in doctor.out, doctor.out


def test_doctor_says_not_wired_and_how(layer_repo: Repo) -> None:
    layer_repo.write(".mcp.json", json.dumps({"mcpServers": {}}))
    doctor = layer_repo.mj("doctor")
    line = next(line for line in doctor.out.splitlines() if " mcp " in line)
    assert line.startswith("INFO mcp         .mcp.json — claude-code: not wired")
    assert line.endswith("[reproduce: majordomus mcp install --provider claude-code]")
    assert not [
        line
        for line in layer_repo.mj("doctor").out.splitlines()
        if "mcp" in line and ".cursor" in line
    ]


def test_an_unknown_provider_is_a_usage_error(layer_repo: Repo) -> None:
    assert layer_repo.mj("mcp", "install", "--provider", "windsurf").code == 2
    assert layer_repo.mj("mcp", "install").code == 2


def test_a_linked_config_is_refused(layer_repo: Repo, tmp_path) -> None:
    outside = tmp_path / "elsewhere.json"
    outside.write_text("{}")
    (layer_repo.root / ".mcp.json").symlink_to(outside)
    result = layer_repo.mj("mcp", "install", "--provider", "claude-code", "--write")
    assert result.code == 15, result
    assert outside.read_text() == "{}"


@pytest.mark.parametrize(
    ("provider", "needs"),
    [
        ("codex", "Codex reads .codex/config.toml only in a project it trusts"),
        ("gemini", "`gemini -p` runs only in a trusted folder"),
        ("claude-code", "an interactive `claude` asks once to approve the project's servers"),
    ],
)
def test_what_else_a_client_needs_is_said_when_printed_and_written(
    layer_repo: Repo, provider: str, needs: str
) -> None:
    for args in ((), ("--write",), ("--write",)):
        result = layer_repo.mj("mcp", "install", "--provider", provider, *args)
        assert result.code == 0, result
        then = result.out.split("\nthen: ", 1)[1]
        assert needs in then, result.out
    records = layer_repo.mj("mcp", "install", "--provider", provider, "--json").out.splitlines()
    assert needs in json.loads(records[0])["needs"]


def test_an_entry_without_what_the_row_adds_is_kept_and_named(layer_repo: Repo) -> None:
    text = json.dumps({"mcpServers": {"majordomus": ENTRY}})
    layer_repo.write(".gemini/settings.json", text)
    result = layer_repo.mj("mcp", "install", "--provider", "gemini", "--write")
    assert result.code == 0, result
    assert "already starts majordomus mcp; nothing to do" in result.out
    assert "note: the entry there has no trust (kept as it is)" in result.out
    assert (layer_repo.root / ".gemini/settings.json").read_text() == text
