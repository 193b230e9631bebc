"""Each entry of `decisions.md` and `open-questions.md` paired with its ledger line, and the gaps.

The writers put the ledger line down first and then publish the whole file by one rename, both
under the file's lock, so an interruption leaves at most a line without its entry — which the
line holds enough to restore. Anything else (an entry without its line, a question the file
shows otherwise than the ledger) is a hand edit or an older writer's crash. `gaps` names each,
with the repair `recover records` makes: restore from the ledger, rewrite a question as the
ledger has it, set a decision without its line aside (the ledger is the authority), adopt a
question without its line (it keeps blocking: a question is never dropped). Once a rotation has
moved old lines out (a seal opens the file), an entry older than every paired one, or a
question of a task whose start is no longer in the file, is taken to be the rotated lines'.
Pure: texts and parsed ledger values in, gaps out.
"""

from __future__ import annotations

from mj_state.ledger import rotation
from mj_state.records import decisions
from mj_state.records import questions

TYPE_CHECKING = False  # `typing` is not imported at run time on a start-up path
if TYPE_CHECKING:
    from typing import Any

DECIDED = "decision.recorded"
OPENED = "question.opened"
RESOLVED = "question.resolved"


class Gap:
    """One disagreement: which file, where (`file:line` or `ledger.jsonl:N`), what, the repair
    (`restore`, `rewrite`, `set-aside`, `adopt`, `report`), and the text the repair needs."""

    __slots__ = ("action", "file", "key", "message", "old", "task", "text", "where")

    def __init__(self, file: str, where: str, message: str, action: str, **data: Any) -> None:
        self.file = file
        self.where = where
        self.message = message
        self.action = action
        self.text: str = data.get("text", "")  # the entry or line as the ledger has it
        self.old: str = data.get("old", "")  # the file's entry or line as it stands
        self.task: str = data.get("task", "")
        self.key = (action, self.old or self.text)


EVENTS = (DECIDED, OPENED, RESOLVED, "task.started")
_WANTED = frozenset(EVENTS)


def gaps(
    decided: str | None,
    asked: str | None,
    values: list[Any],
    lines: list[tuple[int, dict[str, Any]]] | None = None,
) -> list[Gap]:
    """Every gap of both logs; `lines` is `events(values)` when the caller has it."""
    lines = events(values) if lines is None else lines
    return decision_gaps(decided, values, lines) + question_gaps(asked, values, lines)


def events(values: list[Any], names: list[str] | None = None) -> list[tuple[int, dict[str, Any]]]:
    """(line number, value) of the lines these logs are paired with, in one pass (without a
    loop in Python when every line is an object naming its event); `names` is each line's
    event, when the caller has them (`ledger.scan.Scan.events`)."""
    from itertools import compress
    from itertools import count
    from operator import itemgetter

    try:
        marks = list(map(_WANTED.__contains__,
                         map(itemgetter("event"), values) if names is None else names))  # fmt: skip
    except (KeyError, TypeError):  # a withheld line (None), or one without a hashable event
        return [(n, v) for n, v in enumerate(values, start=1)
                if type(v) is dict and v.get("event") in EVENTS]  # fmt: skip
    return list(zip(compress(count(1), marks), compress(values, marks), strict=True))


def decision_gaps(
    text: str | None, values: list[Any], lines: list[tuple[int, dict[str, Any]]] | None = None
) -> list[Gap]:
    entries = decisions.parse(text or "")
    spans = blocks(text or "", entries)
    by_text: dict[str, list[int]] = {}
    by_title: dict[str, list[int]] = {}
    for at, entry in reversed(list(enumerate(entries))):  # each pool taken from its end
        by_text.setdefault(entry.text(), []).append(at)
        by_title.setdefault(entry.title, []).append(at)
    paired: set[int] = set()
    out: list[Gap] = []
    for number, value in _only(lines if lines is not None else events(values), DECIDED):
        written = value.get("entry")
        found = _take(by_text.get(written, []), paired) if isinstance(written, str) else None
        if found is None:
            found = _take(by_title.get(str(value.get("decision")), []), paired)
        if found is not None:
            continue
        where = f"ledger.jsonl:{number}"
        said = f"decision {value.get('decision')!r} is in the ledger, not in {decisions.NAME}"
        if isinstance(written, str):
            out.append(Gap(decisions.NAME, where, said, "restore", text=written))
        else:
            out.append(Gap(decisions.NAME, where, f"{said} (too old a line to restore)", "report"))
    first = min(paired, default=len(entries)) if rotation.sealed(values) else 0
    for index, entry in enumerate(entries):
        if index in paired or index < first:
            continue
        where = f"{decisions.NAME}:{entry.line}"
        message = f"decision {entry.title!r} has no decision.recorded line in the ledger"
        out.append(Gap(decisions.NAME, where, message, "set-aside", old=spans[index]))
    return out


def _take(pool: list[int], paired: set[int]) -> int | None:
    """The first index of `pool` (kept in reverse) not yet paired, now paired; else None."""
    while pool and pool[-1] in paired:
        pool.pop()
    if not pool:
        return None
    paired.add(pool[-1])
    return pool.pop()


def blocks(text: str, entries: list[decisions.Entry]) -> list[str]:
    """Each entry's own lines as the file has them: its heading to the next heading, without
    the blank lines that part it from the next."""
    if not entries:
        return []
    lines = text.split("\n")
    ends = [entry.line - 1 for entry in entries[1:]] + [len(lines)]
    spans = zip(entries, ends, strict=True)
    return ["\n".join(lines[e.line - 1 : end]).rstrip("\n") + "\n" for e, end in spans]


class _Asked:
    __slots__ = ("answer", "number", "opened", "question", "resolved", "task")

    def __init__(self, number: int, value: dict[str, Any]) -> None:
        self.number = number
        self.task = str(value.get("task_id"))
        self.question = str(value.get("question"))
        self.opened = str(value.get("ts") or "")[:10]
        self.resolved: str | None = None
        self.answer: str | None = None

    def line(self) -> str:
        if self.resolved is None:
            return questions.unresolved_line(self.task, self.question, self.opened)
        sep = questions.SEP
        return f"- [resolved {self.resolved}] {self.task}{sep}{self.question}{sep}{self.answer}"


def question_gaps(
    text: str | None, values: list[Any], lines: list[tuple[int, dict[str, Any]]] | None = None
) -> list[Gap]:
    mine = lines if lines is not None else events(values)
    asked = _asked(mine)
    entries, _ = questions.parse(text or "")
    rows = (text or "").splitlines()
    pool: dict[tuple[str, str], list[int]] = {}
    for at, entry in reversed(list(enumerate(entries))):
        pool.setdefault((entry.task_id, entry.question), []).append(at)
    paired: set[int] = set()
    out: list[Gap] = []
    name = questions.NAME
    for one in asked:
        index = _take(pool.get((one.task, one.question), []), paired)
        if index is None:
            message = f"question {one.question!r} is in the ledger, not in {name}"
            out.append(Gap(name, f"ledger.jsonl:{one.number}", message, "restore", text=one.line()))
            continue
        entry = entries[index]
        if entry.resolved == (one.resolved is not None) and entry.answer == one.answer:
            continue
        state = "resolved" if one.resolved is not None else "open"
        message = f"question {one.question!r} is {state} in the ledger; {name} shows it otherwise"
        out.append(Gap(name, f"{name}:{entry.lineno}", message, "rewrite",
                       text=one.line(), old=rows[entry.lineno - 1]))  # fmt: skip
    started = {str(v.get("task_id")) for _, v in _only(mine, "task.started")}
    sealed = rotation.sealed(values)
    for index, entry in enumerate(entries):
        if index in paired or (sealed and entry.task_id not in started):
            continue
        message = f"question {entry.question!r} has no question.opened line in the ledger"
        out.append(Gap(name, f"{name}:{entry.lineno}", message, "adopt",
                       old=rows[entry.lineno - 1], task=entry.task_id))  # fmt: skip
    return out


def _asked(lines: list[tuple[int, dict[str, Any]]]) -> list[_Asked]:
    asked: list[_Asked] = []
    still: dict[tuple[str, str], list[_Asked]] = {}  # opened, not yet resolved, oldest first
    for number, value in lines:
        key = (str(value.get("task_id")), str(value.get("question")))
        if value.get("event") == OPENED:
            asked.append(_Asked(number, value))
            still.setdefault(key, []).append(asked[-1])
        elif value.get("event") == RESOLVED and still.get(key):
            one = still[key].pop(0)
            one.resolved = str(value.get("ts") or "")[:10]
            one.answer = str(value.get("answer"))
    return asked


def _only(lines: list[tuple[int, dict[str, Any]]], event: str) -> list[tuple[int, dict[str, Any]]]:
    return [(n, v) for n, v in lines if v.get("event") == event]
