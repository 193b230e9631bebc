"""Enforcement at the moment of action, with the real clients (REAL-CLIENTS.md): the model
server is scripted to answer with tool calls, the client runs them through the hooks
`capture install` wired, and what reached the disk and the model's next request is read back.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
import realclients
from conftest import Repo


@pytest.fixture(scope="session")
def prefix() -> Path:
    return realclients.clients()


def tool_results(server: realclients.Recorder) -> list[str]:
    """The text of every tool result the client sent the model, in order, each once."""
    seen: dict[str, str] = {}
    for request in server.requests:
        for message in request["body"].get("messages") or []:
            content = message.get("content")
            for block in content if isinstance(content, list) else []:
                if isinstance(block, dict) and block.get("type") == "tool_result":
                    seen.setdefault(str(block.get("tool_use_id")), json.dumps(block))
    return list(seen.values())


def events(repo: Repo, name: str) -> list[dict[str, object]]:
    path = repo.root / ".ai/local/state/ledger.jsonl"
    rows = [json.loads(line) for line in path.read_text().splitlines() if line.strip()]
    return [row for row in rows if row.get("event") == name]


def test_claude_code_is_refused_a_write_outside_the_scope(
    layer_repo: Repo, prefix: Path, tmp_path: Path
) -> None:
    assert layer_repo.mj("capture", "install").code == 0
    layer_repo.commit("wire the hooks")
    started = layer_repo.mj("start", "write the parser", "--scope", "src")
    assert started.code == 0, started
    outside, inside = layer_repo.root / "lib" / "out.py", layer_repo.root / "src" / "in.py"
    script = [
        ("Write", {"file_path": str(outside), "content": "x = 1\n"}),
        ("Write", {"file_path": str(inside), "content": "y = 2\n"}),
        None,
    ]
    with realclients.Recorder(script=script) as server:
        ran = realclients.run_claude(
            prefix, layer_repo.root, tmp_path / "home", server, "write the files",
            tools="Read,Write,Edit",
        )  # fmt: skip
    assert ran.returncode == 0, ran.stderr[-2000:]
    assert server.steps >= 3, server.steps  # the scripted turn was played to its end
    assert not outside.exists()  # refused before it ran
    assert inside.read_text() == "y = 2\n"  # in scope: it went through
    results = tool_results(server)
    assert len(results) == 2, results
    assert "majordomus refused this call: it writes lib/out.py" in results[0]
    assert (
        "outside the active task's scope" in results[0] and "--scope src,lib/out.py" in results[0]
    )
    assert "majordomus refused" not in results[1]
    [denied] = events(layer_repo, "tool.denied")
    assert denied["path"] == "lib/out.py" and denied["tool"] == "Write"


def test_claude_code_is_held_once_at_a_stop_with_the_contract_unmet(
    layer_repo: Repo, prefix: Path, tmp_path: Path
) -> None:
    assert layer_repo.mj("capture", "install").code == 0
    layer_repo.commit("wire the hooks")
    assert layer_repo.mj("start", "write the parser", "--scope", "src").code == 0
    layer_repo.write("lib/stray.py", "x = 1\n")
    layer_repo.commit("outside the scope")
    with realclients.Recorder(script=[None, None, None]) as server:
        ran = realclients.run_claude(prefix, layer_repo.root, tmp_path / "home", server, "go")
    assert ran.returncode == 0, ran.stderr[-2000:]
    main = [json.dumps(r["body"]) for r in server.requests if r["body"].get("tools")]
    assert len(main) == 2, len(main)  # held once: the turn went on, then the same state ended it
    assert "finish --check` finds its contract unmet" not in main[0]
    assert "finish --check` finds its contract unmet" in main[1] and "lib/stray.py" in main[1]
    assert len(events(layer_repo, "stop.held")) == 1
    assert len(events(layer_repo, "stop.released")) == 1
    after_finish(layer_repo, realclients.run_claude, prefix, tmp_path)


def after_finish(repo: Repo, run: Callable[..., Any], prefix: Path, tmp_path: Path) -> None:
    """`majordomus finish` ends the task (blocked: what lies outside the scope is recorded on
    it); a new stray commit, a state that was never held, no longer holds the turn."""
    finished = repo.mj("finish", "--outcome", "blocked", "--note", "-",
                       stdin="# Next Action\n\nlib/ is another task's.\n")  # fmt: skip
    assert finished.code == 0, finished
    [done] = events(repo, "task.finished")
    assert done["outcome"] == "blocked" and "lib/stray.py" in json.dumps(done)
    repo.write("lib/another.py", "y = 2\n")
    repo.commit("further outside")
    with realclients.Recorder(script=[None, None]) as again:
        ran = run(prefix, repo.root, tmp_path / "home", again, "go")
    assert ran.returncode == 0, ran.stderr[-2000:]
    sent = [json.dumps(r["body"]) for r in again.requests]
    assert sent and not any("finish --check` finds its contract unmet" in t for t in sent)
    assert len(events(repo, "stop.held")) == 1


def test_gemini_cli_is_refused_a_write_outside_the_scope(
    layer_repo: Repo, prefix: Path, tmp_path: Path
) -> None:
    assert layer_repo.mj("capture", "install", "--provider", "gemini").code == 0
    layer_repo.commit("wire the hooks")
    assert layer_repo.mj("start", "write the parser", "--scope", "src").code == 0
    outside, inside = layer_repo.root / "lib" / "out.py", layer_repo.root / "src" / "in.py"
    script = [
        ("write_file", {"file_path": str(outside), "content": "x = 1\n"}),
        ("write_file", {"file_path": str(inside), "content": "y = 2\n"}),
        None,
    ]
    with realclients.Recorder(script=script) as server:
        ran = realclients.run_gemini(
            prefix, layer_repo.root, tmp_path / "home", server, "write the files",
            flags=("--yolo",),
        )  # fmt: skip
    assert ran.returncode == 0, ran.stderr[-2000:]
    assert not outside.exists()
    assert inside.read_text() == "y = 2\n"
    later = [json.dumps(r["body"]) for r in server.requests if r["body"].get("tools")]
    assert any("majordomus refused this call: it writes lib/out.py" in body for body in later)
    [denied] = events(layer_repo, "tool.denied")
    assert denied["path"] == "lib/out.py" and denied["provider"] == "gemini"


def test_gemini_cli_is_held_once_after_its_turn_with_the_contract_unmet(
    layer_repo: Repo, prefix: Path, tmp_path: Path
) -> None:
    assert layer_repo.mj("capture", "install", "--provider", "gemini").code == 0
    layer_repo.commit("wire the hooks")
    assert layer_repo.mj("start", "write the parser", "--scope", "src").code == 0
    layer_repo.write("lib/stray.py", "x = 1\n")
    layer_repo.commit("outside the scope")
    with realclients.Recorder(script=[None, None, None]) as server:
        ran = realclients.run_gemini(prefix, layer_repo.root, tmp_path / "home", server, "go")
    assert ran.returncode == 0, ran.stderr[-2000:]
    main = [json.dumps(r["body"]) for r in server.requests if r["body"].get("tools")]
    assert len(main) == 2, len(main)
    assert "finish --check` finds its contract unmet" in main[1] and "lib/stray.py" in main[1]
    assert len(events(layer_repo, "stop.held")) == 1
    assert len(events(layer_repo, "stop.released")) == 1
    after_finish(layer_repo, realclients.run_gemini, prefix, tmp_path)


def test_qwen_code_is_refused_a_write_outside_the_scope(layer_repo: Repo, tmp_path: Path) -> None:
    qwen = realclients.extra("qwen")
    assert layer_repo.mj("capture", "install", "--provider", "qwen-code").code == 0
    layer_repo.commit("wire the hooks")
    assert layer_repo.mj("start", "write the parser", "--scope", "src").code == 0
    outside, inside = layer_repo.root / "lib" / "out.py", layer_repo.root / "src" / "in.py"
    script = [
        ("write_file", {"file_path": str(outside), "content": "x = 1\n"}),
        ("write_file", {"file_path": str(inside), "content": "y = 2\n"}),
        None,
    ]
    with realclients.Recorder(script=script) as server:
        ran = realclients.run_qwen(
            qwen, layer_repo.root, tmp_path / "home", server, "write the files",
            flags=("--yolo",),
        )  # fmt: skip
    assert ran.returncode == 0, ran.stderr[-2000:]
    assert server.steps >= 3, server.steps
    assert not outside.exists()
    assert inside.read_text() == "y = 2\n"
    later = [json.dumps(r["body"]) for r in server.requests if r["body"].get("tools")]
    assert any("majordomus refused this call: it writes lib/out.py" in body for body in later)
    [denied] = events(layer_repo, "tool.denied")
    assert denied["path"] == "lib/out.py" and denied["provider"] == "qwen-code"


def test_qwen_code_is_held_once_at_a_stop_with_the_contract_unmet(
    layer_repo: Repo, tmp_path: Path
) -> None:
    qwen = realclients.extra("qwen")
    assert layer_repo.mj("capture", "install", "--provider", "qwen-code").code == 0
    layer_repo.commit("wire the hooks")
    assert layer_repo.mj("start", "write the parser", "--scope", "src").code == 0
    layer_repo.write("lib/stray.py", "x = 1\n")
    layer_repo.commit("outside the scope")
    with realclients.Recorder(script=[None, None, None]) as server:
        ran = realclients.run_qwen(qwen, layer_repo.root, tmp_path / "home", server, "go")
    assert ran.returncode == 0, ran.stderr[-2000:]
    main = [json.dumps(r["body"]) for r in server.requests if r["body"].get("tools")]
    assert len(main) == 2, len(main)
    assert "finish --check` finds its contract unmet" not in main[0]
    assert "finish --check` finds its contract unmet" in main[1] and "lib/stray.py" in main[1]
    assert len(events(layer_repo, "stop.held")) == 1
    assert len(events(layer_repo, "stop.released")) == 1
    after_finish(layer_repo, realclients.run_qwen, qwen, tmp_path)


def test_claude_code_holds_a_subagents_end_and_then_the_turns_own(
    layer_repo: Repo, prefix: Path, tmp_path: Path
) -> None:
    assert layer_repo.mj("capture", "install").code == 0
    layer_repo.commit("wire the hooks")
    assert layer_repo.mj("start", "write the parser", "--scope", "src").code == 0
    layer_repo.write("lib/stray.py", "x = 1\n")
    layer_repo.commit("outside the scope")
    agent = {"description": "write the parser", "prompt": "write it",
             "subagent_type": "general-purpose"}  # fmt: skip
    with realclients.Recorder(script=[("Agent", agent), None, None, None, None]) as server:
        ran = realclients.run_claude(
            prefix, layer_repo.root, tmp_path / "home", server, "go", tools="Read,Agent"
        )
    assert ran.returncode == 0, ran.stderr[-2000:]
    main = [json.dumps(r["body"]) for r in server.requests if r["body"].get("tools")]
    said = "finish --check` finds its contract unmet"
    # the worker calls a subagent; the subagent ends, is held, ends again; the worker ends,
    # is held, ends again
    assert len(main) == 5, len(main)
    assert [said in body and "lib/stray.py" in body for body in main] == [
        False, False, True, False, True,
    ]  # fmt: skip
    assert "agentId" in main[3]  # the subagent's result reached the worker after its release
    held = [(e["hook"], e["state"]) for e in events(layer_repo, "stop.held")]
    released = [(e["hook"], e["state"]) for e in events(layer_repo, "stop.released")]
    assert sorted(held) == sorted(released) and {h for h, _ in held} == {"stop", "subagent-stop"}
    assert len(held) == 2


def test_qwen_code_holds_a_subagents_end_and_then_the_turns_own(
    layer_repo: Repo, tmp_path: Path
) -> None:
    qwen = realclients.extra("qwen")
    assert layer_repo.mj("capture", "install", "--provider", "qwen-code").code == 0
    layer_repo.commit("wire the hooks")
    assert layer_repo.mj("start", "write the parser", "--scope", "src").code == 0
    layer_repo.write("lib/stray.py", "x = 1\n")
    layer_repo.commit("outside the scope")
    agent = {"description": "write the parser", "prompt": "write it",
             "subagent_type": "general-purpose"}  # fmt: skip
    with realclients.Recorder(script=[("agent", agent), None, None, None, None]) as server:
        ran = realclients.run_qwen(
            qwen, layer_repo.root, tmp_path / "home", server, "go", flags=("--yolo",)
        )
    assert ran.returncode == 0, ran.stderr[-2000:]
    main = [json.dumps(r["body"]) for r in server.requests if r["body"].get("tools")]
    said = "finish --check` finds its contract unmet"
    # the worker calls a subagent; the subagent ends, is held, ends again; the worker ends,
    # is held, ends again
    assert len(main) == 5, len(main)
    assert [said in body and "lib/stray.py" in body for body in main] == [
        False, False, True, False, True,
    ]  # fmt: skip
    held = [(e["hook"], e["state"]) for e in events(layer_repo, "stop.held")]
    released = [(e["hook"], e["state"]) for e in events(layer_repo, "stop.released")]
    assert sorted(held) == sorted(released) and {h for h, _ in held} == {"stop", "subagent-stop"}
    assert len(held) == 2
    assert {e["provider"] for e in events(layer_repo, "stop.held")} == {"qwen-code"}
