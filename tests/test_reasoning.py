"""The briefing's REASONING section (CONTEXT-COMMAND): the active task's reasoning records under
`state/reasoning/<task>/`, newest first, shown when the task has any and its profile sets
`context.decisions: true`; absent, with no cost, when it has none; excluded with the reason when
the profile leaves decisions out; dropped for the budget before DECISIONS."""

from __future__ import annotations

import json
import re

from conftest import Repo

STATE = ".ai/local/state"


def _task(repo: Repo, *args: str) -> str:
    started = repo.mj("start", "think it through", "--scope", "lib", *args)
    assert started.code == 0, started
    current = (repo.root / STATE / "current.yaml").read_text()
    found = re.search(r"^id: (\S+)$", current, re.M)
    assert found, current
    return found.group(1)


def test_the_tasks_reasoning_records_are_listed_newest_first(layer_repo: Repo) -> None:
    task = _task(layer_repo)
    before = layer_repo.mj("context")
    assert before.code == 0 and "REASONING" not in before.out  # none: no section, no exclusion
    folder = layer_repo.root / STATE / "reasoning" / task
    folder.mkdir(parents=True)
    (folder / "01-options.md").write_text("# Two ways to cache\n\nA or B.\n")
    (folder / "02-choice.md").write_text("\n# Cache by blob id\n\nBecause.\n")
    (folder / ".hidden.md").write_text("# not a record\n")
    (folder / "notes.txt").write_text("not a record\n")
    other = layer_repo.root / STATE / "reasoning" / "t-20000101000000-0000"
    other.mkdir()
    (other / "01.md").write_text("# Another task's\n")
    assert layer_repo.mj("decision", "add", "cache by blob id", "--why", "stable").code == 0
    result = layer_repo.mj("context")
    assert result.code == 0, result
    section = result.out.split("## REASONING", 1)[1].split("\n\n", 1)[0]
    assert section.splitlines() == [
        f" (2 record(s) for this task; {STATE}/reasoning/{task}/)",
        "- 02-choice.md — Cache by blob id",
        "- 01-options.md — Two ways to cache",
    ], section
    assert result.out.index("## DECISIONS") < result.out.index("## REASONING")
    assert result.out.index("## REASONING") < result.out.index("EXCLUDED")
    briefing = json.loads(layer_repo.mj("context", "--json").out)
    shown = [s for s in briefing["sections"] if s["id"] == "reasoning"]
    assert len(shown) == 1 and "Cache by blob id" in shown[0]["text"], briefing["sections"]


def test_a_profile_without_decisions_excludes_it_and_the_budget_drops_it(layer_repo: Repo) -> None:
    task = _task(layer_repo, "--profile", "routine")
    folder = layer_repo.root / STATE / "reasoning" / task
    folder.mkdir(parents=True)
    (folder / "01.md").write_text("# Why\n")
    result = layer_repo.mj("context")
    assert result.code == 0 and "## REASONING" not in result.out, result
    assert re.search(r"reasoning\s+.*profile routine sets context\.decisions: false", result.out)
    assert layer_repo.mj("finish", "--outcome", "no_match", "--note", "-",
                         stdin="# Reason\nRetried.\n").code in (0, 10)  # fmt: skip
    layer_repo.mj("start", "again", "--scope", "lib")
    current = (layer_repo.root / STATE / "current.yaml").read_text()
    second = re.search(r"^id: (\S+)$", current, re.M)
    assert second and second.group(1) != task
    mine = layer_repo.root / STATE / "reasoning" / second.group(1)
    mine.mkdir()
    for number in range(30):
        (mine / f"{number:02d}.md").write_text(f"# Step {number}\n")
    full = layer_repo.mj("context")
    assert f"- … {30 - 20} more: ls {STATE}/reasoning/{second.group(1)}" in full.out, full.out
    tight = layer_repo.mj("context", "--budget-lines", "40")
    assert "## REASONING" not in tight.out and re.search(r"reasoning\s+.*context budget", tight.out)
