"""Machine output is uniform: every public command's `--json` is JSON Lines, every line a
record of a kind with a schema under `share/schemas/pipeline/`, and the last line the stream's
`summary`, whose exit code is the command's.

Each command runs in a fresh copy of one scratch repository set up so that it has something
to say (a layer, a plan, a skill, a task with a checkpoint, decisions, a question, an open
session). The kinds a command may emit are declared beside it (`emits` in
`share/commands.yaml`, listed in docs/CLI.md); what it emits must be among them.

The two shapes the Decisions fix (CLI-REFERENCE, Decision 7) keep them: `context --json` (and
`session context --json`, the same document) is one document, the `context` kind, with no
summary after it; `history --json` is the stored ledger lines verbatim, each a ledger event of
the vocabulary (`share/events.yaml`), with no summary after them. Commands whose standard output
is another protocol (`mcp serve`: MCP; `capture prompt` and `capture session`: the provider's
hook) and the walkthrough for a person (`tour`) take no `--json` (2).
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path
from typing import Any

import pytest
import streamcontract
from conftest import Repo
from conftest import make_repo
from test_plan import BASE
from test_plan import PROJECT
from test_plan import issue
from test_plan import milestone

SHARE = Path(__file__).resolve().parents[1] / "share"
HANDOVER = "# Objective\nRing.\n# Current State\nHalf.\n# Next Action\nThe rest.\n"
NOTE = "# Next Action\nPick the rest up.\n"
SKILL = "---\nschema: skill/v1\nid: ringing\n---\n\n# Purpose\nRing birds.\n"
# (argv, stdin): every public command and action, each with something to say
CASES: list[tuple[tuple[str, ...], str | None]] = [
    (("start", "another", "--scope", "docs"), None),
    (("check",), None),
    (("finish", "--check"), None),
    (("finish", "--outcome", "partial", "--note", "-"), NOTE),
    (("sync",), None),
    (("claims",), None),
    (("evidence", "--covers", "tests", "--command", "true"), None),
    (("context", "validate"), None),
    (("context", "affected"), None),
    (("context", "check-sync"), None),
    (("context", "list"), None),
    (("context", "resolve", "src"), None),
    (("context", "explain", "src/a.py"), None),
    (("plan", "validate"), None),
    (("plan", "status"), None),
    (("plan", "list"), None),
    (("plan", "show", "I0001"), None),
    (("plan", "ready"), None),
    (("plan", "blocked"), None),
    (("plan", "waves"), None),
    (("plan", "graph"), None),
    (("plan", "next"), None),
    (("plan", "body", "I0001"), None),
    (("plan", "start", "I0001"), None),
    (("plan", "verify", "I0003"), None),
    (("plan", "evidence", "I0003", "--covers", "tests", "--command", "true"), None),
    (("plan", "done", "I0003"), None),
    (("session", "start"), None),
    (("session", "status"), None),
    (("session", "close"), None),
    (("session", "list"), None),
    (("session", "show", "s-20000101000000-0000"), None),
    (("session", "latest"), None),
    (("session", "archive", "--dry-run"), None),
    (("checkpoint",), "a progress note\n"),
    (("checkpoint", "--list"), None),
    (("handover",), HANDOVER),
    (("handover", "--resolve"), None),
    (("history", "--validate"), None),
    (("history", "--rotate"), None),
    (("decision", "add", "use tabs", "--why", "taste"), None),
    (("decision", "list"), None),
    (("decision", "show", "spaces"), None),
    (("question", "add", "which birds?"), None),
    (("question", "resolve", "1", "--answer", "these"), None),
    (("question", "list"), None),
    (("prompt", "list"), None),
    (("prompt", "show", "resume"), None),
    (("prompt", "render", "resume"), None),
    (("search", "tabs"), None),
    (("search", "no such text anywhere"), None),
    (("knowledge", "sources"), None),
    (("knowledge", "nodes"), None),
    (("knowledge", "edges"), None),
    (("knowledge", "related", "--path", "src"), None),
    (("knowledge", "derive"), None),
    (("knowledge", "candidates"), None),
    (("knowledge", "promote", "none"), None),
    (("knowledge", "reject", "none", "--reason", "no"), None),
    (("knowledge", "check"), None),
    (("skills", "list"), None),
    (("skills", "show", "ringing"), None),
    (("skills", "check"), None),
    (("adr", "propose", "use queues"), None),
    (("adr", "list"), None),
    (("adr", "show", "adr-0001"), None),
    (("adr", "next"), None),
    (("adr", "check"), None),
    (("adr", "affected"), None),
    (("rules", "list"), None),
    (("rules", "show", "majordomus.context-budget"), None),
    (("rules", "vendor", "status"), None),
    (("rules", "vendor", "diff"), None),
    (("rules", "vendor", "update"), None),
    (("doctrine", "status"), None),
    (("doctrine", "list"), None),
    (("doctrine", "show", "majordomus.context-budget"), None),
    (("ratchet", "check"), None),
    (("ratchet", "update"), None),
    (("init", "--extend"), None),
    (("update",), None),
    (("update", "--check"), None),
    (("doctor",), None),
    (("recover",), None),
    (("capture", "install"), None),
    (("capture", "status"), None),
    (("capture", "acknowledge"), None),
    (("capture", "render"), None),
    (("capture", "reconcile"), None),
    (("capture", "prune"), None),
    (("watch",), None),
    (("archive", "--list"), None),
    (("archive", "--dry-run"), None),
    (("mcp", "install", "--provider", "codex"), None),
    (("version",), None),
    (("bench", "--list"), None),
    (("bench", "version", "--samples", "1", "--warmup", "0", "--no-save"), None),
    (("receipt",), None),
    (("receipt", "--for", "claude-code", "--path", "src/a.py"), None),
    (("verify", "--base", "HEAD"), None),
]
# the shapes the Decisions fix (Decision 7), each validated line by line
DOCUMENT = [(("context",), None), (("session", "context"), None)]
LEDGER = [(("history",), None), (("history", "--all"), None)]
# standard output is another protocol, or a walkthrough for a person: no --json
NO_JSON = [
    ("mcp", "serve"),
    ("capture", "prompt"),
    ("capture", "session", "--event", "start"),
    ("capture", "stop"),
    ("tour",),
]
# the client's tool hook lets every call through whatever it is given (it must not brick the
# person's session): an option it does not take is a one-line WARN, exit 0, nothing on stdout
FAIL_OPEN = [("capture", "tool")]


def _declared() -> dict[str, dict[str, Any]]:
    commands = json.loads((SHARE / "commands.json").read_text())["commands"]
    return {str(spec["name"]): spec for spec in commands}


def _name(argv: tuple[str, ...]) -> str:
    """The declared command `argv` runs (`rules vendor status`, `plan graph`, `check`)."""
    declared = _declared()
    for size in (3, 2):
        if " ".join(argv[:size]) in declared:
            return " ".join(argv[:size])
    return argv[0]


@pytest.fixture(scope="module")
def template(tmp_path_factory: pytest.TempPathFactory) -> Repo:
    root = tmp_path_factory.mktemp("json")
    repo = make_repo(root / "repo", root / "home")

    def ok(*args: str, stdin: str | None = None) -> None:
        done = repo.mj(*args, stdin=stdin)
        assert done.code == 0, (args, done)

    ok("init")
    ok("update")
    repo.write("src/a.py", "print(1)\n")
    repo.write(f"{BASE}/project.yaml", PROJECT)
    milestone(repo, "M000")
    issue(repo, "I0001")
    issue(repo, "I0002", "I0001")
    issue(repo, "I0003", extra="started_at: 2026-12-01T10:00:00Z\n")
    repo.write(".ai/repo/skills/ringing/SKILL.md", SKILL)
    repo.commit("adopt, with a plan and a skill")
    ok("start", "ring the birds", "--scope", "src", "--requires", "tests")
    repo.write("src/a.py", "print(2)\n")
    ok("checkpoint", stdin="half way\n")
    ok("decision", "add", "use spaces", "--why", "taste")
    ok("question", "add", "which birds?")
    ok("session", "start")
    ok("adr", "propose", "ring the birds")
    return repo


@pytest.fixture
def scratch(template: Repo, tmp_path: Path) -> Repo:
    """A copy of the template, its own home and environment."""
    root = tmp_path / "repo"
    shutil.copytree(template.root, root, symlinks=True)
    env = dict(template.env)
    env["HOME"] = str(tmp_path / "home")
    Path(env["HOME"]).mkdir()
    return Repo(root, env)


def _records(argv: tuple[str, ...], out: str) -> list[dict[str, Any]]:
    records = []
    for number, line in enumerate(out.splitlines(), 1):
        try:
            value = json.loads(line)
        except ValueError:
            pytest.fail(f"majordomus {' '.join(argv)} --json: line {number} is not JSON: {line!r}")
        assert isinstance(value, dict), (argv, line)
        records.append(value)
    return records


def _problems(argv: tuple[str, ...], records: list[dict[str, Any]]) -> list[str]:
    checks = streamcontract.validators()
    found = []
    for record in records:
        sample = streamcontract.Sample(["majordomus", *argv, "--json"], "majordomus", record)
        found += streamcontract.problems_of(sample, checks)
    return found


@pytest.mark.parametrize(("argv", "stdin"), CASES, ids=[" ".join(a) for a, _ in CASES])
def test_every_line_is_a_declared_kind_and_the_summary_is_last(
    scratch: Repo, argv: tuple[str, ...], stdin: str | None
) -> None:
    spec = _declared()[_name(argv)]
    result = scratch.mj(*argv, "--json", stdin=stdin)
    assert result.code in spec["exits"], (argv, result)
    records = _records(argv, result.out)
    assert records, (argv, result)
    assert _problems(argv, records) == []
    assert records[-1]["kind"] == "summary", (argv, records[-1])
    assert records[-1]["exit"] == result.code, (argv, records[-1], result.code)
    assert [r for r in records[:-1] if r["kind"] == "summary"] == [], argv
    emitted = {str(r["kind"]) for r in records[:-1]}
    assert emitted <= set(spec.get("emits") or []), (argv, emitted, spec.get("emits"))


@pytest.mark.parametrize(("argv", "stdin"), DOCUMENT, ids=[" ".join(a) for a, _ in DOCUMENT])
def test_the_context_document_is_one_record_of_its_kind(
    scratch: Repo, argv: tuple[str, ...], stdin: str | None
) -> None:
    result = scratch.mj(*argv, "--json", stdin=stdin)
    assert result.code == 0, result
    (record,) = _records(argv, result.out)  # one document (Decision 7)
    assert record["kind"] == "context"
    assert _problems(argv, [record]) == []
    assert {"git", "task", "sections", "excluded", "budget"} <= set(record)


@pytest.mark.parametrize(("argv", "stdin"), LEDGER, ids=[" ".join(a) for a, _ in LEDGER])
def test_history_is_the_stored_ledger_lines_verbatim(
    scratch: Repo, argv: tuple[str, ...], stdin: str | None
) -> None:
    result = scratch.mj(*argv, "--json", stdin=stdin)
    assert result.code == 0, result
    stored = (scratch.root / ".ai/local/state/ledger.jsonl").read_text().splitlines()
    shown = result.out.splitlines()
    assert shown and shown == stored[-len(shown) :]  # verbatim, oldest first (Decision 7)
    vocabulary = json.loads((SHARE / "events.json").read_text())["events"]
    for record in _records(argv, result.out):
        assert record["event"] in vocabulary and "ts" in record and "kind" not in record


@pytest.mark.parametrize("argv", NO_JSON, ids=[" ".join(a) for a in NO_JSON])
def test_a_command_whose_output_is_another_protocol_takes_no_json(
    scratch: Repo, argv: tuple[str, ...]
) -> None:
    result = scratch.mj(*argv, "--json")
    assert result.code == 2, result
    assert result.out == "" and result.err.count("\n") == 1, result


def test_every_public_command_and_action_is_covered() -> None:
    declared = _declared()
    public = {n for n, s in declared.items() if s.get("pipeline") or s.get("render")}
    public -= {n for n, s in declared.items() if s.get("actions") and not s.get("pipeline")}
    covered = {_name(argv) for argv, _ in CASES + DOCUMENT + LEDGER}
    covered |= {_name(argv) for argv in NO_JSON + FAIL_OPEN}
    listed = {n for n in public if n.split(" ", 1)[0] in _groups()}
    assert listed - covered == set()


def _groups() -> set[str]:
    groups = json.loads((SHARE / "commands.json").read_text())["groups"]
    return {name for group in groups for name in group["commands"]}


@pytest.mark.parametrize("argv", FAIL_OPEN, ids=[" ".join(a) for a in FAIL_OPEN])
def test_the_tool_hook_takes_no_json_and_still_lets_the_call_through(
    scratch: Repo, argv: tuple[str, ...]
) -> None:
    result = scratch.mj(*argv, "--json", stdin="{}")
    assert result.code == 0, result
    assert result.out == "" and result.err.count("\n") == 1, result
    assert result.err.startswith("WARN ") and "--json" in result.err, result
