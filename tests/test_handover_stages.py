"""`handover` is facts | judge | writer: `mj-state handover-facts | mj-state handover-judge |
mj-state handover-write`.

The judge reads its facts and never the repository. The writer takes no verdict on trust: it
reads this checkout's active task itself and judges the verdict again, so a verdict edited
after judging (another task, a close with no task, a body the judge refuses) or one written
by hand writes nothing: no record, no ledger line, no change to the task. `--prune`'s move is
judged the same way over the store as it is when the writer runs.
"""

from __future__ import annotations

import re
import shutil
import subprocess
from pathlib import Path

import pytest
from conftest import Repo
from conftest import exe
from conftest import files_under
from conftest import forged
from conftest import judged

STATE = ".ai/local/state"
BODY = "# Objective\nShip.\n# Current State\nHalf.\n# Next Action\nThe rest.\n"
FACTS = "mj-state handover-facts"


def _start(repo: Repo) -> None:
    assert repo.mj("start", "hand it over", "--scope", "lib").code == 0


def _stream(repo: Repo, *args: str, stdin: str | None = BODY) -> list[dict[str, object]]:
    """The judge's stream for `handover <args>`, as a worker would capture it."""
    return judged(repo, "mj-state", "handover-facts", "handover-judge", *args, stdin=stdin)


def test_the_stages_write_what_the_command_writes(layer_repo: Repo) -> None:
    _start(layer_repo)
    printed = layer_repo.mj("handover", "--close", "--pipeline").out.strip()
    assert printed == f"{FACTS} --close | mj-state handover-judge | mj-state handover-write"
    (layer_repo.root.parent / "body.md").write_text(BODY)
    done = layer_repo.shell(f"({printed}) < ../body.md")
    assert done.code == 0, done
    (path,) = (layer_repo.root / STATE / "handovers").iterdir()
    assert path.read_text().endswith(BODY)
    ledger = (layer_repo.root / STATE / "ledger.jsonl").read_text()
    assert '"closed":true' in ledger and "task.handed_over" in ledger


@pytest.mark.parametrize(
    ("changed", "code", "said"),
    [
        ({"task_id": "t-20260101000000-abcd"}, 15, "its active task: t-"),
        ({"task_id": None}, 15, "not what this checkout gives now"),
        ({"body": "# Objective\nShip.\n"}, 10, "required section missing or empty"),
        ({"body": BODY + "head: 0123456\n"}, 10, "head: looks like a front-matter key"),
        ({"body": BODY + "key = AKIA" + "Q7" * 8 + "\n"}, 15, "a credential"),
        ({"created_at": "2026-01-01T00:00:00Z"}, 10, "created_at"),
    ],
)
def test_an_edited_verdict_is_judged_again_and_writes_nothing(
    layer_repo: Repo, changed: dict[str, object], code: int, said: str
) -> None:
    _start(layer_repo)
    fed = forged(_stream(layer_repo), **changed)
    before = files_under(layer_repo, STATE)
    result = layer_repo.run("mj-state", "handover-write", stdin=fed)
    assert result.code == code and said in result.err, result
    assert result.err.count("\n") == 1, result
    assert files_under(layer_repo, STATE) == before


def test_a_close_judged_without_a_task_closes_nothing(layer_repo: Repo) -> None:
    stream = _stream(layer_repo, "--no-task", "--close")
    (verdict,) = [r for r in stream if r.get("kind") == "verdict"]
    assert verdict["closed"] is False and verdict["task_id"] is None
    before = files_under(layer_repo, STATE)
    result = layer_repo.run("mj-state", "handover-write", stdin=forged(stream, closed=True))
    assert result.code == 15, result
    assert files_under(layer_repo, STATE) == before


def test_a_verdict_judged_in_another_checkout_writes_nothing_here(
    layer_repo: Repo, tmp_path: Path
) -> None:
    """Judged where a task is active, fed to a checkout where it is not (ended here)."""
    _start(layer_repo)
    stream = _stream(layer_repo)
    assert layer_repo.mj("finish", "--outcome", "blocked", "--note", "-", stdin=BODY).code == 0
    before = files_under(layer_repo, STATE)
    result = layer_repo.run("mj-state", "handover-write", stdin=forged(stream))
    assert result.code == 15 and "its active task: none" in result.err, result
    assert files_under(layer_repo, STATE) == before


def test_a_prune_verdict_moves_only_what_the_store_holds_over_its_cap(layer_repo: Repo) -> None:
    policy = layer_repo.root / ".ai/repo/policy.yaml"
    text, count = re.subn(
        r"(\nhandover:\n(?:  .*\n)*?  retention_max_files: )\d+", r"\g<1>2", policy.read_text()
    )
    assert count == 1
    policy.write_text(text)
    layer_repo.commit("cap")
    for number in range(3):
        note = BODY.replace("Ship.", f"Ship {number}.")
        assert layer_repo.mj("handover", "--no-task", stdin=note).code == 0
    stream = _stream(layer_repo, "--prune", stdin=None)
    (verdict,) = [r for r in stream if r.get("kind") == "verdict"]
    moved = verdict["moved"]
    assert verdict["action"] == "records-prune" and isinstance(moved, list) and len(moved) == 1
    names = sorted(p.name for p in (layer_repo.root / STATE / "handovers").iterdir())
    before = files_under(layer_repo, STATE)
    for changed in ({"moved": [f"{STATE}/handovers/{n}" for n in names[:2]]}, {"cap": 1}):
        result = layer_repo.run("mj-state", "handover-write", stdin=forged(stream, **changed))
        assert result.code == 15 and "nothing was moved" in result.err, result
        assert files_under(layer_repo, STATE) == before
    done = layer_repo.run("mj-state", "handover-write", stdin=forged(stream))
    assert done.code == 0, done
    left = sorted(p.name for p in (layer_repo.root / STATE / "handovers").iterdir())
    assert left == names[1:]


def test_the_judge_reads_its_facts_and_no_file_of_the_repository(
    layer_repo: Repo, tmp_path: Path
) -> None:
    _start(layer_repo)
    facts = layer_repo.run("mj-state", "handover-facts", "--close", stdin=BODY)
    given = tmp_path / "facts.jsonl"
    given.write_text(facts.out)
    nowhere = tmp_path / "nowhere"
    nowhere.mkdir()
    here = layer_repo.run("mj-state", "handover-judge", str(given))
    away = layer_repo.run("mj-state", "handover-judge", str(given), cwd=nowhere)
    assert here.code == away.code == 0, (here, away)
    assert here.out == away.out and '"closed":true' in here.out
    strace = shutil.which("strace")
    if strace is None:
        return
    log = tmp_path / "opened"
    argv = [strace, "-f", "-e", "trace=open,openat", "-o", str(log)]
    command = [*argv, exe("mj-state"), "handover-judge", str(given)]
    subprocess.run(
        command, cwd=layer_repo.root, env=layer_repo.env, capture_output=True, check=True
    )
    root = str(layer_repo.root.resolve())
    opened = [line for line in log.read_text().splitlines() if f'"{root}/' in line]
    assert opened == [], opened
