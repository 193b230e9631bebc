"""What an ordinary day leaves behind and prints.

A closed episode's record is shared (`.ai/repo/sessions/`), so it names what it refers to by
identity, never by a path under the checkout's own, untracked `.ai/local/`: a checkpoint or a
handover by its record's name. The hook line `init` prints for the pre-commit hook runs
`doctor --brief`: one line when all is well, the full report when something fails; plain
`doctor` prints the full report as before.
"""

from __future__ import annotations

import json
import subprocess

from conftest import Repo
from conftest import wire

STATE = ".ai/local/state"


def shim(repo: Repo, name: str, payload: dict[str, object]) -> None:
    env = {**repo.env, "CLAUDE_PROJECT_DIR": str(repo.root)}
    done = subprocess.run(
        [str(repo.root / ".claude/hooks" / name)],
        cwd=repo.root,
        env=env,
        input=json.dumps(payload),
        capture_output=True,
        text=True,
        check=False,
        timeout=120,
    )
    assert done.returncode == 0, done


def test_a_session_record_names_local_records_by_identity(layer_repo: Repo) -> None:
    assert layer_repo.mj("capture", "install").code == 0
    assert layer_repo.mj("start", "tidy the readme", "--scope", "README.md").code == 0
    shim(layer_repo, "majordomus-session-start", {"session_id": "cc-q1", "source": "startup"})
    shim(layer_repo, "majordomus-pre-compact", {"session_id": "cc-q1", "trigger": "auto"})
    shim(layer_repo, "majordomus-session-end", {"session_id": "cc-q1", "reason": "other"})
    (record,) = (layer_repo.root / ".ai/repo/sessions").glob("*.md")
    text = record.read_text()
    assert ".ai/local" not in text, text
    front = text.split("---\n")[1]
    named = {}
    for kind in ("checkpoints", "handovers"):
        items = front.split(f"{kind}:\n", 1)[1].split("\n")
        (name,) = [line[4:] for line in items if line.startswith("  - ")][:1]
        named[kind] = name
        assert (layer_repo.root / STATE / kind / f"{name}.md").is_file(), (kind, name)
    assert all("/" not in name for name in named.values()), named


def adopted(repo: Repo) -> Repo:
    repo.write("README.md", "# scratch\n\nAI workers: read AGENTS.md.\n")
    assert repo.mj("update").code == 0
    wire(repo)
    repo.commit("provider files")
    return repo


def commit(repo: Repo, path: str) -> subprocess.CompletedProcess[str]:
    repo.write(path, f"{path}\n")
    repo.git("add", path)
    return subprocess.run(
        ["git", "commit", "-q", "--no-gpg-sign", "-m", path],
        cwd=repo.root,
        env=repo.env,
        capture_output=True,
        text=True,
        check=False,
    )


def test_the_pre_commit_hook_prints_one_line_when_all_is_well(layer_repo: Repo) -> None:
    repo = adopted(layer_repo)
    hook = (repo.root / ".git/hooks/pre-commit").read_text()
    assert " doctor --brief || exit $?" in hook, hook
    quiet = commit(repo, "one.txt")
    assert quiet.returncode == 0, quiet
    said = (quiet.stdout + quiet.stderr).strip().splitlines()
    assert len(said) == 1 and said[0].startswith("doctor: ok"), said
    assert "majordomus doctor" in said[0]  # where the full report is
    full = repo.mj("doctor")
    assert full.code == 0 and len(full.out.splitlines()) > 10, full  # a person's doctor: all
    agents = repo.root / "AGENTS.md"
    agents.write_text(agents.read_text() + "An edit by hand.\n")
    loud = commit(repo, "two.txt")
    assert loud.returncode != 0, loud  # git refuses the commit
    report = loud.stdout + loud.stderr
    assert "FAIL projection  AGENTS.md" in report and len(report.splitlines()) > 10, report
    assert report.splitlines()[-1].startswith("doctor: 1 failure(s)")


def test_brief_counts_what_it_does_not_show(layer_repo: Repo) -> None:
    repo = adopted(layer_repo)
    brief = repo.mj("doctor", "--brief")
    full = repo.mj("doctor")
    assert brief.code == full.code == 0
    (line,) = brief.out.splitlines()
    warnings = sum(1 for x in full.out.splitlines() if x.startswith("WARN"))
    findings = sum(1 for x in full.out.splitlines() if x[:5].strip() in ("OK", "INFO", "WARN"))
    assert f"{findings} finding(s), {warnings} warning(s)" in line, (line, full.out)
    as_json = repo.mj("doctor", "--brief", "--json")
    assert as_json.out == repo.mj("doctor", "--json").out  # --json is for programs: all of it


def test_only_printing_options_pass_for_the_declared_call(layer_repo: Repo) -> None:
    """`doctor --brief` is the declared `doctor`; any other argument is another call."""
    repo = adopted(layer_repo)
    hook = repo.root / ".git/hooks/pre-commit"
    for line, wired in (
        ("majordomus doctor || exit $?", True),
        ("majordomus doctor --brief || exit $?", True),
        ("majordomus doctor --json || exit $?", False),
        ("majordomus doctor --brief --prove || exit $?", False),
        ("majordomus --brief doctor || exit $?", False),
    ):
        hook.write_text(f"#!/bin/sh\n{line}\n")
        result = repo.mj("doctor")
        failed = "FAIL wiring      doctor-on-commit" in result.out
        assert failed != wired and result.code == (0 if wired else 10), (line, result)
