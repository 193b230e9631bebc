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

TYPE_CHECKING = False  # `typing` is not imported at run time on a start-up path
if TYPE_CHECKING:
    from collections.abc import Iterator

SEP = " — "
NAME = "open-questions.md"
_TASK = r"t-\d{8}-?\d{6}-[0-9a-f]{4}"
_DATE = r"\d{4}-\d{2}-\d{2}"
_UNRESOLVED = re.compile(rf"- \[unresolved\] ({_TASK}) — (.+) \(({_DATE})\)")
_RESOLVED = re.compile(rf"- \[resolved ({_DATE})\] ({_TASK}) — (.+?) — (.+)")


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


def parse(text: str) -> tuple[list[Entry], list[Malformed]]:
    entries: list[Entry] = []
    bad: list[Malformed] = []
    for lineno, line in _live_lines(text):
        if not line.startswith("- ["):
            continue
        entry = parse_line(len(entries) + 1, lineno, line)
        if entry is None:
            bad.append(Malformed(lineno, line))
        else:
            entries.append(entry)
    return entries, bad


def load(state_dir: Path) -> tuple[list[Entry], list[Malformed]]:
    text = files.read_lenient(path(state_dir), f"state/{NAME}", limits.LOG)
    if text is None:
        return [], []
    timing.count("files read")
    return parse(text)


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
    match = _UNRESOLVED.fullmatch(line)
    if match and SEP not in match.group(2):
        task, question, date = match.groups()
        return Entry(number, lineno, False, task, question, date, None)
    match = _RESOLVED.fullmatch(line)
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
