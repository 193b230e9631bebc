"""`ledger.scan.scan` hands its readers each line's event only when every line is a declared,
well-typed object: the same list a reader would make from the values, else None."""

from __future__ import annotations

import json
from pathlib import Path

from mj_state.ledger import scan as ledgerscan

TS = "2026-01-01T00:00:00Z"


def _ledger(tmp_path: Path, lines: list[dict[str, object]]) -> Path:
    path = tmp_path / "ledger.jsonl"
    path.write_text("".join(json.dumps(v, separators=(",", ":")) + "\n" for v in lines))
    return path


def test_each_lines_event_or_none(tmp_path: Path) -> None:
    lines: list[dict[str, object]] = [
        {"ts": TS, "event": "task.started", "task_id": "t", "scope": ["lib"]},
        {"ts": TS, "event": "task.checkpoint", "task_id": "t", "checkpoint_path": "c.md"},
        {"ts": TS, "event": "decision.recorded", "decision": "d", "entry": "e"},
    ]
    found = ledgerscan.scan(_ledger(tmp_path, lines))
    assert found.events == [str(v["event"]) for v in found.values]
    assert found.events == ["task.started", "task.checkpoint", "decision.recorded"]
    mistyped = [*lines, {"ts": TS, "event": "task.handed_over", "closed": "yes"}]
    assert ledgerscan.scan(_ledger(tmp_path, mistyped)).events is None
    undeclared = [*lines, {"ts": TS, "event": "no.such.event"}]
    assert ledgerscan.scan(_ledger(tmp_path, undeclared)).events is None
    torn = _ledger(tmp_path, lines)
    torn.write_bytes(torn.read_bytes() + b'{"ts":')
    assert ledgerscan.scan(torn).events is None
