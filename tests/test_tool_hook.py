"""The tool hook (`majordomus capture tool`): the payloads Claude Code sends before a tool call
(PreToolUse: `tool_name`, `tool_input` with absolute `file_path` or a Bash `command`, `cwd`),
fed to the installed executable as the shim feeds them; what it answers on stdout, its exit
code, the ledger lines it leaves, and that nothing is written where it refuses."""

from __future__ import annotations

import json
import os

import pytest
from conftest import Repo


def payload(repo: Repo, tool: str, **tool_input: object) -> str:
    body = {
        "session_id": "s-1",
        "transcript_path": str(repo.root / "t.jsonl"),
        "cwd": str(repo.root),
        "permission_mode": "default",
        "hook_event_name": "PreToolUse",
        "tool_name": tool,
        "tool_input": tool_input,
        "tool_use_id": "toolu_01",
    }
    return json.dumps(body)


def hook(repo: Repo, text: str | bytes, *more: str) -> tuple[int, str, str]:
    import subprocess

    from conftest import exe

    argv = [exe("majordomus"), "capture", "tool", "--provider", "claude-code", *more]
    data = text.encode() if isinstance(text, str) else text
    proc = subprocess.run(argv, cwd=repo.root, env=repo.env, input=data, capture_output=True,
                          timeout=60, check=False)  # fmt: skip
    return proc.returncode, proc.stdout.decode(), proc.stderr.decode()


def denial(out: str) -> str | None:
    """The reason of a PreToolUse deny answer, None for no answer (the call goes ahead)."""
    if not out.strip():
        return None
    said = json.loads(out)["hookSpecificOutput"]
    assert said["hookEventName"] == "PreToolUse"
    assert said["permissionDecision"] == "deny"
    return str(said["permissionDecisionReason"])


def ledger(repo: Repo, event: str) -> list[dict[str, object]]:
    path = repo.root / ".ai/local/state/ledger.jsonl"
    lines = [json.loads(line) for line in path.read_text().splitlines() if line.strip()]
    return [line for line in lines if line.get("event") == event]


@pytest.fixture
def tasked(layer_repo: Repo) -> Repo:
    started = layer_repo.mj("start", "narrow the parser", "--scope", "src")
    assert started.code == 0, started
    return layer_repo


def test_a_write_outside_the_scope_is_refused_with_the_way_on(tasked: Repo) -> None:
    target = tasked.root / "lib" / "x.py"
    code, out, _ = hook(tasked, payload(tasked, "Edit", file_path=str(target),
                                        old_string="a", new_string="b"))  # fmt: skip
    reason = denial(out)
    assert code == 0 and reason is not None
    assert "lib/x.py" in reason and "outside the active task's scope" in reason
    assert "claims: src" in reason and "majordomus start <task> --scope src,lib/x.py" in reason
    [line] = ledger(tasked, "tool.denied")
    assert line["path"] == "lib/x.py" and line["tool"] == "Edit"
    assert line["provider"] == "claude-code" and str(line["task_id"]).startswith("t-")


def test_writes_inside_the_scope_and_reads_go_through(tasked: Repo) -> None:
    inside = str(tasked.root / "src" / "new" / "deep.py")
    for tool, args in (
        ("Write", {"file_path": inside, "content": "x = 1\n"}),
        ("Edit", {"file_path": str(tasked.root / ".ai/repo/notes.md")}),  # .ai/ is in scope
        ("Read", {"file_path": str(tasked.root / "lib" / "x.py")}),
        ("Grep", {"pattern": "x", "path": str(tasked.root / "lib")}),
        ("Bash", {"command": "cat lib/x.py > src/copy.py 2>/dev/null && ls -la lib"}),
        ("Bash", {"command": "python -m pytest lib > /tmp/out.txt"}),  # scratch: let through
        ("mcp__other__write", {"file_path": str(tasked.root / "lib/x.py")}),  # not a write tool
    ):
        code, out, err = hook(tasked, payload(tasked, tool, **args))
        assert (code, out, err) == (0, "", ""), (tool, args)
    assert not ledger(tasked, "tool.denied")


@pytest.mark.parametrize(
    "command",
    [
        "echo x > lib/a.py",
        "cd lib && echo x >> a.py",
        "sed -i s/a/b/ lib/a.py",
        "cp src/a.py lib/",
        "mv src/a.py lib/b.py",
        "rm -rf lib",
        "tee lib/a.py < src/a.py",
        "sh -c 'touch lib/a.py'",
        "echo ok && (cd src && echo x > ../lib/a.py)",
        "echo x > src/../lib/a.py",
    ],
)
def test_a_shell_command_that_writes_outside_is_refused(tasked: Repo, command: str) -> None:
    (tasked.root / "lib").mkdir(exist_ok=True)
    code, out, _ = hook(tasked, payload(tasked, "Bash", command=command))
    reason = denial(out)
    assert code == 0 and reason is not None and "lib" in reason, command


def test_the_tools_own_state_and_the_git_directory_are_refused_without_a_task(
    layer_repo: Repo,
) -> None:
    root = layer_repo.root
    for tool, args, said in (
        ("Write", {"file_path": str(root / ".ai/local/state/ledger.jsonl")}, ".ai/local/"),
        ("Bash", {"command": "echo '{}' >> .ai/local/state/ledger.jsonl"}, ".ai/local/"),
        ("Edit", {"file_path": str(root / ".git/hooks/pre-commit")}, "git directory"),
    ):
        code, out, _ = hook(layer_repo, payload(layer_repo, tool, **args))
        reason = denial(out)
        assert code == 0 and reason is not None and said in reason, (tool, args)
    # with no task, a write anywhere else says nothing
    other = payload(layer_repo, "Write", file_path=str(root / "lib/a.py"), content="x")
    assert hook(layer_repo, other) == (0, "", "")


def test_the_policy_can_require_a_task_before_any_write(layer_repo: Repo) -> None:
    policy = layer_repo.root / ".ai/repo/policy.yaml"
    policy.write_text(policy.read_text() + "\nclient_hooks:\n  require_task_for_writes: true\n")
    write = payload(layer_repo, "Write", file_path=str(layer_repo.root / "lib/a.py"))
    code, out, _ = hook(layer_repo, write)
    reason = denial(out)
    assert code == 0 and reason is not None and "no task is active" in reason
    assert "majordomus start" in reason
    read = payload(layer_repo, "Read", file_path=str(layer_repo.root / "lib/a.py"))
    assert hook(layer_repo, read) == (0, "", "")


def test_a_symlink_out_of_the_scope_is_judged_on_its_real_path(tasked: Repo) -> None:
    (tasked.root / "lib").mkdir()
    (tasked.root / "src").mkdir()
    os.symlink(tasked.root / "lib", tasked.root / "src" / "sneaky")
    os.symlink("/etc", tasked.root / "src" / "away")  # out of the repository, not a scratch dir
    for path, real in (
        ("src/sneaky/a.py", "lib/a.py"),
        ("src/away/a.py", "/etc/a.py"),
        ("src/../lib/a.py", "lib/a.py"),
    ):
        code, out, _ = hook(tasked, payload(tasked, "Write", file_path=str(tasked.root / path)))
        reason = denial(out)
        assert code == 0 and reason is not None and f"it writes {real}" in reason, path


@pytest.mark.parametrize(
    "raw",
    [
        b"",
        b"not json",
        b"\xff\xfe\x00garbage",
        b"[1, 2]",
        b'{"tool_name": 7}',
        b'{"tool_name": "Edit", "tool_input": "src/a.py"}',
        b'{"tool_name": "Edit", "tool_input": {"file_path": 7}}',
        b'{"tool_name": "Bash", "tool_input": {"command": ["rm", "x"]}}',
        b"[" * 100_000,
    ],
)
def test_a_payload_it_cannot_judge_goes_through_with_a_warn(tasked: Repo, raw: bytes) -> None:
    code, out, err = hook(tasked, raw)
    assert (code, out) == (0, "")
    if raw.strip():
        assert err.startswith("WARN majordomus capture tool: not judged"), err
        assert ledger(tasked, "hook.unjudged")[-1]["hook"] == "tool"
    assert "Traceback" not in err


def test_hostile_paths_never_13_never_through(tasked: Repo) -> None:
    root = str(tasked.root)
    hostile = [
        {"tool_name": "Write", "tool_input": {"file_path": root + "/lib/\udcff\udcfe.py"}},
        {"tool_name": "Write", "tool_input": {"file_path": root + "/lib/a\x00.py"}},
        {"tool_name": "Write", "tool_input": {"file_path": root + "/" + "../" * 50 + "etc/x"}},
        {"tool_name": "Write", "tool_input": {"file_path": root + "/lib/" + "a" * 5000}},
        {"tool_name": "Write", "tool_input": {"file_path": "lib/relative.py"}, "cwd": root},
    ]
    refused = 0
    for body in hostile:
        raw = json.dumps(body).encode()
        code, out, err = hook(tasked, raw)
        assert code == 0 and "Traceback" not in err, body
        refused += denial(out) is not None
    assert refused == 4  # the NUL path names no file a client can open: nothing to refuse
    huge = payload(tasked, "Write", file_path=root + "/lib/big.py", content="x" * (2 << 20))
    code, out, _ = hook(tasked, huge)
    assert code == 0 and denial(out) is not None  # a large Write is still judged


def test_install_wires_the_tool_hook_and_status_sees_a_hole_in_it(layer_repo: Repo) -> None:
    installed = layer_repo.mj("capture", "install")
    assert installed.code == 0, installed
    shim = layer_repo.root / ".claude/hooks/majordomus-tool"
    assert "capture tool --provider claude-code" in shim.read_text()
    write = payload(layer_repo, "Write", file_path=str(layer_repo.root / ".ai/local/x"))
    import subprocess

    env = {**layer_repo.env, "CLAUDE_PROJECT_DIR": str(layer_repo.root)}
    ran = subprocess.run([str(shim)], input=write, text=True, capture_output=True,
                         cwd=layer_repo.root, env=env, check=False)  # fmt: skip
    assert ran.returncode == 0 and denial(ran.stdout) is not None, ran
    assert "claude-code  verified" in layer_repo.mj("capture", "status").out
    assert "capture" not in layer_repo.mj("doctor").out  # wired: nothing to say
    settings = layer_repo.root / ".claude/settings.json"
    data = json.loads(settings.read_text())
    data["hooks"]["PreToolUse"][0]["matcher"] = "Write|Bash"  # Edit would go unjudged
    settings.write_text(json.dumps(data))
    status = layer_repo.mj("capture", "status").out
    assert "claude-code  named" in status and "6 of 7 settings entries" in status, status
    doctor = layer_repo.mj("doctor").out
    assert "WARN capture     claude-code hooks" in doctor and "6 of 7 settings" in doctor, doctor
    data["hooks"]["PreToolUse"][0]["matcher"] = "Edit|Write|MultiEdit|NotebookEdit|Bash"
    settings.write_text(json.dumps(data))
    shim.write_text(shim.read_text().replace("capture tool", "capture prompt"))
    status = layer_repo.mj("capture", "status").out
    assert "named" in status and "majordomus-tool does not run the command" in status, status


def qwen(repo: Repo, raw: str | bytes) -> tuple[int, str, str]:
    """The tool hook as Qwen Code's PreToolUse runs it (`--provider qwen-code`)."""
    import subprocess

    from conftest import exe

    argv = [exe("majordomus"), "capture", "tool", "--provider", "qwen-code"]
    data = raw.encode() if isinstance(raw, str) else raw
    proc = subprocess.run(argv, cwd=repo.root, env=repo.env, input=data, capture_output=True,
                          timeout=60, check=False)  # fmt: skip
    return proc.returncode, proc.stdout.decode(), proc.stderr.decode()


def qwen_payload(tool: str, **tool_input: object) -> str:
    body = {"session_id": "q-1", "cwd": "", "hook_event_name": "PreToolUse",
            "permission_mode": "yolo", "tool_name": tool, "tool_input": tool_input,
            "tool_use_id": "toolu_1"}  # fmt: skip
    return json.dumps(body)


def test_qwen_code_tools_are_judged_by_their_own_names(tasked: Repo) -> None:
    root = tasked.root
    (root / "lib").mkdir()
    (root / "src").mkdir()
    for tool, args in (
        ("write_file", {"file_path": str(root / "lib/a.py"), "content": "x"}),
        ("edit", {"file_path": str(root / "lib/a.py"), "old_string": "a", "new_string": "b"}),
        ("run_shell_command", {"command": "echo x > a.py", "directory": str(root / "lib")}),
        ("run_shell_command", {"command": "echo x > ../lib/a.py", "directory": str(root / "src")}),
    ):
        code, out, err = qwen(tasked, qwen_payload(tool, **args))
        reason = denial(out)
        assert code == 0 and reason is not None and "it writes lib/a.py" in reason, (tool, err)
    for tool, args in (
        ("write_file", {"file_path": str(root / "src/a.py"), "content": "x"}),
        ("read_file", {"file_path": str(root / "lib/a.py")}),
        ("run_shell_command", {"command": "echo x > a.py", "directory": str(root / "src")}),
        ("Edit", {"file_path": str(root / "lib/a.py")}),  # Claude Code's name: not Qwen's tool
    ):
        assert qwen(tasked, qwen_payload(tool, **args)) == (0, "", ""), tool
    assert {line["provider"] for line in ledger(tasked, "tool.denied")} == {"qwen-code"}


def test_hostile_qwen_code_payloads_never_13_never_a_write(tasked: Repo) -> None:
    root = str(tasked.root)
    (tasked.root / "src").mkdir()
    os.symlink(tasked.root / ".ai" / "local", tasked.root / "src" / "state")
    before = sorted(p.name for p in tasked.root.iterdir())
    non_utf8 = {"tool_name": "write_file", "tool_input": {"file_path": root + "/lib/\udcff.py"}}
    big = qwen_payload("write_file", file_path=root + "/lib/big.py", content="x" * (3 << 20))
    refused = 0
    for raw in (
        b"\xff\xfe{not json",
        b'{"tool_name": "write_file", "tool_input": {"file_path": ["x"]}}',
        b"{" * 200_000,
        json.dumps(non_utf8).encode(),
        qwen_payload("write_file", file_path=root + "/src/state/state/ledger.jsonl").encode(),
        qwen_payload("edit", file_path=root + "/src/" + "../" * 40 + "etc/passwd").encode(),
        big.encode(),
    ):
        code, out, err = qwen(tasked, raw)
        assert code == 0 and "Traceback" not in err, raw[:80]
        refused += denial(out) is not None
    assert refused == 4  # the non-UTF-8 path, the symlink into .ai/local/, /etc, the large write
    assert sorted(p.name for p in tasked.root.iterdir()) == before
    assert not (tasked.root / "lib").exists()


def test_qwen_code_is_wired_beside_the_persons_settings_and_proven(layer_repo: Repo) -> None:
    settings = layer_repo.root / ".qwen/settings.json"
    settings.parent.mkdir()
    settings.write_text('{"model": {"name": "mine"}}\n')
    lacking = layer_repo.mj("capture", "install", "--provider", "qwen-code")
    assert lacking.code == 15 and '"PreToolUse"' in lacking.out and '"SubagentStop"' in lacking.out
    assert settings.read_text() == '{"model": {"name": "mine"}}\n'  # never overwritten
    entries = json.loads(lacking.out[lacking.out.index("{") :])
    assert entries["PreToolUse"][0]["matcher"] == "write_file|edit|run_shell_command"
    assert (
        "capture tool --provider qwen-code"
        in (layer_repo.root / ".qwen/hooks/majordomus-tool").read_text()
    )
    settings.write_text(json.dumps({"model": {"name": "mine"}, "hooks": entries}))  # by hand
    policy = layer_repo.root / ".ai/repo/policy.yaml"
    entry = (
        "  - name: qwen-hooks\n    path: majordomus\n    args:\n      - capture\n"
        "    wired_by: provider-hook:qwen-code\n"
    )
    text = policy.read_text()
    policy.write_text(text.replace("enforcement:", "enforcement:\n" + entry.rstrip("\n"), 1))
    status = layer_repo.mj("capture", "status").out
    assert "qwen-code    verified" in status and "copilot      unconfigured" in status, status
    doctor = layer_repo.mj("doctor").out
    assert "OK   wiring      qwen-hooks — provider-hook:qwen-code: verified" in doctor, doctor
    assert "act time — codex" not in doctor  # an adapter of its own: nothing to say
    listed = layer_repo.mj("doctrine", "list").out
    assert "act time: qwen-code — PreToolUse: a write outside" in listed
    assert "Stop, SubagentStop: a turn that ends with finish --check unmet is held" in listed
    assert "act time: copilot — preToolUse: a write outside" in listed
    assert "agentStop, subagentStop: a turn that ends with finish --check unmet is held" in listed
    summary = "hooks: claude-code, gemini, qwen-code, codex, copilot\n"
    assert summary in listed
