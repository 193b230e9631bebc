"""`open-questions.md`: the mutable index of questions blocking acceptance.

Exactly two line shapes are entries; any other line starting `- [` is malformed (a FAIL in
check, doctor and watch). Lines inside an HTML comment are the file's template, not entries.

    - [unresolved] <task id> — <question> (<YYYY-MM-DD>)
    - [resolved <YYYY-MM-DD>] <task id> — <question> — <answer>
"""

from __future__ import annotations

import re
from pathlib import Path

from mj_core import files
from mj_core import limits
from mj_core import timing
from mj_core.errors import ContractUnmet

TYPE_CHECKING = False  # `typing` is not imported at run time on a start-up path
if TYPE_CHECKING:
    from collections.abc import Callable
    from collections.abc import Iterator

SEP = " — "
NAME = "open-questions.md"
_TASK = r"t-\d{8}-?\d{6}-[0-9a-f]{4}"
_DATE = r"\d{4}-\d{2}-\d{2}"
# an entry's two shapes, compiled (and cached) by `re` for the first line that may be one
_UNRESOLVED = rf"- \[unresolved\] ({_TASK}) — (.+) \(({_DATE})\)"
_RESOLVED = rf"- \[resolved ({_DATE})\] ({_TASK}) — (.+?) — (.+)"


class Entry:
    """One entry line; `number` is its 1-based position among the entries (`question list`)."""

    __slots__ = ("answer", "date", "lineno", "number", "question", "resolved", "task_id")

    def __init__(  # noqa: PLR0917 — the dataclass field order, kept
        self,
        number: int,
        lineno: int,
        resolved: bool,
        task_id: str,
        question: str,
        date: str,  # opened (unresolved) or resolved date
        answer: str | None,
    ) -> None:
        self.number = number
        self.lineno = lineno
        self.resolved = resolved
        self.task_id = task_id
        self.question = question
        self.date = date
        self.answer = answer


class Malformed:
    """A line shaped like an entry that is neither of the two shapes."""

    __slots__ = ("lineno", "text")

    def __init__(self, lineno: int, text: str) -> None:
        self.lineno = lineno
        self.text = text


def path(state_dir: Path) -> Path:
    return state_dir / NAME


_LOOKS = re.compile(rf"\[\s*(?:un)?resolved|{_TASK}", re.IGNORECASE)


def parse(text: str) -> tuple[list[Entry], list[Malformed]]:
    """Entries and malformed lines. A line that merely looks like an entry (`* [unresolved]`,
    an indented one, a bare task id) is malformed, not ignored: the gate fails closed."""
    entries: list[Entry] = []
    bad: list[Malformed] = []
    for lineno, line in _live_lines(text):
        if not line.startswith("- [") and not _LOOKS.search(line):
            continue
        entry = parse_line(len(entries) + 1, lineno, line)
        if entry is None:
            bad.append(Malformed(lineno, line))
        else:
            entries.append(entry)
    return entries, bad


def load(state_dir: Path) -> tuple[list[Entry], list[Malformed]]:
    """The entries and malformed lines of the file (missing: none). A file that is not UTF-8
    is one malformed line 1 (`read` says why)."""
    text, problem = read(state_dir)
    if problem is not None:
        return [], [Malformed(1, problem)]
    return parse(text or "")


def read(state_dir: Path) -> tuple[str | None, str | None]:
    """(the file's text or None when it is missing, why it cannot be read)."""
    try:
        data = files.read_capped(path(state_dir), f"state/{NAME}", limits.LOG)
        timing.count("files read")
    except FileNotFoundError:
        return None, None
    except OSError as exc:
        return None, f"cannot be read ({exc.strerror})"
    except ContractUnmet as exc:  # over its limits, or not a regular file
        return None, "is " + exc.message.split(": ", 1)[-1]
    try:
        return data.decode("utf-8"), None
    except UnicodeDecodeError as exc:
        return None, f"is not UTF-8 (byte {exc.start + 1})"


class Blockers:
    """The open questions of one task, from the file and the ledger together, and every way
    the two disagree or the file cannot be trusted (each a failure)."""

    __slots__ = ("open", "problems")

    def __init__(self) -> None:
        self.open: list[tuple[str, str]] = []  # (question, where it is shown: file:line)
        self.problems: list[tuple[str, str]] = []  # (where, what is wrong)


def blockers(
    text: str | None,
    problem: str | None,
    rows: list[tuple[int, object]],
    task_id: str,
    *,
    shown: str = NAME,
    ledger: str = "ledger.jsonl",
    before: Callable[[], int] | None = None,
) -> Blockers:
    """Judge `task_id`'s blockers: the file's text (None: missing; `problem`: unreadable) and
    the ledger's (line number, value) rows. The ledger knows every question opened and resolved
    through the tool, so a question it holds open blocks even when the file no longer shows it
    (garbled, deleted, hidden in a comment, resolved by hand). With `before`, the rows are
    numbered from a later line than the ledger's first, and `before()` counts the lines before
    it when a place in the ledger is named."""
    out = Blockers()
    held = _held_open(rows, task_id)
    if problem is not None:
        out.problems.append((f"{shown}:1", f"{shown} {problem}"))
    elif text is None and held:
        out.problems.append((shown, f"{shown} is missing, but the ledger records questions"))
    entries, bad = parse(text or "") if problem is None else ([], [])
    for item in bad:
        out.problems.append((f"{shown}:{item.lineno}", "not one of the two question line shapes"))
    unmatched = unresolved_for(entries, task_id)
    for question, number in held:
        entry = next((e for e in unmatched if e.question == question), None)
        if entry is not None:
            unmatched.remove(entry)
            out.open.append((question, f"{shown}:{entry.lineno}"))
            continue
        where = f"{ledger}:{number + (before() if before is not None else 0)}"
        out.problems.append(
            (where, f'"{question}" is open in the ledger, but {shown} does not show it open')
        )
        out.open.append((question, where))
    out.open.extend((e.question, f"{shown}:{e.lineno}") for e in unmatched)
    return out


def _held_open(rows: list[tuple[int, object]], task_id: str) -> list[tuple[str, int]]:
    """(question, line opened) still open for `task_id` by the ledger's own lines."""
    held: list[tuple[str, int]] = []
    for number, value in rows:
        if type(value) is not dict or value.get("task_id") != task_id:
            continue
        if value.get("event") == "question.opened":
            held.append((str(value.get("question")), number))
        elif value.get("event") == "question.resolved":
            for index, (question, _) in enumerate(held):
                if question == value.get("question"):
                    del held[index]
                    break
    return held


def _live_lines(text: str) -> Iterator[tuple[int, str]]:
    """(line number, line) outside HTML comments."""
    in_comment = False
    for lineno, raw in enumerate(text.splitlines(), start=1):
        line = raw.rstrip()
        if in_comment or line.lstrip().startswith("<!--"):
            in_comment = "-->" not in line
            continue
        yield lineno, line


def parse_line(number: int, lineno: int, line: str) -> Entry | None:
    match = re.fullmatch(_UNRESOLVED, line)
    if match and SEP not in match.group(2):
        task, question, date = match.groups()
        return Entry(number, lineno, False, task, question, date, None)
    match = re.fullmatch(_RESOLVED, line)
    if match:
        date, task, question, answer = match.groups()
        return Entry(number, lineno, True, task, question, date, answer)
    return None


def unresolved_for(entries: list[Entry], task_id: str | None) -> list[Entry]:
    """Unresolved entries, for one task when `task_id` is given."""
    return [e for e in entries if not e.resolved and (task_id is None or e.task_id == task_id)]


def unresolved_line(task_id: str, question: str, date: str) -> str:
    return f"- [unresolved] {task_id}{SEP}{question} ({date})"


def resolved_line(entry: Entry, date: str, answer: str) -> str:
    return f"- [resolved {date}] {entry.task_id}{SEP}{entry.question}{SEP}{answer}"
