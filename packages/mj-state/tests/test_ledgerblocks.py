"""`ledger.blocks.judge` gives the verdict `ledger.scan.scan` gives, a block at a time: the same
problems, the same chain verdict (legacy lead, seal, first break, the tip's word), the same
count of lines, whatever the block size and wherever the blocks cut the ledger."""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest
from mj_state.ledger import blocks as ledgerblocks
from mj_state.ledger import chain
from mj_state.ledger import scan as ledgerscan


def encoded(value: dict[str, object]) -> bytes:
    return json.dumps(value, separators=(",", ":")).encode()


def ledger(rng: random.Random) -> tuple[bytes, bytes | None]:
    """A ledger of random shape (a legacy lead, a seal, an edit, a bad line, a torn end) and its
    tip (right, wrong, damaged or missing)."""
    lines: list[bytes] = []
    prev = chain.GENESIS
    if rng.random() < 0.2:  # opened by a seal
        seal = {
            "ts": "t",
            "event": chain.SEAL,
            "archive": "a.jsonl",
            "archived": 3,
            "prev": "ab" * 32,
        }
        lines.append(encoded(seal))
        prev = "ab" * 32
    for _ in range(rng.randint(0, 3) if rng.random() < 0.3 else 0):  # a legacy lead
        line = encoded({"ts": "t", "event": "task.checkpoint"})
        lines.append(line)
        prev = chain.digest(line)
    for index in range(rng.randint(0, 40)):
        value: dict[str, object] = {"ts": "t", "event": "task.checkpoint", "n": index, "prev": prev}
        roll = rng.random()
        if roll < 0.02:
            value["prev"] = "0" * 63 + "1"  # an edited link
        elif roll < 0.04:
            value["event"] = "made.up"  # an undeclared event
        elif roll < 0.05:
            value.pop("prev")  # a line by hand
        line = encoded(value) if roll > 0.01 else b'{"ts": "t", "event": '  # a malformed line
        lines.append(line)
        prev = chain.digest(line)
    data = b"\n".join(lines) + (b"\n" if lines and rng.random() < 0.9 else b"")
    last = chain.digest(lines[-1]) if lines else ""
    roll = rng.random()
    tip = (
        None if roll < 0.1 else b"not a tip" if roll < 0.15 else chain.Tip(len(data), last).render()
    )
    if 0.15 <= roll < 0.2:
        tip = chain.Tip(len(data) + 1, last).render()
    return data, tip


@pytest.mark.parametrize("block", [1, 7, 100, 1 << 18])
def test_judged_a_block_at_a_time_as_a_whole_scan_judges(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, block: int
) -> None:
    monkeypatch.setattr(ledgerblocks, "_BLOCK", block)
    target = tmp_path / "ledger.jsonl"
    rng = random.Random(block)
    for _ in range(150):
        data, tip = ledger(rng)
        target.write_bytes(data)
        (tmp_path / chain.TIP).unlink(missing_ok=True)
        if tip is not None:
            (tmp_path / chain.TIP).write_bytes(tip)
        whole = ledgerscan.scan(target)
        judged = ledgerblocks.judge(target)
        assert judged.problems == whole.problems, data
        assert judged.chain.fact() == whole.chain.fact(), data
        assert judged.lines == len(whole.rows)


def test_a_missing_ledger_is_judged_as_scan_judges_it(tmp_path: Path) -> None:
    target = tmp_path / "ledger.jsonl"
    assert ledgerblocks.judge(target).chain.fact() == ledgerscan.scan(target).chain.fact()
