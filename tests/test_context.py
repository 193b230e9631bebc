"""`majordomus context`: the recorded scenario of USE-CASE-context.md, reproduced.

An active task with a checkpoint, a decision and an open question; the full briefing, the
same cut to 30 lines, the JSON form, `--for`, and proof that nothing is written.
"""

from __future__ import annotations

import json
import os
import re
import subprocess
from pathlib import Path

import pytest
from conftest import Repo
from conftest import exe

STATE = ".ai/local/state"
ORDER = [
    "## GIT",
    "## TASK",
    "## PROFILE",
    "## CONTEXT DOCUMENTS",
    "## OPEN QUESTIONS",
    "## DECISIONS",
    "## LATEST CHECKPOINT",
    "## FILES TOUCHED IN SCOPE",
    "## EXCLUDED",
    "## BUDGET",
]


def prepare(repo: Repo) -> str:
    """The seed's state, through the public commands: an active task on `lib` with a
    checkpoint, a decision and an open question."""
    repo.write("lib/a", "a\n")
    result = repo.mj("start", "narrow the parser", "--scope", "lib", "--owner", "o")
    assert result.code == 0, result
    task = re.search(r"t-\d{14}-[0-9a-f]{4}", (repo.root / STATE / "current.yaml").read_text())
    assert task, result
    steps = [
        (("checkpoint",), "the parser now refuses tabs\n"),
        (
            (
                "decision",
                "add",
                "refuse tabs in the parser",
                "--why",
                "two encodings for one token",
            ),
            None,
        ),
        (("question", "add", "should tabs be an error or a warning?"), None),
    ]
    for args, stdin in steps:
        done = repo.mj(*args, stdin=stdin)
        assert done.code == 0, (args, done)
    return task.group(0)


@pytest.fixture
def scenario(layer_repo: Repo) -> Repo:
    prepare(layer_repo)
    return layer_repo


def headings(text: str) -> list[str]:
    return [line for line in text.splitlines() if re.match(r"## [A-Z]{3}", line)]


def snapshot(root: Path) -> dict[str, tuple[int, int]]:
    out = {}
    for folder, _, files in os.walk(root / ".ai"):
        for name in files:
            path = Path(folder) / name
            out[str(path)] = (path.stat().st_mtime_ns, path.stat().st_size)
    return out


def test_everything_in_authority_order(scenario: Repo) -> None:
    result = scenario.mj("context")
    assert result.code == 0, result
    lines = result.out.splitlines()
    assert lines[0].startswith("# Majordomus context — ")
    positions = [next(i for i, line in enumerate(lines) if line.startswith(h)) for h in ORDER]
    assert positions == sorted(positions)
    assert "the parser now refuses tabs" in result.out
    assert re.search(
        r"^- should tabs be an error or a warning\? \(\d{4}-\d\d-\d\d\)$", result.out, re.M
    )
    assert "## 2" in result.out and "refuse tabs in the parser" in result.out
    assert "- handover — no record for this worktree and branch" in result.out
    assert re.search(r"^(\d+) of 300 lines$", result.out, re.M)
    total = int(re.search(r"^(\d+) of 300 lines$", result.out, re.M).group(1))
    assert total == len(lines)


def test_check_explain_prints_the_task_and_its_profile(scenario: Repo) -> None:
    result = scenario.mj("check", "--explain")
    assert result.code == 0, result
    assert re.search(r"^# task$", result.out, re.M) and "profile" in result.out


def test_budgeted_names_every_drop_and_exits_10(scenario: Repo) -> None:
    result = scenario.mj("context", "--budget-lines", "30")
    assert result.code == 10, result
    assert "## GIT" in result.out and "## EXCLUDED" in result.out
    for item in ("files", "context documents", "decisions"):
        assert re.search(rf"^- {item} — context budget 30 lines", result.out, re.M), item
    # the checkpoint's body is one line: its reference line and its EXCLUDED line would be two
    assert "## LATEST CHECKPOINT" in result.out
    assert "the parser now refuses tabs" in result.out
    assert "checkpoint body — context budget" not in result.out
    for kept in ("## TASK", "## PROFILE", "## OPEN QUESTIONS"):
        assert kept in result.out
    budget = re.search(r"^(\d+) of 30 lines \(dropped: (.*)\)$", result.out, re.M)
    assert budget and budget.group(2) == "files documents knowledge decisions"  # as USE-CASE
    assert int(budget.group(1)) == result.out.count("\n")
    assert result.err == (
        f"majordomus: context: {budget.group(1)} lines over the budget of 30 "
        "with nothing left to drop\n"
    )


def test_a_budget_that_fits_after_drops_exits_0(scenario: Repo) -> None:
    full = int(re.search(r"^(\d+) of", scenario.mj("context").out, re.M).group(1))
    result = scenario.mj("context", "--budget-lines", str(full - 1))
    assert result.code == 0, result
    assert "- files — context budget" in result.out
    assert int(re.search(r"^(\d+) of", result.out, re.M).group(1)) <= full - 1


AGES = re.compile(r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ|\d+[smhd] ago")


def test_json_carries_exactly_the_sections_the_text_shows(scenario: Repo) -> None:
    for args in ((), ("--budget-lines", "30")):
        text = scenario.mj("context", *args)
        text.out = AGES.sub("T", text.out)
        result = scenario.mj("context", "--json", *args)
        result.out = AGES.sub("T", result.out)
        assert result.code == text.code
        assert result.out.startswith("{")
        doc = json.loads(result.out)
        assert set(doc) == {
            "kind",
            "schema",
            "generated_at",
            "git",
            "task",
            "sections",
            "excluded",
            "budget",
        }
        shown = [s["text"].splitlines()[0] for s in doc["sections"]]
        assert shown == [
            h
            for h in headings(text.out)
            if h.split()[1] not in ("GIT", "TASK", "EXCLUDED", "BUDGET")
        ]
        for section in doc["sections"]:
            assert section["text"] in text.out
        excluded = [f"- {e['item']} — {e['reason']}" for e in doc["excluded"]]
        assert all(line in text.out for line in excluded)
        assert doc["budget"]["lines"] == len(text.out.splitlines())


def test_for_wraps_the_same_body(scenario: Repo) -> None:
    plain = scenario.mj("context")
    wrapped = scenario.mj("context", "--for", "claude-code")
    assert wrapped.code == 0, wrapped
    first, rest = wrapped.out.split("\n", 1)
    assert "claude-code" in first and "CLAUDE.md" in first
    assert AGES.sub("T", rest) == AGES.sub("T", plain.out)
    assert scenario.mj("context", "--for", "nobody").code == 2


def test_for_labels_each_file_by_what_its_provider_loads(scenario: Repo) -> None:
    """Codex and Gemini load AGENTS.md and GEMINI.md on every run (share/providers.yaml),
    though the policy marks only CLAUDE.md; the generic file no client loads by itself (each
    as its load receipt has it: on disk, once `update` wrote them)."""
    assert scenario.mj("update").code == 0
    for provider, target, label in (
        ("codex", "AGENTS.md", "(always loaded)"),
        ("gemini", "GEMINI.md", "(always loaded)"),
        ("claude-code", "CLAUDE.md", "(always loaded)"),
        ("generic", "docs/AI_INSTRUCTIONS.md", "(not always loaded)"),
    ):
        first = scenario.mj("context", "--for", provider).out.splitlines()[0]
        assert first == f"# for {provider} — its file {target} {label}", first


POINTERS_CACHE = ".ai/local/cache/briefing-pointers.json"  # the pointers kept for the next


def test_context_reads_only(scenario: Repo) -> None:
    """Nothing but the briefing's own pointer cache is written (tests/test_briefing_cache.py)."""
    before = snapshot(scenario.root)
    status = scenario.git("status", "--porcelain")
    for args in ((), ("--json",), ("--budget-lines", "30"), ("--prompt", "resume")):
        scenario.mj("context", *args)
    after = snapshot(scenario.root)
    after.pop(str(scenario.root / POINTERS_CACHE), None)
    before.pop(str(scenario.root / POINTERS_CACHE), None)
    assert after == before
    assert scenario.git("status", "--porcelain") == status


def test_without_a_task_the_absence_is_stated(layer_repo: Repo) -> None:
    result = layer_repo.mj("context")
    assert result.code == 0, result
    assert "- task — no task record in this checkout" in result.out
    assert "## TASK" not in result.out


def test_prompt_is_appended_and_a_nesting_prompt_is_excluded(scenario: Repo) -> None:
    result = scenario.mj("context", "--prompt", "resume")
    assert result.code == 0, result
    assert "## PROMPT resume" in result.out
    assert "Task: narrow the parser" in result.out
    scenario.write(
        ".ai/repo/prompts/nest.md", "---\nname: nest\ndescription: d\n---\n{{CONTEXT}}\n"
    )
    result = scenario.mj("context", "--prompt", "nest")
    assert result.code == 0, result
    assert "## PROMPT" not in result.out
    assert "- prompt — nest contains {{CONTEXT}}" in result.out
    assert scenario.mj("context", "--prompt", "nope").code == 12


def test_tour_ends_with_the_context_a_next_worker_would_receive(git_repo: Repo) -> None:
    result = git_repo.mj("tour")
    last = result.out.rsplit("\n== step ", 1)[1]
    assert "$ majordomus context\n" in last
    assert "# Majordomus context — " in last and "## GIT" in last and "## BUDGET" in last
    assert "exit 0\n" in last


def files_read(repo: Repo) -> int:
    """The `files read` counter MJ_TIMING=1 reports for one `majordomus context`."""
    proc = subprocess.run(
        [exe("majordomus"), "context"],
        cwd=repo.root,
        env={**repo.env, "MJ_TIMING": "1"},
        capture_output=True,
        text=True,
        check=False,
    )
    assert proc.returncode == 0, proc.stderr
    counted = re.search(r"^count\s+(\d+)\s+files read$", proc.stderr, re.M)
    assert counted, proc.stderr
    return int(counted.group(1))


def test_only_the_newest_checkpoint_and_handover_are_read(scenario: Repo) -> None:
    handover = "# Objective\nRead less.\n\n# Current State\nDone.\n\n# Next Action\nNone.\n"
    assert scenario.run("handover", stdin=handover).code == 0
    files_read(scenario)  # the first run keeps the briefing's pointers; every later one reads them
    one = files_read(scenario)
    for kind in ("checkpoints", "handovers"):
        (newest,) = (scenario.root / STATE / kind).iterdir()
        _, branch, short, _ = newest.name.split("--")
        for n in range(40):  # older records of this branch and worktree
            older = newest.with_name(f"20200101T{n:06d}Z--{branch}--{short}--{n:016x}.md")
            older.write_bytes(newest.read_bytes())
    assert files_read(scenario) == one
    assert "## LATEST COMPATIBLE HANDOVER" in scenario.mj("context").out
