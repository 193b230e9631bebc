"""Enforcement at the moment of action with the real Codex CLI (REAL-CLIENTS.md): the model
server is scripted to answer with `apply_patch` calls and turn ends, Codex runs them through
the hooks `capture install --provider codex` wired — once the person has trusted the project
and its hooks, as an interactive `codex` asks (`realclients.codex_trust`) — and what reached
the disk and the model's next request is read back."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
import realclients
from conftest import Repo
from test_real_client_enforcement import after_finish
from test_real_client_enforcement import events

HELD = "finish --check` finds its contract unmet"
MODEL = ("-m", "gpt-5.5")  # a model Codex offers apply_patch to


@pytest.fixture(scope="session")
def prefix() -> Path:
    return realclients.clients()


def wired(repo: Repo, prefix: Path, home: Path) -> str:
    """The hooks installed and committed, the project and its hooks trusted in `home`."""
    assert repo.mj("capture", "install", "--provider", "codex").code == 0
    repo.commit("wire the hooks")
    return realclients.codex_trust(prefix, repo.root, home)


def patch(*hunks: str) -> dict[str, str]:
    return {"input": "*** Begin Patch\n" + "".join(hunks) + "*** End Patch\n"}


def test_codex_is_refused_a_patch_outside_the_scope(
    layer_repo: Repo, prefix: Path, tmp_path: Path
) -> None:
    home = tmp_path / "home"
    trust = wired(layer_repo, prefix, home)
    assert layer_repo.mj("start", "write the parser", "--scope", "src").code == 0
    outside, inside = layer_repo.root / "lib" / "out.py", layer_repo.root / "src" / "in.py"
    script: list[tuple[str, dict[str, Any]] | None] = [
        ("apply_patch", patch("*** Add File: lib/out.py\n+x = 1\n")),
        ("apply_patch", patch("*** Add File: src/in.py\n+y = 2\n")),
        None,
    ]
    with realclients.Recorder(script=script) as server:
        ran = realclients.run_codex(prefix, layer_repo.root, home, server, "write the files",
                                    flags=MODEL, config=trust)  # fmt: skip
    assert ran.returncode == 0, ran.stderr[-2000:]
    assert server.steps >= 3, server.steps  # the scripted turn was played to its end
    assert not outside.exists()  # refused before it ran
    assert inside.read_text() == "y = 2\n"  # in scope: it went through
    outputs = tool_outputs(server)
    assert len(outputs) == 2, outputs
    assert "majordomus refused this call: it writes lib/out.py" in outputs[0]
    assert "--scope src,lib/out.py" in outputs[0]
    assert "majordomus refused" not in outputs[1]
    [denied] = events(layer_repo, "tool.denied")
    assert denied["path"] == "lib/out.py" and denied["provider"] == "codex"
    # the session hooks ran too: the briefing (the task, its scope) reached the model
    first = json.dumps(server.requests[0]["body"])
    assert "write the parser" in first and "scope        src" in first
    assert [e["event"] for e in events(layer_repo, "session.closed")] == ["session.closed"]
    assert not (layer_repo.root / ".ai/local/prompts/failures.log").exists()


def test_codex_is_held_once_at_a_stop_with_the_contract_unmet(
    layer_repo: Repo, prefix: Path, tmp_path: Path
) -> None:
    home = tmp_path / "home"
    trust = wired(layer_repo, prefix, home)
    assert layer_repo.mj("start", "write the parser", "--scope", "src").code == 0
    layer_repo.write("lib/stray.py", "x = 1\n")
    layer_repo.commit("outside the scope")

    def run(*args: Any, **kwargs: Any) -> Any:
        return realclients.run_codex(*args, **kwargs, flags=MODEL, config=trust)

    with realclients.Recorder(script=[None, None, None]) as server:
        ran = run(prefix, layer_repo.root, home, server, "go")
    assert ran.returncode == 0, ran.stderr[-2000:]
    sent = [json.dumps(r["body"]) for r in server.requests]
    assert len(sent) == 2, len(sent)  # held once: the turn went on, then the same state ended it
    assert HELD not in sent[0]
    assert HELD in sent[1] and "lib/stray.py" in sent[1]
    assert len(events(layer_repo, "stop.held")) == 1
    assert len(events(layer_repo, "stop.released")) == 1
    after_finish(layer_repo, run, prefix, tmp_path)


def tool_outputs(server: realclients.Recorder) -> list[str]:
    """The output of each tool call the client sent back to the model, in order, each once."""
    seen: dict[str, str] = {}
    for request in server.requests:
        for item in request["body"].get("input") or []:
            if isinstance(item, dict) and str(item.get("type")).endswith("_call_output"):
                seen.setdefault(str(item.get("call_id")), json.dumps(item))
    return list(seen.values())


# GitHub Copilot CLI (its `copilot -p`, offline): the hooks of .github/hooks/*.json run once the
# folder is trusted; a `claude-*` model is offered create and edit, a `gpt-*` one apply_patch
CLAUDE_TOOLS = "claude-sonnet-4.5"


def copilot_wired(repo: Repo, home: Path) -> Path:
    assert repo.mj("capture", "install", "--provider", "copilot").code == 0
    repo.commit("wire the hooks")
    realclients.copilot_trust(repo.root, home)
    return realclients.extra("copilot")


def run_copilot(*args: Any, model: str = CLAUDE_TOOLS) -> Any:
    return realclients.run_copilot(*args, model=model, flags=("--allow-all-tools",))


def chat_tool_results(server: realclients.Recorder) -> list[str]:
    """The result of each tool call Copilot CLI sent back to the model, in order, each once."""
    seen: dict[str, str] = {}
    for request in server.requests:
        for message in request["body"].get("messages") or []:
            if message.get("role") == "tool":
                seen.setdefault(str(message.get("tool_call_id")), json.dumps(message))
    return list(seen.values())


def test_copilot_cli_is_refused_a_write_outside_the_scope(layer_repo: Repo, tmp_path: Path) -> None:
    home = tmp_path / "home"
    prefix = copilot_wired(layer_repo, home)
    assert layer_repo.mj("start", "write the parser", "--scope", "src").code == 0
    outside, inside = layer_repo.root / "lib" / "out.py", layer_repo.root / "src" / "in.py"
    for made in (outside, inside):  # create writes only into a directory that exists
        made.parent.mkdir(exist_ok=True)
    script: list[tuple[str, dict[str, Any]] | None] = [
        ("create", {"path": str(outside), "file_text": "x = 1\n"}),
        ("create", {"path": str(inside), "file_text": "y = 2\n"}),
        None,
        None,
    ]
    with realclients.Recorder(script=script) as server:
        ran = run_copilot(prefix, layer_repo.root, home, server, "write the files")
    assert ran.returncode == 0, ran.stderr[-2000:]
    assert server.steps >= 3, server.steps  # the scripted turn was played to its end
    assert not outside.exists()  # refused before it ran
    assert inside.read_text() == "y = 2\n"  # in scope: it went through
    results = chat_tool_results(server)
    assert len(results) == 2, results
    assert "majordomus refused this call: it writes lib/out.py" in results[0]
    assert "--scope src,lib/out.py" in results[0]
    assert "majordomus refused" not in results[1]
    [denied] = events(layer_repo, "tool.denied")
    assert denied["path"] == "lib/out.py" and denied["provider"] == "copilot"
    # the prompt hook ran too: the person's prompt is archived, nothing failed
    prompts = layer_repo.root / ".ai/local/prompts"
    [archived] = [p for p in prompts.glob("*.md") if "write-the-files" in p.name]
    assert "write the files" in archived.read_text()
    assert not (prompts / "failures.log").exists()


def test_copilot_cli_is_refused_a_patch_outside_the_scope(layer_repo: Repo, tmp_path: Path) -> None:
    home = tmp_path / "home"
    prefix = copilot_wired(layer_repo, home)
    assert layer_repo.mj("start", "write the parser", "--scope", "src").code == 0
    script: list[tuple[str, dict[str, Any]] | None] = [
        ("apply_patch", patch("*** Add File: lib/out.py\n+x = 1\n")),
        ("apply_patch", patch("*** Add File: src/in.py\n+y = 2\n")),
        None,
        None,
    ]
    with realclients.Recorder(script=script) as server:
        ran = run_copilot(prefix, layer_repo.root, home, server, "go", model="gpt-mock")
    assert ran.returncode == 0, ran.stderr[-2000:]
    assert not (layer_repo.root / "lib/out.py").exists()
    assert (layer_repo.root / "src/in.py").read_text() == "y = 2\n"
    results = chat_tool_results(server)
    assert len(results) == 2, results
    assert "majordomus refused this call: it writes lib/out.py" in results[0]
    assert "majordomus refused" not in results[1]


def test_copilot_cli_is_held_once_at_a_stop_with_the_contract_unmet(
    layer_repo: Repo, tmp_path: Path
) -> None:
    home = tmp_path / "home"
    prefix = copilot_wired(layer_repo, home)
    assert layer_repo.mj("start", "write the parser", "--scope", "src").code == 0
    layer_repo.write("lib/stray.py", "x = 1\n")
    layer_repo.commit("outside the scope")
    with realclients.Recorder(script=[None, None, None]) as server:
        ran = run_copilot(prefix, layer_repo.root, home, server, "go")
    assert ran.returncode == 0, ran.stderr[-2000:]
    sent = [json.dumps(r["body"]) for r in server.requests]
    assert len(sent) == 2, len(sent)  # held once: the turn went on, then the same state ended it
    assert HELD not in sent[0]
    assert HELD in sent[1] and "lib/stray.py" in sent[1]
    assert len(events(layer_repo, "stop.held")) == 1
    assert len(events(layer_repo, "stop.released")) == 1
    after_finish(layer_repo, run_copilot, prefix, tmp_path)


def test_copilot_cli_holds_a_subagents_end_and_then_the_turns_own(
    layer_repo: Repo, tmp_path: Path
) -> None:
    home = tmp_path / "home"
    prefix = copilot_wired(layer_repo, home)
    assert layer_repo.mj("start", "write the parser", "--scope", "src").code == 0
    layer_repo.write("lib/stray.py", "x = 1\n")
    layer_repo.commit("outside the scope")
    agent = {"description": "write the parser", "prompt": "write it",
             "agent_type": "general-purpose", "name": "parser"}  # fmt: skip
    with realclients.Recorder(script=[("task", agent), None, None, None, None]) as server:
        ran = run_copilot(prefix, layer_repo.root, home, server, "go")
    assert ran.returncode == 0, ran.stderr[-2000:]
    main = [json.dumps(r["body"]) for r in server.requests if r["body"].get("tools")]
    # the worker calls a subagent; the subagent ends (agentStop inside it, subagentStop for
    # the worker: one hold), is held, ends again; the worker ends, is held, ends again
    assert len(main) == 5, len(main)
    assert [HELD in body and "lib/stray.py" in body for body in main] == [
        False, False, True, False, True,
    ]  # fmt: skip
    held = [(e["hook"], e["state"]) for e in events(layer_repo, "stop.held")]
    released = [(e["hook"], e["state"]) for e in events(layer_repo, "stop.released")]
    assert sorted(held) == sorted(released) and {h for h, _ in held} == {"stop", "subagent-stop"}
    assert len(held) == 2
