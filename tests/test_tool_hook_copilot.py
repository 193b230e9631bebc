"""The tool and stop hooks as GitHub Copilot CLI runs them (`--provider copilot`): its own
payload (`toolName`, `toolArgs`, `cwd`), its tool names (create, edit, bash, apply_patch with
its patch text as the whole input), its refusal at the top of the answer, and its hooks file
in `.github/hooks/` written by `capture install` and proven by `capture status` and `doctor`."""

from __future__ import annotations

import json
import os
import subprocess

import pytest
from conftest import Repo
from conftest import exe


def body(repo: Repo, tool: str, args: object, cwd: str | None = None) -> str:
    return json.dumps({"sessionId": "c-1", "timestamp": 1796413100089,
                       "cwd": cwd or str(repo.root), "toolName": tool,
                       "toolArgs": args})  # fmt: skip


def patch(*hunks: str) -> str:
    return "*** Begin Patch\n" + "".join(hunks) + "*** End Patch\n"


def copilot(repo: Repo, raw: str | bytes, hook: str = "tool") -> tuple[int, str, str]:
    argv = [exe("majordomus"), "capture", hook, "--provider", "copilot"]
    data = raw.encode() if isinstance(raw, str) else raw
    proc = subprocess.run(argv, cwd=repo.root, env=repo.env, input=data, capture_output=True,
                          timeout=60, check=False)  # fmt: skip
    return proc.returncode, proc.stdout.decode(), proc.stderr.decode()


def denial(out: str) -> str | None:
    """The reason of Copilot CLI's deny answer, None for no answer (the call goes ahead)."""
    if not out.strip():
        return None
    said = json.loads(out)
    assert set(said) == {"permissionDecision", "permissionDecisionReason"}, said
    assert said["permissionDecision"] == "deny"
    return str(said["permissionDecisionReason"])


def ledger(repo: Repo, event: str) -> list[dict[str, object]]:
    path = repo.root / ".ai/local/state/ledger.jsonl"
    lines = [json.loads(line) for line in path.read_text().splitlines() if line.strip()]
    return [line for line in lines if line.get("event") == event]


@pytest.fixture
def tasked(layer_repo: Repo) -> Repo:
    assert layer_repo.mj("start", "narrow the parser", "--scope", "src").code == 0
    return layer_repo


def test_copilot_tools_are_judged_by_their_own_names(tasked: Repo) -> None:
    root = tasked.root
    for tool, args in (
        ("create", {"path": str(root / "lib/a.py"), "file_text": "x"}),
        ("edit", {"path": str(root / "lib/a.py"), "old_str": "a", "new_str": "b"}),
        ("bash", {"command": "echo x > lib/a.py", "description": "write"}),
        ("apply_patch", patch("*** Add File: lib/a.py\n+x\n")),
    ):
        code, out, err = copilot(tasked, body(tasked, tool, args))
        reason = denial(out)
        assert code == 0 and reason is not None and "it writes lib/a.py" in reason, (tool, err)
    for tool, args in (
        ("create", {"path": str(root / "src/a.py"), "file_text": "x"}),
        ("apply_patch", patch("*** Add File: src/a.py\n+x\n")),
        ("view", {"path": str(root / "lib/a.py")}),
        ("Write", {"file_path": str(root / "lib/a.py")}),  # Claude Code's name: not Copilot's
    ):
        assert copilot(tasked, body(tasked, tool, args)) == (0, "", ""), tool
    denied = ledger(tasked, "tool.denied")
    assert len(denied) == 4 and {line["provider"] for line in denied} == {"copilot"}


def test_hostile_copilot_payloads_never_13_never_a_write(tasked: Repo) -> None:
    root = str(tasked.root)
    (tasked.root / "src").mkdir()
    os.symlink(tasked.root / ".ai" / "local", tasked.root / "src" / "state")
    before = sorted(p.name for p in tasked.root.iterdir())
    surrogate = {"toolName": "create", "toolArgs": {"path": root + "/lib/\udcff.py"}}
    huge = body(tasked, "create", {"path": root + "/lib/big.py", "file_text": "x" * (3 << 20)})
    unjudged = 0
    refused = 0
    for raw in (
        b"\xff\xfe{not json",
        b'{"toolName": "create", "toolArgs": {"path": ["x"]}}',
        b'{"toolName": "create", "toolArgs": "lib/x.py"}',  # a file tool's input as text
        b'{"toolName": "apply_patch", "toolArgs": {"no": "patch"}}',
        b'{"toolName": 7, "toolArgs": {}}',
        b"[" * 200_000,
        json.dumps(surrogate).encode(),
        body(tasked, "create", {"path": root + "/src/state/state/ledger.jsonl"}).encode(),
        body(tasked, "apply_patch", patch("*** Add File: " + "../" * 60 + "etc/x\n+x\n")).encode(),
        huge.encode(),
    ):
        code, out, err = copilot(tasked, raw)
        assert code == 0 and "Traceback" not in err, raw[:80]
        refused += denial(out) is not None
        unjudged += "not judged, let through" in err
    assert refused == 4  # the surrogate path, the symlink into .ai/local/, /etc, the large write
    assert unjudged == 6
    assert sorted(p.name for p in tasked.root.iterdir()) == before
    assert not (tasked.root / "lib").exists()


def test_copilot_is_wired_by_install_and_proven(layer_repo: Repo) -> None:
    installed = layer_repo.mj("capture", "install", "--provider", "copilot")
    assert installed.code == 0, installed
    path = layer_repo.root / ".github/hooks/majordomus.json"
    settings = json.loads(path.read_text())
    assert settings["version"] == 1
    [tool] = settings["hooks"]["preToolUse"]
    assert tool["matcher"] == "create|edit|apply_patch|bash" and tool["type"] == "command"
    command = tool["bash"]
    assert command == '"$(git rev-parse --show-toplevel)"/.github/hooks/majordomus-tool'
    assert set(settings["hooks"]) == {"userPromptSubmitted", "preToolUse", "agentStop",
                                      "subagentStop"}  # fmt: skip
    shim = layer_repo.root / ".github/hooks/majordomus-tool"
    assert "capture tool --provider copilot" in shim.read_text()
    assert (
        "capture stop --event subagent --provider copilot"
        in (layer_repo.root / ".github/hooks/majordomus-subagent-stop").read_text()
    )
    # as Copilot runs it: by a shell, in the session's directory (here a subdirectory)
    assert layer_repo.mj("start", "narrow the parser", "--scope", "src").code == 0
    (layer_repo.root / "src").mkdir()
    here = layer_repo.root / "src"
    write = body(layer_repo, "create", {"path": "../.ai/local/x", "file_text": "x"}, str(here))
    ran = subprocess.run(["sh", "-c", command], input=write, text=True, capture_output=True,
                         cwd=here, env=layer_repo.env, check=False)  # fmt: skip
    assert ran.returncode == 0 and denial(ran.stdout) is not None, ran
    status = layer_repo.mj("capture", "status").out
    assert "copilot      verified" in status and "folder the person trusts" in status, status
    policy = layer_repo.root / ".ai/repo/policy.yaml"
    entry = (
        "  - name: copilot-hooks\n    path: majordomus\n    args:\n      - capture\n"
        "    wired_by: provider-hook:copilot\n"
    )
    text = policy.read_text()
    policy.write_text(text.replace("enforcement:", "enforcement:\n" + entry.rstrip("\n"), 1))
    doctor = layer_repo.mj("doctor").out
    assert "OK   wiring      copilot-hooks — provider-hook:copilot: verified" in doctor, doctor
    listed = layer_repo.mj("doctrine", "list").out
    assert "act time: copilot — preToolUse: a write outside" in listed, listed
    assert "agentStop, subagentStop: a turn that ends with finish --check unmet" in listed
    assert "in .github/hooks/majordomus.json" in listed
    settings["hooks"]["preToolUse"][0]["matcher"] = "create|edit"  # a patch would pass
    path.write_text(json.dumps(settings))
    status = layer_repo.mj("capture", "status").out
    assert "copilot      named" in status and "3 of 4 settings entries" in status, status
    doctor = layer_repo.mj("doctor").out
    assert "FAIL wiring      copilot-hooks — provider-hook:copilot is named, not verified" in doctor
    del settings["hooks"]["agentStop"]
    path.write_text(json.dumps(settings))
    assert "2 of 4 settings entries" in layer_repo.mj("capture", "status").out


def test_copilot_stop_is_held_once_per_unmet_state(tasked: Repo) -> None:
    stop = json.dumps({"sessionId": "c-1", "timestamp": 1, "cwd": str(tasked.root),
                       "stopReason": "end_turn", "stop_hook_active": False})  # fmt: skip
    assert copilot(tasked, stop, "stop") == (0, "", "")
    tasked.write("lib/stray.py", "x = 1\n")
    tasked.commit("outside the scope")
    code, out, _ = copilot(tasked, stop, "stop")
    said = json.loads(out)
    assert code == 0 and set(said) == {"decision", "reason"} and said["decision"] == "block"
    assert "lib/stray.py" in said["reason"] and "finish --outcome completed" in said["reason"]
    assert copilot(tasked, stop, "stop") == (0, "", "")  # the same state: it goes through
    [held] = ledger(tasked, "stop.held")
    [released] = ledger(tasked, "stop.released")
    assert held["provider"] == released["provider"] == "copilot"


def test_copilot_agent_stop_inside_a_subagent_is_left_to_subagent_stop(tasked: Repo) -> None:
    tasked.write("lib/stray.py", "x = 1\n")
    tasked.commit("outside the scope")
    inside = json.dumps({"sessionId": "sub-1", "cwd": str(tasked.root), "stopReason": "end_turn",
                         "stop_hook_active": False, "agentId": "sub-1",
                         "agentType": "general-purpose", "parentAgentId": "c-1"})  # fmt: skip
    assert copilot(tasked, inside, "stop") == (0, "", "")  # the subagent's own agentStop
    assert ledger(tasked, "stop.held") == []
    argv = [exe("majordomus"), "capture", "stop", "--event", "subagent", "--provider", "copilot"]
    ran = subprocess.run(argv, cwd=tasked.root, env=tasked.env, input=inside, text=True,
                         capture_output=True, timeout=60, check=False)  # fmt: skip
    assert ran.returncode == 0 and json.loads(ran.stdout)["decision"] == "block", ran
    [held] = ledger(tasked, "stop.held")
    assert held["hook"] == "subagent-stop"
    for raw in ('{"agentId": ', '{"agentId": ""}', '{"agentId": 7}', '["agentId"]'):
        code, out, _ = copilot(tasked, raw, "stop")  # not a subagent's: the worker's turn
        assert code == 0 and (out == "" or json.loads(out)["decision"] == "block"), raw
    assert [e["hook"] for e in ledger(tasked, "stop.held")] == ["subagent-stop", "stop"]
    assert len(ledger(tasked, "stop.released")) == 3
