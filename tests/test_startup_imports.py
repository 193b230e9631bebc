"""Start-up diet: what a command's process imports is part of its speed contract.

Each command below runs with `PYTHONPROFILEIMPORTTIME=1` (the environment form of
`python -X importtime`) in a scratch repository with an active task; the modules it imported
are read back from stderr. None of the heavy modules may appear: the tool runs from git hooks,
and each of these costs milliseconds on every run (see docs/PERFORMANCE.md).
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from conftest import Repo

HEAVY = {
    "typing",
    "dataclasses",
    "locale",  # gettext's catalogue lookup imports it: argparse's messages are taken as written
    "gettext",  # argparse is imported without it (`mj_core.english`)
    "inspect",
    "yaml",
    "jsonschema",
    "orjson",
    "git",  # GitPython
    "subprocess",
    "shutil",
    "tempfile",
    "random",
    "uuid",
    "platform",
    "_strptime",
    "datetime",
    "mcp",  # the MCP SDK: only `majordomus mcp` imports it
    "anyio",
    "pydantic",
    "detect_secrets",  # the credential detector: only for text that may hold a credential
    "requests",  # which it imports
}
STAMPS = {"hashlib"}  # stamps and rule hashes are SHA-256: only the commands that check them pay
HASHING = ("doctor", "watch", "update", "rules")
IMPORTED = re.compile(r"^import time:\s+\d+ \|\s+\d+ \|\s*(\S+)$", re.M)
COMMANDS = (
    ("--help",),
    ("version",),
    ("check",),
    ("history",),
    ("history", "--validate"),
    ("context",),
    ("finish", "--check"),
    ("checkpoint",),
    ("handover", "--resolve"),
    ("decision", "list"),
    ("question", "list"),
    ("prompt", "list"),
    ("search", "narrow"),
    ("rules",),
    ("update", "--dry-run"),
    ("doctor",),
    ("watch",),
)


@pytest.fixture
def busy(layer_repo: Repo) -> Repo:
    started = layer_repo.mj("start", "narrow the parser", "--scope", "lib", "--owner", "o")
    assert started.code == 0, started
    layer_repo.write("lib/a.py", "a = 1\n")
    checkpoint = layer_repo.mj("checkpoint", stdin="parser narrowed\n")
    assert checkpoint.code == 0, checkpoint
    return layer_repo


def imported(repo: Repo, *argv: str) -> tuple[int, set[str]]:
    env = {**repo.env, "PYTHONPROFILEIMPORTTIME": "1"}
    saved, repo.env = repo.env, env
    try:
        result = repo.mj(*argv, stdin="measured progress\n" if argv[0] == "checkpoint" else None)
    finally:
        repo.env = saved
    names = set(IMPORTED.findall(result.err))
    assert "mj_core" in names or argv in (("version",), ("--help",)), result.err[-2000:]
    return result.code, names


@pytest.mark.parametrize("argv", COMMANDS, ids=" ".join)
def test_a_command_imports_nothing_heavy(busy: Repo, argv: tuple[str, ...]) -> None:
    code, names = imported(busy, *argv)
    assert code in (0, 10, 11), (argv, code)
    heavy = HEAVY if argv[0] in HASHING else HEAVY | STAMPS
    assert not names & heavy, sorted(names & heavy)


# what a command's own work does not need, left to the commands (and the cases) that do: the
# hook adapters' shims and the MCP wiring are read only for a touched path that is one of theirs
NOT_HERE: dict[tuple[str, ...], set[str]] = {
    ("check",): {"mj_policy.hooks.adapters", "mj_policy.hooks.settings",
                 "mj_policy.hooks.mcp_wiring", "mj_core.self_exe"},
    # the rotation's rule is `--rotate`'s; the mirror is read only with a `remote:` block
    ("history",): {"mj_state.ledger.rotation", "mj_state.mirror"},
    ("history", "--validate"): {"mj_state.ledger.rotation", "mj_state.mirror"},
    # the note, the questions and the decisions are a real finish's to read
    ("finish", "--check"): {"mj_policy.hooks.adapters", "mj_policy.hooks.settings",
                            "mj_policy.hooks.mcp_wiring", "mj_core.self_exe",
                            "mj_state.records.resolve", "mj_state.records.bodies",
                            "mj_state.records.questions", "mj_state.records.decisions"},
    # no decision record and no skill in the layer: neither model nor its judges is loaded
    ("doctor",): {"mj_policy.adr.model", "mj_policy.adr.stages", "mj_state.records.adr_check",
                  "mj_state.records.refs", "mj_state.records.references",
                  "mj_state.records.reference_stores",
                  "mj_policy.skills.stages"},
    # no plan in the repository: the briefing loads none of the plan's modules; no candidate
    # waits, so none is surveyed; the stages' input is in-process, never checked as a file's
    ("context",): {"mj_policy.plan.cache", "mj_policy.plan.views", "mj_policy.plan.model",
                   "mj_context.plan_sections", "mj_knowledge.candidates", "mj_core.stream.check",
                   "mj_policy.layer.declarations"},  # no workspace declared: their reader stays out
}  # fmt: skip


@pytest.mark.parametrize("argv", list(NOT_HERE), ids=" ".join)
def test_a_hook_path_command_imports_only_what_its_work_needs(
    busy: Repo, argv: tuple[str, ...]
) -> None:
    code, names = imported(busy, *argv)
    assert code in (0, 10, 11), (argv, code)
    assert not names & NOT_HERE[argv], sorted(names & NOT_HERE[argv])


HOOK_PATH = (("check",), ("check", "--overlap"), ("finish", "--check"), ("context",),
             ("doctor",), ("history", "--validate"), ("watch",))  # fmt: skip


def test_the_hook_path_reads_the_mirror_and_never_imports_the_remote(
    busy: Repo, tmp_path: Path
) -> None:
    """With `remote:` set and a sync done, the commands a hook runs read the last sync's mirror
    (`mj_state.mirror`) and import nothing of the remote folder (`mj_state.remote`)."""
    remote = tmp_path / "remote.git"
    busy.git("init", "-q", "--bare", str(remote))
    busy.git("remote", "add", "origin", str(remote))
    policy = busy.root / ".ai/repo/policy.yaml"
    policy.write_text(policy.read_text() + "\nremote:\n  name: origin\n")
    assert busy.mj("sync").code == 0
    for argv in HOOK_PATH:
        code, names = imported(busy, *argv)
        assert code in (0, 10, 11), (argv, code)
        assert "mj_state.mirror" in names or argv in (("finish", "--check"), ("context",)), argv
        assert not {n for n in names if n.split(".")[:2] == ["mj_state", "remote"]}, argv


# the tool hook runs before every tool call of a worker: beyond the heavy modules, it builds no
# parser, reads no declaration, opens no YAML and does not load `pathlib`
TOOL_HOOK_NEVER = {
    "argparse",
    "pathlib",
    "mj_core.declaration.commands",
    "mj_core.yaml.fast",
    "mj_policy.layer.loader",
}


@pytest.mark.parametrize("tool", ["Edit", "Bash"])
def test_the_tool_hook_imports_only_its_judgement(busy: Repo, tool: str) -> None:
    import json

    args = {"file_path": str(busy.root / "lib/b.py")} if tool == "Edit" else {"command": "ls"}
    body = {"hook_event_name": "PreToolUse", "tool_name": tool, "tool_input": args,
            "cwd": str(busy.root)}  # fmt: skip
    env = {**busy.env, "PYTHONPROFILEIMPORTTIME": "1"}
    saved, busy.env = busy.env, env
    try:
        result = busy.run("capture", "tool", "--provider", "claude-code", stdin=json.dumps(body))
    finally:
        busy.env = saved
    names = set(IMPORTED.findall(result.err))
    assert result.code == 0 and result.out == "", result  # in scope: nothing to say
    assert "mj_watch.act.judge" in names or tool == "Bash", sorted(names)
    assert not names & (HEAVY | STAMPS | TOOL_HOOK_NEVER), sorted(names & (HEAVY | TOOL_HOOK_NEVER))


# a refused call writes one ledger line: the ledger's writer, none of its readers, no YAML (no
# episode is open), and no git process or its modules where git's files tell where HEAD is
REFUSAL_NEVER = {"mj_state.ledger.scan", "mj_state.ledger.tail", "mj_core.yaml.strict",
                 "mj_core.git.run", "mj_core.spawn", "argparse",
                 "mj_core.declaration.commands"}  # fmt: skip


def test_a_refused_tool_call_imports_only_the_ledgers_writer(busy: Repo) -> None:
    import json

    args = {"file_path": str(busy.root / "elsewhere/b.py"), "old_string": "a", "new_string": "b"}
    body = {"hook_event_name": "PreToolUse", "tool_name": "Edit", "tool_input": args,
            "cwd": str(busy.root)}  # fmt: skip
    env = {**busy.env, "PYTHONPROFILEIMPORTTIME": "1"}
    saved, busy.env = busy.env, env
    try:
        result = busy.run("capture", "tool", "--provider", "claude-code", stdin=json.dumps(body))
    finally:
        busy.env = saved
    names = set(IMPORTED.findall(result.err))
    assert result.code == 0 and '"deny"' in result.out, result
    assert "mj_state.ledger.write" in names, sorted(names)
    assert not names & (HEAVY | STAMPS | REFUSAL_NEVER), sorted(names & (HEAVY | REFUSAL_NEVER))
    assert '"tool.denied"' in (busy.root / ".ai/local/state/ledger.jsonl").read_text()


# quoting and wrapping are for a finding that prints a command, or a pointer's text: the commit
# gate's `update --check` on a tree whose provider files are current imports neither (nor the
# hand-over of files `init --import` read, when no rule names one)
QUOTING = {"shlex", "textwrap"}


def test_a_current_tree_imports_no_quoting(busy: Repo) -> None:
    assert busy.mj("update").code == 0
    code, names = imported(busy, "update", "--check")
    assert code == 0, code
    assert "mj_policy.projection.verdict" in names, sorted(names)
    assert not names & QUOTING, sorted(names & QUOTING)
    assert "mj_policy.adoption.handover" not in names  # nothing was imported by `init --import`
