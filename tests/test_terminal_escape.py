"""Nothing a worker typed reaches the terminal raw.

One repository is filled with hostile text in every field a worker controls — file names, the
task, its scope and owner, decisions, questions, checkpoint and handover bodies, evidence, an
ADR title, a plan issue, session owners — each carrying an OSC title sequence, CSI colours, a
C1 CSI, DEL, a carriage return and bidirectional overrides and isolates. Then every command
`share/commands.json` declares with human output runs there (a new command fails the coverage
test until it is named here), and neither its stdout nor its stderr may carry a control
character other than newline and tab, a bidirectional control, or a byte that is not UTF-8.
Under `--json` the stream stays exact JSON (its own escapes; C1 and bidi text kept as data).
"""

from __future__ import annotations

import json
import subprocess
from collections.abc import Iterator
from pathlib import Path

import pytest
from conftest import Repo
from conftest import exe
from conftest import make_repo

ROOT = Path(__file__).resolve().parents[1]
HOSTILE = "\x1b]0;pwned\x07\x1b[31mred\u009b2J\u202eevil\u2066iso\x7fback\x1b\\"  # one line
NAME = "hostile\x1b]8;;http://x\x07link\u202e\x1b[0m"  # a file name: no carriage return
SHOWN = "\\x1b]"  # how an OSC sequence reads once escaped
FORBIDDEN = {*range(0x09), *range(0x0B, 0x20), *range(0x7F, 0xA0)}
FORBIDDEN |= {
    0x061C,
    0x200E,
    0x200F,
    0x2028,
    0x2029,
    *range(0x202A, 0x202F),
    *range(0x2066, 0x206A),
}
NOTE = (
    f"# Objective\nEscape {HOSTILE}\rover text.\n# Current State\nHalf {HOSTILE}.\n"
    f"# Next Action\nThe rest {HOSTILE}.\n"
)
ISSUE = """id: I0001
milestone: M000
title: "Issue \\e]0;pwned\\a \\u202e"
slug: issue-one
priority: p1
profile: implementation
parallel_safe: true
objective: "Do \\e[31m it."
why: "Because."
current_state: "Not done."
desired_state: "Done."
scope: [src]
non_scope: []
depends_on: []
acceptance_criteria: ["it works \\x9b"]
validation: ["make test"]
evidence_required: []
risk: "low"
"""
MILESTONE = """id: M000
title: "Outcome \\e]0;pwned\\a"
slug: outcome
order: 0
priority: p0
problem: "Nothing works."
outcome: "It works."
current_state: "Broken."
desired_state: "Working."
scope: [src]
non_scope: []
acceptance_criteria: ["the parser parses"]
validation: ["make test"]
evidence_required: []
risks: []
created_at: 2026-12-01
updated_at: 2026-12-01
"""
PROJECT = "schema_version: 1\nname: Demo\nrepository: demo/demo\ndefault_branch: main\n"

# Every command with human output, and how it runs in the hostile repository: read-only ones
# first, writers last (the parametrised order is this order).
RUNS: dict[str, list[str]] = {
    "check": ["check"],
    "sync": ["sync"],
    "claims": ["claims"],
    "verify": ["verify", "--base", "HEAD~1"],
    "context": ["context"],
    "context validate": ["context", "validate"],
    "context affected": ["context", "affected", "--worktree"],
    "context check-sync": ["context", "check-sync"],
    "context list": ["context", "list"],
    "context resolve": ["context", "resolve", f"src/{NAME}.py"],
    "context explain": ["context", "explain", f"src/{NAME}.py"],
    "plan": ["plan"],
    "plan validate": ["plan", "validate"],
    "plan status": ["plan", "status"],
    "plan list": ["plan", "list"],
    "plan show": ["plan", "show", "I0001"],
    "plan ready": ["plan", "ready"],
    "plan blocked": ["plan", "blocked"],
    "plan waves": ["plan", "waves"],
    "plan graph": ["plan", "graph"],
    "plan next": ["plan", "next"],
    "plan body": ["plan", "body", "I0001"],
    "plan verify": ["plan", "verify", "I0001"],
    "skills": ["skills"],
    "skills list": ["skills", "list"],
    "skills show": ["skills", "show", HOSTILE],
    "skills check": ["skills", "check"],
    "adr": ["adr"],
    "adr list": ["adr", "list"],
    "adr show": ["adr", "show", "1"],
    "adr next": ["adr", "next"],
    "adr check": ["adr", "check"],
    "adr affected": ["adr", "affected", "--worktree"],
    "session": ["session"],
    "session status": ["session", "status"],
    "session list": ["session", "list", "--all"],
    "session show": ["session", "show", HOSTILE],
    "session latest": ["session", "latest"],
    "session context": ["session", "context", HOSTILE],
    "checkpoint": ["checkpoint", "--list"],
    "handover": ["handover", "--resolve"],
    "history": ["history"],
    "search": ["search", "pwned"],
    "doctrine": ["doctrine"],
    "doctrine status": ["doctrine", "status"],
    "doctrine list": ["doctrine", "list"],
    "doctrine show": ["doctrine", "show", HOSTILE],
    "ratchet": ["ratchet"],
    "ratchet check": ["ratchet", "check"],
    "decision": ["decision"],
    "decision list": ["decision", "list"],
    "decision show": ["decision", "show", "pwned"],
    "question": ["question"],
    "question list": ["question", "list", "--all"],
    "prompt": ["prompt"],
    "prompt list": ["prompt", "list"],
    "prompt show": ["prompt", "show", HOSTILE],
    "prompt render": ["prompt", "render", HOSTILE],
    "knowledge": ["knowledge"],
    "knowledge sources": ["knowledge", "sources"],
    "knowledge nodes": ["knowledge", "nodes"],
    "knowledge edges": ["knowledge", "edges"],
    "knowledge related": ["knowledge", "related", HOSTILE],
    "knowledge candidates": ["knowledge", "candidates"],
    "knowledge check": ["knowledge", "check"],
    "rules": ["rules"],
    "rules list": ["rules", "list"],
    "rules show": ["rules", "show", HOSTILE],
    "rules vendor status": ["rules", "vendor", "status"],
    "rules vendor diff": ["rules", "vendor", "diff"],
    "receipt": ["receipt"],
    "update": ["update", "--check"],
    "doctor": ["doctor"],
    "capture": ["capture"],
    "capture status": ["capture", "status"],
    "watch": ["watch"],
    "mcp": ["mcp"],
    "version": ["version"],
    "bench": ["bench", "--list"],
    "finish": ["finish", "--check"],
    "evidence": ["evidence", "--covers", HOSTILE, "--result", "pass", "--command", HOSTILE],
    "plan evidence": ["plan", "evidence", "I0001", "--covers", HOSTILE, "--result", "pass"],
    "plan start": ["plan", "start", "I0001"],
    "plan done": ["plan", "done", "I0001"],
    "adr propose": ["adr", "propose", HOSTILE],
    "session start": ["session", "start", "--owner", HOSTILE, "--worker", HOSTILE],
    "session close": ["session", "close", "--outcome", "completed"],
    "session archive": ["session", "archive", "--dry-run"],
    "decision add": ["decision", "add", f"again {HOSTILE}", "--why", f"because {HOSTILE}"],
    "question add": ["question", "add", f"again {HOSTILE}?"],
    "question resolve": ["question", "resolve", "pwned", "--answer", HOSTILE],
    "knowledge derive": ["knowledge", "derive", "--dry-run"],
    "knowledge promote": ["knowledge", "promote", HOSTILE],
    "knowledge reject": ["knowledge", "reject", HOSTILE, "--reason", HOSTILE],
    "ratchet update": ["ratchet", "update", "--why", HOSTILE],
    "rules vendor update": ["rules", "vendor", "update"],
    "init": ["init", "--extend"],
    "recover": ["recover", HOSTILE, "--check"],
    "capture install": ["capture", "install", "--provider", HOSTILE],
    "capture acknowledge": ["capture", "acknowledge"],
    "capture render": ["capture", "render"],
    "capture reconcile": ["capture", "reconcile", "--dry-run"],
    "capture prune": ["capture", "prune", "--dry-run"],
    "mcp install": ["mcp", "install", "--provider", HOSTILE],
    "archive": ["archive", HOSTILE, "--list"],
    "start": ["start", f"second {HOSTILE}", "--scope", f"src/{NAME}.py"],
    "finish --outcome": ["finish", "--outcome", "failed", "--note", NOTE],
}
# what another run above already shows (the parent's default action, a second form)
FORMS = {"finish --outcome": "finish"}


def _declared_human() -> set[str]:
    """Every declared command whose standard output is for a person (not another protocol)."""
    commands = json.loads((ROOT / "share" / "commands.json").read_text())["commands"]
    return {c["name"] for c in commands if c.get("json") != "none"}


def _raw(data: bytes) -> list[str]:
    """Each control character, bidi control or undecodable byte in `data`, named."""
    text = data.decode("utf-8", "surrogateescape")
    return sorted(
        {f"U+{ord(c):04X}" for c in text if ord(c) in FORBIDDEN or 0xDC80 <= ord(c) <= 0xDCFF}
    )


def _run(
    repo: Repo, argv: list[str], stdin: str | None = None
) -> subprocess.CompletedProcess[bytes]:
    return subprocess.run(
        [exe("majordomus"), *argv],
        cwd=repo.root,
        env=repo.env,
        input=None if stdin is None else stdin.encode(),
        capture_output=True,
        check=False,
        timeout=120,
    )


def _setup(repo: Repo, argv: list[str], stdin: str | None = None) -> None:
    done = _run(repo, argv, stdin)
    assert done.returncode == 0, (argv, done)


@pytest.fixture(scope="module")
def hostile(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Repo]:
    base = tmp_path_factory.mktemp("hostile")
    repo = make_repo(base / "repo", base / "home")
    _setup(repo, ["init"])
    repo.write(".ai/repo/project/project.yaml", PROJECT)
    repo.write(".ai/repo/project/milestones/M000.yaml", MILESTONE)
    repo.write(".ai/repo/project/issues/I0001.yaml", ISSUE)
    repo.write(f"src/{NAME}.py", "x = 1\n")
    repo.commit(f"adopt {HOSTILE}")
    repo.write(f"src/{NAME}.txt", "untracked\n")
    repo.write(f"lib/{NAME}.py", "outside the scope\n")
    _setup(repo, ["session", "start", "--owner", HOSTILE, "--worker", HOSTILE])
    _setup(repo, ["start", f"task {HOSTILE}", "--scope", f"src,src/{NAME}.py", "--owner", HOSTILE])
    _setup(repo, ["decision", "add", f"title {HOSTILE}", "--why", f"because {HOSTILE}"])
    _setup(repo, ["question", "add", f"question {HOSTILE}?"])
    _setup(repo, ["checkpoint"], NOTE)
    _setup(repo, ["handover", "--no-task"], NOTE)
    yield repo


def test_every_human_command_is_run_with_hostile_text() -> None:
    """A command added to the declaration is named here, or this fails."""
    named = {FORMS.get(name, name) for name in RUNS}
    assert _declared_human() - named == set(), "run these with hostile text too"
    assert named - _declared_human() == set(), "no longer declared"


@pytest.mark.parametrize("name", list(RUNS))
def test_no_control_character_reaches_the_terminal(hostile: Repo, name: str) -> None:
    done = _run(hostile, RUNS[name])
    assert done.returncode != 13, done
    assert _raw(done.stdout) == [], (name, done.stdout[-2000:])
    assert _raw(done.stderr) == [], (name, done.stderr[-2000:])


@pytest.mark.parametrize(
    "argv",
    [["check"], ["finish", "--check"], ["decision", "list"], ["question", "list"], ["history"]],
)
def test_the_hostile_text_is_shown_escaped_not_dropped(hostile: Repo, argv: list[str]) -> None:
    done = _run(hostile, argv)
    assert SHOWN in done.stdout.decode(), done.stdout.decode()


def test_json_keeps_the_exact_data(hostile: Repo) -> None:
    done = _run(hostile, ["decision", "list", "--json"])
    assert done.returncode == 0, done
    titles = [json.loads(line).get("title", "") for line in done.stdout.decode().splitlines()]
    assert f"title {HOSTILE}" in titles, titles
    assert b"\x1b" not in done.stdout  # JSON's own escape, \u001b
