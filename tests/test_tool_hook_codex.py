"""Codex CLI's hooks (`majordomus capture tool|stop --provider codex`): the payloads Codex CLI
0.171.0 sends (PreToolUse: `tool_name` apply_patch with the patch text as
`tool_input.command`, or Bash with its `command`; `cwd` the command's directory), fed to the
installed executable; what it answers, the ledger lines it leaves, that nothing is written
where it refuses, and that `capture install` wires it where `doctor` can prove it."""

from __future__ import annotations

import json
import os
import subprocess

import pytest
from conftest import Repo
from conftest import exe


def patch(*hunks: str) -> str:
    return "*** Begin Patch\n" + "".join(hunks) + "*** End Patch\n"


def body(repo: Repo, tool: str, command: str, cwd: str | None = None) -> str:
    said = {
        "session_id": "01a2-s",
        "turn_id": "01a2-t",
        "transcript_path": str(repo.root / "t.jsonl"),
        "cwd": cwd or str(repo.root),
        "hook_event_name": "PreToolUse",
        "model": "gpt-5.5",
        "permission_mode": "bypassPermissions",
        "tool_name": tool,
        "tool_input": {"command": command},
        "tool_use_id": "call_1",
    }
    return json.dumps(said)


def codex(repo: Repo, raw: str | bytes, hook: str = "tool") -> tuple[int, str, str]:
    argv = [exe("majordomus"), "capture", hook, "--provider", "codex"]
    data = raw.encode() if isinstance(raw, str) else raw
    proc = subprocess.run(argv, cwd=repo.root, env=repo.env, input=data, capture_output=True,
                          timeout=60, check=False)  # fmt: skip
    return proc.returncode, proc.stdout.decode(), proc.stderr.decode()


def denial(out: str) -> str | None:
    if not out.strip():
        return None
    said = json.loads(out)
    assert set(said) == {"hookSpecificOutput"}  # Codex refuses an answer with more in it
    inner = said["hookSpecificOutput"]
    assert inner["hookEventName"] == "PreToolUse" and inner["permissionDecision"] == "deny"
    return str(inner["permissionDecisionReason"])


def ledger(repo: Repo, event: str) -> list[dict[str, object]]:
    path = repo.root / ".ai/local/state/ledger.jsonl"
    lines = [json.loads(line) for line in path.read_text().splitlines() if line.strip()]
    return [line for line in lines if line.get("event") == event]


@pytest.fixture
def tasked(layer_repo: Repo) -> Repo:
    started = layer_repo.mj("start", "narrow the parser", "--scope", "src")
    assert started.code == 0, started
    return layer_repo


@pytest.mark.parametrize(
    ("text", "path"),
    [
        (patch("*** Add File: lib/x.py\n+x = 1\n"), "lib/x.py"),
        (patch("*** Add File: src/ok.py\n+1\n*** Delete File: README.md\n"), "README.md"),
        (patch("*** Update File: src/a.py\n*** Move to: lib/a.py\n@@\n-x\n+y\n"), "lib/a.py"),
        (patch("*** Add File: src/../lib/up.py\n+x\n"), "lib/up.py"),
        (patch("*** Delete File: .ai/local/state/ledger.jsonl\n"), ".ai/local/state/ledger.jsonl"),
        ("<<'EOF'\n" + patch("*** Add File: lib/w.py\n+x\n") + "EOF\n", "lib/w.py"),
    ],
)
def test_a_patch_writing_outside_the_scope_is_refused(tasked: Repo, text: str, path: str) -> None:
    code, out, err = codex(tasked, body(tasked, "apply_patch", text))
    reason = denial(out)
    assert code == 0 and reason is not None, err
    assert f"it writes {path}" in reason
    assert "majordomus start" in reason or path.startswith(".ai/local/")
    [line] = ledger(tasked, "tool.denied")
    assert line["provider"] == "codex" and line["tool"] == "apply_patch" and line["path"] == path


def test_a_patch_inside_the_scope_goes_through_from_the_clients_directory(tasked: Repo) -> None:
    (tasked.root / "src").mkdir()
    text = patch("*** Add File: deep/new.py\n+x\n*** Update File: ../src/a.py\n@@\n-x\n+y\n")
    assert codex(tasked, body(tasked, "apply_patch", text, cwd=str(tasked.root / "src"))) == (
        0, "", "",
    )  # fmt: skip
    outside = patch("*** Add File: x.py\n+x\n")  # relative to the repository's root: outside
    code, out, _ = codex(tasked, body(tasked, "apply_patch", outside))
    assert code == 0 and "it writes x.py" in str(denial(out))


def test_a_shell_command_running_apply_patch_is_judged_as_the_patch(tasked: Repo) -> None:
    command = "apply_patch <<'EOF'\n" + patch("*** Add File: lib/sh.py\n+x\n") + "EOF\n"
    code, out, _ = codex(tasked, body(tasked, "Bash", command))
    assert code == 0 and "it writes lib/sh.py" in str(denial(out))
    assert codex(tasked, body(tasked, "Bash", "echo hi > src/ok.txt")) == (0, "", "")
    assert codex(tasked, body(tasked, "Bash", "cat lib/anything")) == (0, "", "")


def test_a_symlink_out_of_the_scope_is_judged_on_its_real_path(tasked: Repo) -> None:
    (tasked.root / "src").mkdir()
    os.symlink(tasked.root / "lib", tasked.root / "src" / "door")
    os.symlink("/etc", tasked.root / "src" / "etc")
    for path, shown in (("src/door/x.py", "lib/x.py"), ("src/etc/passwd", "/etc/passwd")):
        code, out, _ = codex(
            tasked, body(tasked, "apply_patch", patch(f"*** Delete File: {path}\n"))
        )
        assert code == 0 and f"it writes {shown}" in str(denial(out)), out


def test_a_patch_the_client_would_not_apply_goes_through_unjudged(tasked: Repo) -> None:
    code, out, err = codex(tasked, body(tasked, "apply_patch", "*** Add File: lib/x.py\n+x\n"))
    assert (code, out) == (0, "")
    assert err.startswith("WARN majordomus capture tool: not judged, let through: apply_patch")
    [line] = ledger(tasked, "hook.unjudged")
    assert line["provider"] == "codex" and "Begin Patch" in str(line["why"])


def test_hostile_codex_payloads_never_13_never_a_write(tasked: Repo) -> None:
    before = sorted(p.name for p in tasked.root.iterdir())
    root = str(tasked.root)
    surrogate = {"tool_name": "apply_patch",
                 "tool_input": {"command": patch("*** Add File: lib/\udcff.py\n+x\n")}}  # fmt: skip
    huge = patch("*** Add File: src/ok.py\n" + "+x\n" * 2_000_000 + "*** Delete File: lib/z\n")
    refused = 0
    for raw in (
        b"\xff\xfe{not json",
        b'{"tool_name": "apply_patch", "tool_input": {"command": ["x"]}}',
        b'{"tool_name": "apply_patch", "tool_input": {"command": "\xff\xfe"}}',
        b"{" * 200_000,
        json.dumps(surrogate).encode(),
        body(tasked, "apply_patch", patch("*** Add File: " + "../" * 60 + "etc/x\n+x\n")).encode(),
        body(
            tasked, "apply_patch", patch(f"*** Add File: {root}/lib/" + "a" * 5000 + "\n")
        ).encode(),
        body(tasked, "apply_patch", huge).encode(),
    ):
        code, out, err = codex(tasked, raw)
        assert code == 0 and "Traceback" not in err, raw[:80]
        refused += denial(out) is not None
    assert refused == 4  # the surrogate path, /etc, the long name, the large patch's last hunk
    assert sorted(p.name for p in tasked.root.iterdir()) == before
    assert not (tasked.root / "lib").exists()


def test_codex_is_wired_by_install_and_proven(layer_repo: Repo) -> None:
    installed = layer_repo.mj("capture", "install", "--provider", "codex")
    assert installed.code == 0, installed
    settings = json.loads((layer_repo.root / ".codex/hooks.json").read_text())
    [tool] = settings["hooks"]["PreToolUse"]
    assert tool["matcher"] == "apply_patch|Bash"
    command = tool["hooks"][0]["command"]
    assert command == '"$(git rev-parse --show-toplevel)"/.codex/hooks/majordomus-tool'
    assert "Stop" in settings["hooks"] and "SubagentStop" in settings["hooks"]
    shim = layer_repo.root / ".codex/hooks/majordomus-tool"
    assert "capture tool --provider codex" in shim.read_text()
    # as Codex runs it: by a shell, in the session's directory (here a subdirectory)
    (layer_repo.root / "src").mkdir()
    here = layer_repo.root / "src"
    write = body(layer_repo, "apply_patch", patch("*** Delete File: ../.ai/local/x\n"), str(here))
    ran = subprocess.run(["sh", "-c", command], input=write, text=True, capture_output=True,
                         cwd=here, env=layer_repo.env, check=False)  # fmt: skip
    assert ran.returncode == 0 and denial(ran.stdout) is not None, ran
    status = layer_repo.mj("capture", "status").out
    assert "codex        verified" in status and "copilot      unconfigured" in status, status
    listed = layer_repo.mj("doctrine", "list").out
    assert "act time: codex — PreToolUse: a write outside" in listed, listed
    assert "wired by `majordomus capture install --provider codex` in .codex/hooks.json" in listed
    assert "Codex runs them only in a project it trusts, and only the hooks it trusts" in listed
    assert "only the hooks it trusts" in status
    settings["hooks"]["PreToolUse"][0]["matcher"] = "apply_patch"  # a Bash write would pass
    (layer_repo.root / ".codex/hooks.json").write_text(json.dumps(settings))
    status = layer_repo.mj("capture", "status").out
    assert "codex        named" in status and "6 of 7 settings entries" in status, status


def test_codex_stop_is_held_once_per_unmet_state(tasked: Repo) -> None:
    stop = json.dumps({"session_id": "s", "turn_id": "t", "cwd": str(tasked.root),
                       "hook_event_name": "Stop", "stop_hook_active": False,
                       "last_assistant_message": "done"})  # fmt: skip
    assert codex(tasked, stop, "stop") == (0, "", "")
    tasked.write("lib/stray.py", "x = 1\n")
    tasked.commit("outside the scope")
    code, out, _ = codex(tasked, stop, "stop")
    said = json.loads(out)
    assert code == 0 and set(said) == {"decision", "reason"} and said["decision"] == "block"
    assert "lib/stray.py" in said["reason"] and "finish --outcome completed" in said["reason"]
    assert codex(tasked, stop, "stop") == (0, "", "")  # the same state: it goes through
    [held] = ledger(tasked, "stop.held")
    [released] = ledger(tasked, "stop.released")
    assert held["provider"] == released["provider"] == "codex"
