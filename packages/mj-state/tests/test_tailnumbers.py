"""`task_scan` numbers the tail's lines from its own first and counts the lines before it only
when a line's number in the ledger is read: every number it then gives (a malformed line, a
break in the chain, the task's lines, a question the ledger holds open) is the one the whole
ledger read and counted at once gives, and a tail that names no line never counts."""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest
from hypothesis import HealthCheck
from hypothesis import given
from hypothesis import settings
from hypothesis import strategies as st
from mj_state.ledger import chain
from mj_state.ledger import scan as ledgerscan
from mj_state.ledger import store as ledger
from mj_state.ledger import tail as ledgertail
from mj_state.task import log as tasklog
from mj_state.task import state as taskstate
from mj_state.task.place import Place

STARTED = {"task": "t", "profile": "p", "scope": ["src"], "owner": "o", "worktree_id": ".",
           "working_tree": "clean"}  # fmt: skip
EVENTS = ["task.started", "task.checkpoint", "question.opened", "question.resolved", "note"]


def _record(event: str, index: int, task: str) -> dict[str, object]:
    out: dict[str, object] = {"ts": f"2026-01-01T00:00:{index % 60:02d}Z", "event": event}
    if event == "task.started":
        out.update(STARTED, task_id=task)
    elif event == "task.checkpoint":
        out["task_id"] = task
    elif event.startswith("question."):
        out.update(task_id=task, question=f"q{index % 3}", answer="a")
        if event == "question.opened":
            del out["answer"]
    return out


def _ledger(rng: random.Random, size: int) -> tuple[list[bytes], str]:
    """A chained ledger of `size` lines (after a seal, after lines written before the chain,
    or from its start), and the hash of its last line."""
    lines: list[bytes] = []
    prev, legacy = chain.GENESIS, 0
    opening = rng.choice(["genesis", "seal", "legacy"])
    if opening == "seal":  # a seal alone before the tail: the chain runs through it
        prev = "ab" * 32
        seal = {"ts": "2026-01-01T00:00:00Z", "event": chain.SEAL, "archive": "a.jsonl",
                "archived": 9, "prev": prev}  # fmt: skip
        lines.append(json.dumps(seal).encode())
    elif opening == "legacy":
        legacy = rng.randint(1, 4)
    task = "t-0"
    for index in range(size):
        event = rng.choice(EVENTS)
        if event == "task.started":
            task = f"t-{index}"
        record = _record(event, index, task)
        if index >= legacy:
            record["prev"] = prev
        line = json.dumps(record).encode()
        lines.append(line)
        prev = chain.digest(line)
    return lines, chain.digest(lines[-1]) if lines else ""


def _damaged(rng: random.Random, lines: list[bytes]) -> bytes:
    kind = rng.choice(["none", "none", "byte", "delete", "duplicate", "torn", "garbage"])
    at = rng.randrange(len(lines)) if lines else 0
    if kind == "delete" and lines:
        del lines[at]
    elif kind == "duplicate" and lines:
        lines.insert(at, lines[at])
    elif kind == "garbage":
        lines.insert(at, b'{"ts": "x", "event": 7}')
    data = b"\n".join(lines) + (b"\n" if lines else b"")
    if kind == "byte" and data:
        spot = rng.randrange(len(data))
        data = data[:spot] + bytes([data[spot] ^ 0x20]) + data[spot + 1 :]
    elif kind == "torn":
        data = data[: rng.randrange(len(data) + 1)]
    return data


def _judged(scan: ledger.Scan, task: tasklog.Task | None) -> list[object]:
    """Every number a judge of the tail prints, in the order a judge reads them."""
    shown = ".ai/local/state/ledger.jsonl"
    findings = [f.record() for f in chain.findings(scan.chain, shown)]
    blockers = taskstate.blockers(
        _place(), task.id if task is not None else "t-0", _situation(scan, task), None, None
    )
    return [
        findings,
        scan.problems,
        task and task.fact(),
        blockers.open,
        blockers.problems,
        [row[0] for row in scan.rows],
    ]


def _place() -> Place:
    return Place()


def _situation(scan: ledger.Scan, task: tasklog.Task | None) -> taskstate.Situation:
    return taskstate.Situation(Path("/repo"), scan, task, None, None, here_id=".")


@settings(max_examples=250, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**32), size=st.integers(0, 40))
def test_the_numbers_read_late_are_the_numbers_counted_at_once(
    tmp_path_factory: pytest.TempPathFactory, seed: int, size: int
) -> None:
    rng = random.Random(seed)
    lines, last = _ledger(rng, size)
    data = _damaged(rng, lines)
    target = tmp_path_factory.mktemp("n") / "ledger.jsonl"
    target.write_bytes(data)
    tip = chain.Tip(len(data), last) if rng.random() < 0.9 else chain.Tip(1, last)
    target.with_name(chain.TIP).write_bytes(tip.render())
    lazy = ledger.task_scan(target)
    eager = ledgerscan.tail_of(ledgerscan.scan(target))
    got = _judged(lazy, taskstate.task_of(lazy))
    rows = list(zip((row[0] for row in eager.rows), eager.values, strict=True))
    assert got == _judged(eager, tasklog.derive(rows)), data
    assert lazy.chain.fact() == eager.chain.fact()


def _long_ledger(target: Path, before: int) -> None:
    """`before` lines of another task, then a task with a question the file does not show."""
    records = [_record("task.checkpoint", i, "t-old") for i in range(before)]
    records += [_record("task.started", 0, "t-1"), _record("question.opened", 1, "t-1")]
    lines, prev = [], chain.GENESIS
    for record in records:
        line = json.dumps({**record, "prev": prev}).encode()
        lines.append(line)
        prev = chain.digest(line)
    data = b"\n".join(lines) + b"\n"
    target.write_bytes(data)
    target.with_name(chain.TIP).write_bytes(chain.Tip(len(data), prev).render())


def test_a_tail_that_names_no_line_counts_none_and_a_named_line_is_counted(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """What `finish --check` reads of a sound tail (the task, its record, the malformed lines,
    the chain) does not count the 3,000 lines before it; the question the ledger holds open,
    named by its line, is counted then, and is line 3,002."""
    counted: list[int] = []
    count = ledgertail._count

    def spy(fd: int, until: int) -> int:
        counted.append(until)
        return count(fd, until)

    monkeypatch.setattr(ledgertail, "_count", spy)
    monkeypatch.setattr(ledgertail, "_BLOCK", 64)  # the tail found without reading it all
    target = tmp_path / "ledger.jsonl"
    _long_ledger(target, 3000)
    scan = ledger.task_scan(target)
    task = taskstate.task_of(scan)
    assert task is not None and task.active and task.id == "t-1"
    assert scan.chain.ok and scan.problems == [] and scan.local_rows[0][0] == 1
    assert counted == []
    found = taskstate.blockers(_place(), "t-1", _situation(scan, task), "", None)
    assert found.open == [("q1", ".ai/local/state/ledger.jsonl:3002")]
    assert len(counted) == 1 and task.started_line == 3001 and len(counted) == 1
