"""`ledger.named.lines` reads only the lines whose bytes could name a value, each as the full
reader reads it: whatever the ledger holds (escapes, a key twice, a torn or malformed line, a
field of another type), the lines naming the value that it gives are the ones `ledger.read`
gives, with the same numbers and records."""

from __future__ import annotations

import json
from pathlib import Path

from hypothesis import given
from hypothesis import settings
from hypothesis import strategies as st
from mj_state.ledger import named as ledgernamed
from mj_state.ledger import store as ledger

TS = "2026-01-01T00:00:00Z"
IDS = ["t-1", "t-2", "t-é", "t\ud800"]


def _line(event: str, task: object, escaped: bool, extra: object) -> str:
    text = json.dumps({"ts": TS, "event": event, "task_id": task, "note": extra},
                      ensure_ascii=escaped)  # fmt: skip
    return text.replace('"t-1"', '"t\\u002d1"') if escaped else text


LINES = st.one_of(
    st.builds(_line, st.sampled_from(["task.checkpoint", "task.started", "note"]),
              st.one_of(st.sampled_from(IDS), st.integers()), st.booleans(),
              st.one_of(st.text(max_size=4), st.integers(), st.lists(st.sampled_from(IDS)))),
    st.sampled_from(['{"ts": "x", "event": "task.checkpoint", "task_id": "t-1", "task_id": "t-2"}',
                     '{"event": "task.checkpoint", "task_id": "t-1"', "t-1", "", "[1]"]),
)  # fmt: skip


def _named(found: list[ledger.Line], task: str) -> list[tuple[int, object]]:
    return [(line.lineno, line.record) for line in found
            if line.record is not None and line.record.get("task_id") == task]  # fmt: skip


@settings(max_examples=300, deadline=None)
@given(st.lists(LINES, max_size=12), st.booleans(), st.sampled_from(IDS))
def test_the_lines_naming_a_value_are_the_full_readers(
    tmp_path_factory: object, lines: list[str], torn: bool, task: str
) -> None:
    where = Path(tmp_path_factory.mktemp("ledger")) / "ledger.jsonl"  # type: ignore[attr-defined]
    text = "".join(line + "\n" for line in lines)
    where.write_bytes((text[:-1] if torn and text else text).encode("utf-8", "surrogatepass"))
    full = list(ledger.read(where))
    assert _named(list(ledgernamed.lines(where, task)), task) == _named(full, task)


def test_a_line_without_the_value_or_an_escape_is_not_parsed(tmp_path: Path) -> None:
    where = tmp_path / "ledger.jsonl"
    where.write_text(_line("task.checkpoint", "t-2", False, "x") + "\n{not json\n"
                     + _line("task.checkpoint", "t-1", False, "y") + "\n")  # fmt: skip
    found = list(ledgernamed.lines(where, "t-1"))
    assert [(line.lineno, line.record["task_id"]) for line in found if line.record] == [(3, "t-1")]
    assert len(found) == 1
