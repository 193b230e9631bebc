"""`ledger.tail.tail` reads the newest task's part of the ledger from the file's end and gives
what a whole read gives: the same start, the same line before it, the same count of lines
before it, the same bytes from it on; and a file a whole read refuses is left to that read."""

from __future__ import annotations

import json
import os
import random
from pathlib import Path

import pytest
from mj_core.errors import ContractUnmet
from mj_state.ledger import scan as ledgerscan
from mj_state.ledger import tail as ledgertail


def line(event: str, **more: object) -> bytes:
    return json.dumps({"ts": "2026-01-01T00:00:00Z", "event": event, **more}).encode()


PIECES = [
    line("task.started", task_id="t-1", scope=["src"]),
    line("task.checkpoint", task_id="t-1"),
    line("note", text="task.started t-1"),  # the bytes nested in another line
    line("note", text="x" * 300),
    b'{"event": "task.started", "task_id": "t-2"}',  # blanks spelled otherwise
    b'{"event": "task.star',  # a torn or malformed line
    b"",  # an empty line
    b"task.started",  # the bytes, not an object
]


def ledgers() -> list[bytes]:
    rng = random.Random(44)
    out = [b"", b"\n", PIECES[0], PIECES[0] + b"\n", b"\n" + PIECES[0] + b"\n"]
    for _ in range(300):
        lines = [rng.choice(PIECES) for _ in range(rng.randint(1, 30))]
        data = b"\n".join(lines) + (b"\n" if rng.random() < 0.8 else b"")
        out.append(data)
    return out


@pytest.mark.parametrize("block", [1, 5, 64, 1 << 16])
def test_the_tail_read_backwards_is_the_tail_of_the_whole_file(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, block: int
) -> None:
    monkeypatch.setattr(ledgertail, "_BLOCK", block)
    monkeypatch.setattr(ledgertail, "_COUNT", max(block, 3))
    target = tmp_path / "ledger.jsonl"
    for data in ledgers():
        target.write_bytes(data)
        got = ledgertail.tail(target, ledgerscan._record)
        want = ledgerscan._whole_tail(data)
        assert got is not None
        fields = ("start", "value", "data", "number", "before", "size")
        assert [getattr(got, f) for f in fields] == [getattr(want, f) for f in fields], data


def test_a_missing_ledger_is_an_empty_tail(tmp_path: Path) -> None:
    got = ledgertail.tail(tmp_path / "ledger.jsonl", ledgerscan._record)
    assert got is not None and (got.data, got.number, got.size) == (b"", 0, 0)


def test_a_file_the_whole_read_refuses_is_refused_in_its_words(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    target = tmp_path / "ledger.jsonl"
    os.mkfifo(target)
    assert ledgertail.tail(target, ledgerscan._record) is None
    with pytest.raises(ContractUnmet, match="not a regular file"):
        ledgerscan.task_scan(target)
    target.unlink()
    target.write_bytes(PIECES[0] + b"\n" + PIECES[1] + b"\n")
    monkeypatch.setattr(ledgertail.limits, "LEDGER", (10, 10))
    monkeypatch.setattr(ledgerscan.contents.__globals__["limits"], "LEDGER", (10, 10))
    assert ledgertail.tail(target, ledgerscan._record) is None
    with pytest.raises(ContractUnmet, match="over 10 bytes"):
        ledgerscan.task_scan(target)
