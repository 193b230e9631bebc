"""The decision log `.ai/local/state/decisions.md`: append-only, one dated entry per decision.

`add` computes Task and Head, writes `-` for an absent optional field and adds the whole entry
under the file's lock, its ledger line first; entries are never edited. `parse` reads the file
back (text inside an HTML comment is the file's template, not an entry) and `lacking` names the
attribution fields an entry does not carry — check and doctor report those as warnings.
"""

from __future__ import annotations

import re
from pathlib import Path

from mj_core import clock
from mj_core import files
from mj_core import limits
from mj_core import timing
from mj_core.errors import Refused
from mj_core.errors import UsageError
from mj_core.sanitise import undecodable

TYPE_CHECKING = False  # `typing` is not imported at run time on a start-up path
if TYPE_CHECKING:
    from collections.abc import Callable

NAME = "decisions.md"
FIELDS = ("Task", "Head", "Why", "Rejected", "Evidence", "Supersedes")
ATTRIBUTION = ("Task", "Head", "Why")
# an entry's heading and field lines, compiled (and cached) by `re` for a text with a heading
_HEADING = r"^## (\d{4}-\d{2}-\d{2}) — (.+?)\s*$"
_FIELD = r"^(" + "|".join(FIELDS) + r"):[ \t]*(.*?)\s*$"
_COMMENT = re.compile(r"<!--.*?(-->|\Z)", re.DOTALL)


class Entry:
    """One decision: its heading's line number, date and title, and its fields in file order."""

    __slots__ = ("date", "fields", "line", "title")

    def __init__(self, line: int, date: str, title: str, fields: dict[str, str]) -> None:
        self.line = line
        self.date = date
        self.title = title
        self.fields = fields

    def text(self) -> str:
        rows = [f"## {self.date} — {self.title}"]
        rows += [f"{key}: {self.fields[key]}" for key in FIELDS if key in self.fields]
        return "\n".join(rows) + "\n"


def path(state: Path) -> Path:
    return state / NAME


def _blank_comments(text: str) -> str:
    """Comments replaced by as many newlines, so line numbers stay true."""
    return _COMMENT.sub(lambda m: "\n" * m.group(0).count("\n"), text)


_LAST: list[tuple[str, list[Entry]]] = []  # the text parsed last: doctor's facts and judge share it


def parse(text: str) -> list[Entry]:
    """Entries in file order (oldest first); field lines outside an entry are ignored. The
    entries are shared with the last caller that parsed the same text: never change them."""
    if _LAST and _LAST[0][0] == text:
        return list(_LAST[0][1])
    entries = _parsed(text)
    _LAST[:] = [(text, entries)]
    return list(entries)


def _parsed(text: str) -> list[Entry]:
    entries: list[Entry] = []
    live = _blank_comments(text)
    if not live.startswith("## ") and "\n## " not in live:  # no heading: no entry, none to read
        return entries
    headings, fields = re.compile(_HEADING), re.compile(_FIELD)
    for number, line in enumerate(live.split("\n"), start=1):
        heading = headings.match(line)
        if heading:
            entries.append(Entry(number, heading.group(1), heading.group(2), {}))
            continue
        field = fields.match(line)
        if field and entries and field.group(1) not in entries[-1].fields:
            entries[-1].fields[field.group(1)] = field.group(2)
    return entries


def read(state: Path) -> list[Entry]:
    text = files.read_lenient(path(state), f"state/{NAME}", limits.LOG)
    if text is None:
        return []
    timing.count("files read")
    return parse(text)


def lacking(entry: Entry) -> list[str]:
    """Attribution fields absent or empty; Task and Head both `-` leave it unattributable."""
    missing = [key for key in ATTRIBUTION if not entry.fields.get(key)]
    if entry.fields.get("Why") == "-":
        missing.append("Why")
    if entry.fields.get("Task") == "-" and entry.fields.get("Head") == "-":
        missing += ["Task", "Head"]
    return sorted(set(missing), key=ATTRIBUTION.index)


def matching(entries: list[Entry], text: str) -> list[Entry]:
    """Entries whose title contains `text` (case-insensitive), in file order."""
    needle = text.strip().lower()
    return [entry for entry in entries if needle and needle in entry.title.lower()]


def _one_line(value: str | None, option: str, *, required: bool = False) -> str:
    text = (value or "").strip()
    if required and not text:
        raise UsageError(f"decision add: {option} is required and may not be empty")
    if "\n" in text or "\r" in text:
        raise UsageError(f"decision add: {option} must be one line")
    return text or "-"


def build(
    entries: list[Entry],
    *,
    title: str,
    why: str | None,
    rejected: str | None,
    evidence: str | None,
    supersedes: str | None,
    task_id: str | None,
    head: str | None,
    moment: int,
) -> Entry:
    """The new entry, validated: missing --why → 2; --supersedes matching nothing → 15."""
    heading = _one_line(title, "the title", required=True)
    fields = {"Task": task_id or "-", "Head": head or "-"}
    fields["Why"] = _one_line(why, "--why", required=True)
    fields["Rejected"] = _one_line(rejected, "--rejected")
    fields["Evidence"] = _one_line(evidence, "--evidence")
    fields["Supersedes"] = _supersedes(entries, supersedes)
    return Entry(0, clock.iso(moment)[:10], heading, fields)


def _supersedes(entries: list[Entry], text: str | None) -> str:
    if text is None:
        return "-"
    value = _one_line(text, "--supersedes")
    found = matching(entries, value)
    if not found:
        raise Refused(f"{NAME}: --supersedes {value!r} matches no recorded decision")
    if len({entry.title for entry in found}) > 1:
        titles = "; ".join(entry.title for entry in found)
        raise Refused(f"{NAME}: --supersedes {value!r} is ambiguous ({titles}); quote more")
    return found[0].title


def append(state: Path, entry: Entry, *, then: Callable[[str], object] | None = None) -> None:
    """The whole entry, after a blank line, under the file's lock; `then(text)` (its ledger
    line, given the entry's text) is written first, and the file is published by one rename
    after it (`mj_state.records.write`), so a crash never leaves an entry without its line."""
    from mj_state.records import (
        write as recordwrite,  # the writers' module: readers of decisions never load it
    )

    block = undecodable(entry.text())

    def change(text: str) -> tuple[str, Callable[[], object] | None]:
        line = None if then is None else (lambda: then(block))
        return recordwrite.appended(text, block, gap=True), line

    recordwrite.rewrite(path(state), change)
