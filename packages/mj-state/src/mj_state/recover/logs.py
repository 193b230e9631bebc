"""`recover records`, the logs: each gap between `decisions.md` / `open-questions.md` and the
ledger (`mj_state.records.pairs`) repaired the way every write of those files goes
(`mj_state.records.write`: under the file's lock, the ledger line first, then one rename).

- a line without its entry: the entry is restored from the line (`restore`);
- a question the file shows otherwise than the ledger: its line is rewritten as the ledger has
  it (`rewrite`);
- a decision without its line: a copy goes to `state/archive/recovered/` first, then it leaves
  the log (`set-aside`; the ledger is the authority — record it again with `decision add`);
- a question without its line: its `question.opened` line is written and it is shown open
  (`adopt`: a question is never dropped; it blocks until resolved through the tool).
Each repair but `adopt` writes a `record.recovered` line. The gap is looked for again under the
lock, so a repair made meanwhile is not made twice.
"""

from __future__ import annotations

from mj_core import clock
from mj_core import files
from mj_core import limits
from mj_core.errors import Refused

from mj_state.ledger import store as ledger
from mj_state.records import decisions
from mj_state.records import pairs as recordpairs
from mj_state.records import questions
from mj_state.records import write as recordwrite

TYPE_CHECKING = False  # `typing` is not imported at run time on a start-up path
if TYPE_CHECKING:
    from collections.abc import Callable
    from typing import Any

    from mj_policy.layer.loader import Layer

    Record = dict[str, Any]


def gaps(layer: Layer) -> list[recordpairs.Gap]:
    """Every gap between the two logs and the ledger, as they stand."""
    return _gaps(layer, None, ledger.scan(ledger.path(layer.state)).values)


def _gaps(layer: Layer, only: str | None, values: list[Any]) -> list[recordpairs.Gap]:
    decided = files.read_lenient(decisions.path(layer.state), decisions.NAME, limits.LOG)
    asked, problem = questions.read(layer.state)
    found = recordpairs.gaps(decided, asked if problem is None else None, values)
    return [gap for gap in found if only is None or gap.file == only]


def repair(layer: Layer, item: Record) -> None:
    name = str(item["_file"])
    key = tuple(item["_key"])  # the gap is looked for again under the lock

    def change(text: str) -> tuple[str, Callable[[], object] | None] | None:
        values = ledger.scan(ledger.path(layer.state)).values
        pairs = recordpairs.decision_gaps if name == decisions.NAME else recordpairs.question_gaps
        gap = next((g for g in pairs(text, values) if g.key == key), None)
        if gap is None:
            return None  # repaired meanwhile
        return _fixed(layer, text, gap), lambda: _line(layer, gap)

    recordwrite.rewrite(layer.state / name, change)


def _fixed(layer: Layer, text: str, gap: recordpairs.Gap) -> str:
    if gap.action == "restore":
        block = gap.text if gap.text.endswith("\n") else gap.text + "\n"
        return recordwrite.appended(text, block, gap=gap.file == decisions.NAME)
    if gap.action == "set-aside":
        _archive(layer, gap.old)
        return _without(text, gap.old)
    old = gap.old
    new = gap.text if gap.action == "rewrite" else _reopened(old)
    lines = text.split("\n")
    lines[lines.index(old)] = new
    return "\n".join(lines)


def _reopened(line: str) -> str:
    entry = questions.parse_line(1, 1, line)
    if entry is None or not entry.resolved:
        return line
    return questions.unresolved_line(entry.task_id, entry.question, clock.day(clock.now()))


def _without(text: str, block: str) -> str:
    at = 0 if text.startswith(block) else text.find("\n" + block) + 1
    if at == 0 and not text.startswith(block):
        raise Refused(f"{decisions.NAME}: the entry to set aside moved; run recover again")
    before = text[:at]
    if before.endswith("\n\n"):
        before = before[:-1]  # the blank line that parted it from the one before
    return before + text[at + len(block) :]


def _archive(layer: Layer, block: str) -> None:
    """A copy first, named by its content: a second run finds it there and writes none."""
    import hashlib  # not on the start-up path

    from mj_core.write import atomic

    digest = hashlib.sha256(block.encode("utf-8", "surrogateescape")).hexdigest()[:16]
    directory = layer.state / "archive" / "recovered"
    atomic.make_dirs(directory, root=layer.root)
    target = directory / f"decision-{digest}.md"
    if not target.exists():
        atomic.create(target, block.encode("utf-8", "surrogateescape"), mode=0o600)


def _line(layer: Layer, gap: recordpairs.Gap) -> object:
    if gap.action == "adopt":
        payload = {"question": _question(gap.old)}
        return ledger.append(layer.root, layer.state, "question.opened", payload, task_id=gap.task)
    payload = {"action": gap.action, "file": gap.file, "text": gap.text or gap.old}
    return ledger.append(layer.root, layer.state, "record.recovered", payload)


def _question(line: str) -> str:
    entry = questions.parse_line(1, 1, line)
    return entry.question if entry is not None else line
