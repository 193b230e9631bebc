"""`checkpoint` is facts | judge | writer: `mj-state checkpoint-facts | mj-state
checkpoint-judge | mj-state checkpoint-write`.

The judge reads its facts and never the repository. The writer takes no verdict on trust: it
reads this checkout's active task itself and judges the verdict again, so a verdict edited
after judging (another task, a body over the cap, a credential, an identity line) or one
written by hand writes nothing: no record, no ledger line, no change to the task. The PreCompact
hook runs the same three stages in its own process.
"""

from __future__ import annotations

import json
import re

import pytest
from conftest import Repo
from conftest import files_under
from conftest import forged
from conftest import judged

STATE = ".ai/local/state"
FACTS = "mj-state checkpoint-facts"


def _start(repo: Repo) -> None:
    assert repo.mj("start", "note it", "--scope", "lib").code == 0


def _stream(repo: Repo, *args: str, stdin: str | None = "progress\n") -> list[dict[str, object]]:
    """The judge's stream for `checkpoint <args>`, as a worker would capture it."""
    return judged(repo, "mj-state", "checkpoint-facts", "checkpoint-judge", *args, stdin=stdin)


def test_the_stages_write_what_the_command_writes(layer_repo: Repo) -> None:
    _start(layer_repo)
    printed = layer_repo.mj("checkpoint", "--pipeline").out.strip()
    assert printed == f"{FACTS} | mj-state checkpoint-judge | mj-state checkpoint-write"
    (layer_repo.root.parent / "note.md").write_text("reproduced the bug\n")
    done = layer_repo.shell(f"({printed}) < ../note.md")
    assert done.code == 0, done
    (path,) = (layer_repo.root / STATE / "checkpoints").iterdir()
    assert path.read_text().endswith("\nreproduced the bug\n")
    (record,) = [r for r in map(json.loads, done.out.splitlines()) if r["kind"] == "record"]
    assert record["action"] == "checkpoint" and record["path"] == f"{STATE}/checkpoints/{path.name}"
    ledger = (layer_repo.root / STATE / "ledger.jsonl").read_text().splitlines()
    assert '"event":"task.checkpoint"' in ledger[-1] and path.name in ledger[-1]
    assert record["checkpoint_at"] in (layer_repo.root / STATE / "current.yaml").read_text()


@pytest.mark.parametrize(
    ("changed", "code", "said"),
    [
        ({"task_id": "t-20260101000000-abcd"}, 15, "its active task: t-"),
        ({"task_id": None}, 15, "not what this checkout gives now"),
        ({"body": "line\n" * 500}, 10, "over checkpoint.max_body_lines"),
        ({"body": "fine\nhead: 0123456\n"}, 10, "<stdin>:2"),
        ({"body": "key = AKIA" + "Q7" * 8 + "\n"}, 15, "a credential"),
        ({"body": 7}, 10, "body: 7 is not of type 'string'"),
        ({"created_at": "2026-01-01T00:00:00Z"}, 10, "'created_at' was unexpected"),
    ],
)
def test_an_edited_verdict_is_judged_again_and_writes_nothing(
    layer_repo: Repo, changed: dict[str, object], code: int, said: str
) -> None:
    _start(layer_repo)
    fed = forged(_stream(layer_repo), **changed)
    before = files_under(layer_repo, STATE)
    result = layer_repo.run("mj-state", "checkpoint-write", stdin=fed)
    assert result.code == code and said in result.err, result
    assert result.err.count("\n") == 1, result
    assert files_under(layer_repo, STATE) == before


def test_a_hand_written_verdict_is_judged_like_any_other(layer_repo: Repo) -> None:
    """Nothing in the writer asks where a verdict came from: one typed by hand for the task
    active here and an honest body is the command's write; one for no task while one is
    active writes nothing."""
    _start(layer_repo)
    task = re.search(r"^id: (\S+)$", (layer_repo.root / STATE / "current.yaml").read_text(), re.M)
    assert task is not None
    before = files_under(layer_repo, STATE)
    orphan = {"kind": "verdict", "action": "checkpoint", "task_id": None, "body": "mine\n"}
    refused = layer_repo.run("mj-state", "checkpoint-write", stdin=_typed(orphan))
    assert refused.code == 15 and "its active task: " + task.group(1) in refused.err, refused
    assert files_under(layer_repo, STATE) == before
    honest = {**orphan, "task_id": task.group(1)}
    done = layer_repo.run("mj-state", "checkpoint-write", stdin=_typed(honest))
    assert done.code == 0, done
    assert len(list((layer_repo.root / STATE / "checkpoints").iterdir())) == 1


def _typed(verdict: dict[str, object]) -> str:
    """A verdict typed by hand, with the summary line a judge would end its stream with."""
    summary = {"kind": "summary", "stage": "mj-state checkpoint-judge", "exit": 0,
               "counts": {"verdict": 1}}  # fmt: skip
    return json.dumps(verdict) + "\n" + json.dumps(summary) + "\n"


def test_a_verdict_judged_before_the_task_ended_writes_nothing_after(layer_repo: Repo) -> None:
    _start(layer_repo)
    stream = _stream(layer_repo)
    note = "# Objective\nNote it.\n# Current State\nStuck.\n# Next Action\nAsk.\n"
    done = layer_repo.mj("finish", "--outcome", "blocked", "--note", "-", stdin=note)
    assert done.code == 0, done
    before = files_under(layer_repo, STATE)
    result = layer_repo.run("mj-state", "checkpoint-write", stdin=forged(stream))
    assert result.code == 15 and "its active task: none" in result.err, result
    assert files_under(layer_repo, STATE) == before


def test_the_judge_without_its_fact_is_12_and_reads_nothing(layer_repo: Repo) -> None:
    other = layer_repo.run("mj-state", "handover-facts", "--no-task", stdin="x\n")
    assert other.code == 0, other
    result = layer_repo.run("mj-state", "checkpoint-judge", stdin=other.out)
    assert result.code == 12 and "mj-state checkpoint-facts" in result.err, result
    empty = layer_repo.run("mj-state", "checkpoint-judge", stdin="")
    assert empty.code == 12, empty


def test_the_judge_refuses_in_the_order_a_person_meets_the_faults(layer_repo: Repo) -> None:
    """A body with a credential and too many lines is refused for the credential first (15);
    redacted, for its length (10); nothing piped is a usage error (2) before either."""
    gathered = layer_repo.run("mj-state", "checkpoint-facts", stdin="x\n").out.splitlines()
    (fact,) = [r for r in map(json.loads, gathered) if r["kind"] == "fact"]
    long_body = "key = AKIA" + "Q7" * 8 + "\n" + "line\n" * 600
    cases = [
        ({"body": long_body}, 15),
        ({"body": long_body, "redact": True}, 10),
        ({"body": None, "body_problem": {"code": 2, "message": "no body"}}, 2),
    ]
    for changed, code in cases:
        given = json.dumps({**fact, **changed})
        judged = layer_repo.run("mj-state", "checkpoint-judge", stdin=given)
        assert judged.code == code, (changed, judged)


def test_the_compaction_hook_writes_a_derived_note_through_the_stages(layer_repo: Repo) -> None:
    _start(layer_repo)
    payload = json.dumps({"hook_event_name": "PreCompact", "session_id": "s-1", "trigger": "auto"})
    hooked = layer_repo.mj("capture", "session", "--event", "compact", "--provider", "claude-code",
                           stdin=payload)  # fmt: skip
    assert hooked.code == 0, hooked
    (path,) = (layer_repo.root / STATE / "checkpoints").iterdir()
    ledger = (layer_repo.root / STATE / "ledger.jsonl").read_text()
    assert path.name in ledger and "task.checkpoint" in ledger
    assert not (layer_repo.root / ".ai/local/prompts/failures.log").exists()  # no step failed
