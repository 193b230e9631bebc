"""`start` is facts | judge | writer: `mj-state facts --for start | mj-state start-judge |
mj-state start-write`. The printed pipeline run by `sh` writes what the command writes (a
plain start, one seeded by a plan issue, refusals); the judge reads its facts and never the
repository; and the writer trusts no verdict: one written by hand, or replayed after what it
rested on moved, starts nothing (15) and writes nothing."""

from __future__ import annotations

import json
import shutil
from pathlib import Path
from typing import Any

import pytest
from conftest import Repo
from conftest import make_env
from test_pipeline_equivalence import HANDOVER
from test_pipeline_equivalence import _sh
from test_pipeline_equivalence import _snapshot
from test_plan import BASE
from test_plan import PROJECT
from test_plan import issue
from test_plan import milestone

LEDGER = ".ai/local/state/ledger.jsonl"
COPY = ".ai/local/state/current.yaml"


@pytest.fixture
def planned(layer_repo: Repo) -> Repo:
    layer_repo.write(f"{BASE}/project.yaml", PROJECT)
    milestone(layer_repo, "M000")
    issue(layer_repo, "I0001")
    issue(layer_repo, "I0002", extra="")
    layer_repo.write("lib/a.py", "a = 1\n")
    layer_repo.commit("a plan")
    return layer_repo


def _copy(repo: Repo, where: Path) -> Repo:
    shutil.copytree(repo.root, where, symlinks=True)
    return Repo(where, make_env(where.parent))


@pytest.mark.parametrize(
    ("args", "code"),
    [
        (("work on lib", "--scope", "lib,nothere"), 0),
        (("work on I0001", "--issue", "I0001", "--requires", "tests"), 0),
        (("work on I0009", "--issue", "I0009"), 12),
        (("no scope",), 2),
        (("two\nlines", "--scope", "lib"), 2),
    ],
)
def test_the_printed_pipeline_writes_what_start_writes(
    planned: Repo, tmp_path: Path, args: tuple[str, ...], code: int
) -> None:
    direct, piped = _copy(planned, tmp_path / "direct"), _copy(planned, tmp_path / "piped")
    printed = piped.mj("start", *args, "--json", "--pipeline")
    stages = [part.split()[:2] for part in printed.out.strip().split(" | ")]
    assert stages == [
        ["mj-state", "facts"],
        ["mj-state", "start-judge"],
        ["mj-state", "start-write"],
    ]
    done = direct.mj("start", *args, "--json")
    sh_code, out, _ = _sh(piped, printed.out.strip(), None)
    assert (sh_code, done.code) == (code, code), (printed.out, done)
    normal = [_normal(text) for text in (out, done.out)]
    assert normal[0] == normal[1]
    assert _files(piped) == _files(direct)


def _files(repo: Repo) -> dict[str, str]:
    """The snapshot, the clone id each copy made at random named as one."""
    import re

    return {k: re.sub(r"c-[0-9a-f]{16}", "<clone>", v) for k, v in _snapshot(repo.root).items()}


def _normal(text: str) -> str:
    import re

    text = re.sub(r"t-\d{14}-[0-9a-f]{4}", "<task>", text)
    text = re.sub(r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ", "<time>", text)
    return re.sub(r"/[^\"]*/(direct|piped)\b", "<root>", text)


def _verdict(repo: Repo, *args: str) -> list[dict[str, Any]]:
    """The judge's stream for `start <args>`, as a worker would capture it."""
    facts = repo.run("mj-state", "facts", "--for", "start", *args)
    judged = repo.run("mj-state", "start-judge", stdin=facts.out)
    assert judged.code == 0, judged
    return [json.loads(line) for line in judged.out.splitlines()]


def _feed(repo: Repo, records: list[dict[str, Any]]) -> tuple[int, str]:
    text = "".join(json.dumps(r) + "\n" for r in records)
    result = repo.run("mj-state", "start-write", stdin=text)
    return result.code, result.err


def _state(repo: Repo) -> tuple[str, bool]:
    ledger = repo.root / LEDGER
    return (ledger.read_text() if ledger.exists() else "", (repo.root / COPY).exists())


def test_a_verdict_replayed_after_a_task_started_starts_nothing(planned: Repo) -> None:
    captured = _verdict(planned, "--task=first", "--scope", "lib")
    assert planned.mj("start", "meanwhile", "--scope", "lib").code == 0
    before = _state(planned)
    code, err = _feed(planned, captured)
    assert code == 15 and "is active" in err, err
    assert _state(planned) == before


def test_a_verdict_replayed_after_the_ledger_moved_starts_nothing(planned: Repo) -> None:
    captured = _verdict(planned, "--task=first", "--scope", "lib")
    assert planned.mj("start", "meanwhile", "--scope", "lib").code == 0
    closed = planned.mj("handover", "--close", stdin=HANDOVER)  # ended: none active again
    assert closed.code == 0, closed
    before = _state(planned)
    code, err = _feed(planned, captured)
    assert code == 15 and "tip" in err, err
    assert _state(planned) == before
    assert _feed(planned, _verdict(planned, "--task=first", "--scope", "lib"))[0] == 0


def test_a_verdict_that_is_not_the_judgement_starts_nothing(planned: Repo) -> None:
    before = _state(planned)
    captured = _verdict(planned, "--task=narrow", "--scope", "lib")
    for record in captured:
        if record.get("kind") == "verdict":
            record["scope"] = ["."]  # the whole repository, for a request of lib
    code, err = _feed(planned, captured)
    assert code == 15 and "scope" in err, err
    assert _state(planned) == before


def test_a_hand_written_verdict_does_not_take_another_worktrees_issue(
    planned: Repo, tmp_path: Path
) -> None:
    other = tmp_path / "other"
    planned.git("worktree", "add", "-q", str(other), "-b", "other")
    held = Repo(other, planned.env).mj("start", "mine", "--issue", "I0001")
    assert held.code == 0, held
    refused = planned.mj("start", "yours", "--issue", "I0001")
    assert refused.code == 15 and "held by the worktree" in refused.err, refused
    before = _state(planned)
    taken = _verdict(planned, "--task=yours", "--issue", "I0001", "--take-over")
    for record in taken:  # the judgement of --take-over, passed off as one without it
        if record.get("kind") == "verdict":
            record["take_over"] = False
            record["request"] = {**record["request"], "take_over": False}
    code, err = _feed(planned, taken)
    assert code == 15 and "held by the worktree" in err, err
    assert _state(planned) == before


def test_a_verdict_with_a_foreign_request_shape_starts_nothing(planned: Repo) -> None:
    before = _state(planned)
    captured = _verdict(planned, "--task=x", "--scope", "lib")
    for record in captured:
        if record.get("kind") == "verdict":
            record["request"] = {"task": ["x"], "scope": "lib"}
    code, err = _feed(planned, captured)
    assert code == 15, err
    assert _state(planned) == before


def test_the_judge_reads_its_facts_and_no_file_of_the_repository(
    planned: Repo, tmp_path: Path
) -> None:
    facts = planned.run("mj-state", "facts", "--for", "start", "--task=t", "--scope", "lib")
    given = tmp_path / "facts.jsonl"
    given.write_text(facts.out)
    nowhere = tmp_path / "nowhere"
    nowhere.mkdir()
    here = planned.run("mj-state", "start-judge", str(given))
    away = planned.run("mj-state", "start-judge", str(given), cwd=nowhere)
    assert here.code == away.code == 0, (here, away)
    assert here.out == away.out
    strace = shutil.which("strace")
    if strace is None:
        return
    import subprocess

    from conftest import exe

    log = tmp_path / "opened"
    argv = [strace, "-f", "-e", "trace=open,openat", "-o", str(log)]
    subprocess.run([*argv, exe("mj-state"), "start-judge", str(given)],
                   cwd=planned.root, env=planned.env, capture_output=True, check=True)  # fmt: skip
    root = str(planned.root.resolve())
    opened = [line for line in log.read_text().splitlines() if f'"{root}/' in line]
    assert opened == [], opened
