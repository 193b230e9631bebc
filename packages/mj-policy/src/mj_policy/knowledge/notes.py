"""Knowledge records: `.ai/repo/knowledge/candidates/<id>.md` (what the tool derived, not yet
judged: `status: candidate`, or `rejected` once a person said why not) and `curated/<id>.md`
(`status: verified`, promoted with evidence). One kind, one schema
(`share/schemas/knowledge.schema.json`, keys closed by `share/allow/knowledge.txt`), one
state apart.

A record is read strictly and every defect is a problem naming file, line and key: a key the
schema does not name, a value it refuses, an id that is not the file's name, a status its
directory does not hold (a candidate claiming `verified`), and a line of its title,
description or body that names a message list, a completion or a model's response
(project.never-store-transcripts: a record is a claim, never a transcript).
"""

from __future__ import annotations

import re
from functools import cache

from mj_core.errors import MjError

TYPE_CHECKING = False  # `typing` is not imported at run time on a start-up path
if TYPE_CHECKING:
    from pathlib import Path
    from typing import Any

    from mj_core.yaml.strict import Document

    Record = dict[str, Any]

KIND = "knowledge"
MORE = "majordomus knowledge candidates"  # where every candidate is listed
BASE = ".ai/repo/knowledge"
CANDIDATES = f"{BASE}/candidates"
CURATED = f"{BASE}/curated"
HELD = {CANDIDATES: ("candidate", "rejected"), CURATED: ("verified",)}
ORDER = ("schema", "id", "kind", "class", "title", "description", "status", "epistemics",
         "date", "tags", "provenance", "relations")  # fmt: skip
# a line that carries a conversation rather than a claim: a turn of a chat, a message object,
# a list of messages, a completion or a model's response as an API returns it
TRANSCRIPT = (
    r"^\s*(?:[-*>]\s*)?\**(?:user|assistant|system|human|model)\**\s*:"
    r"|\"role\"\s*:\s*\"(?:user|assistant|system|tool|model)\""
    r"|\bmessages\s*[:=]\s*\["
    r"|\"(?:choices|completion|candidates)\"\s*:"
    r"|\b(?:chat\.completion|text_completion)\b"
)  # compiled at its first search (`_transcript`), not at import


class Note:
    """One record file: its front matter (None when it does not read), body and problems."""

    __slots__ = ("body", "directory", "doc", "first", "path", "problems")

    def __init__(self, directory: str, path: str) -> None:
        self.directory = directory  # CANDIDATES or CURATED
        self.path = path  # repository-relative
        self.doc: Document | None = None
        self.body = ""
        self.first = 1  # the body's first line
        self.problems: list[tuple[str, str]] = []  # (file:line, message)

    @property
    def data(self) -> Record:
        data = self.doc.data if self.doc is not None else None
        return data if isinstance(data, dict) else {}

    @property
    def id(self) -> str:
        return self.path.rsplit("/", 1)[-1].removesuffix(".md")

    def text(self, key: str) -> str:
        value = self.data.get(key)
        return value if isinstance(value, str) else ""


def read(root: Path, path: str) -> Note:
    """The record at repository-relative `path`, with every problem it has."""
    from mj_core import limits
    from mj_core.yaml import strict as yamlstrict

    note = Note(path.rsplit("/", 1)[0], path)
    try:
        text = yamlstrict.read_text(root / path, path, limits.RECORD)
        note.doc, note.body, note.first = yamlstrict.split_front_matter(text, path)
    except MjError as exc:
        note.problems.append((path, exc.message))
        return note
    note.problems.extend(_problems(note))
    return note


def _problems(note: Note) -> list[tuple[str, str]]:
    from mj_core.schema import full as schema
    from mj_core.schema import keys
    from mj_core.schema import required

    doc = note.doc
    assert doc is not None
    if not isinstance(doc.data, dict):
        return [(f"{note.path}:2", "front matter is not a mapping")]
    found = [(w, f"unknown key '{k}' (share/allow/{KIND}.txt)") for w, k in
             keys.unknown_keys(doc, KIND)]  # fmt: skip
    found += [(w, f"missing key '{k}'") for w, k in required.missing_keys(doc, KIND)]
    found += schema.quick_violations(doc, KIND, skip=("required", "additionalProperties"))
    if note.text("id") and note.text("id") != note.id:
        found.append((doc.where(("id",)), f"id {note.text('id')} is not the file's name"))
    status = note.text("status")
    if status and status not in HELD[note.directory]:
        held = " or ".join(HELD[note.directory])
        said = f"status {status}: {note.directory}/ holds {held} (only promote writes verified)"
        found.append((doc.where(("status",)), said))
    found += transcripts(note)
    return found


def transcripts(note: Note) -> list[tuple[str, str]]:
    """A line of the title, description or body that carries a conversation."""
    out = []
    for key in ("title", "description"):
        if _transcript().search(note.text(key)) and note.doc is not None:
            out.append((note.doc.where((key,)), f"{key}: {TRANSCRIPT_SAID}"))
    for number, line in enumerate(note.body.split("\n"), start=note.first):
        if _transcript().search(line):
            out.append((f"{note.path}:{number}", TRANSCRIPT_SAID))
    return out


TRANSCRIPT_SAID = (
    "names a message list, a completion or a model's response — a record states a claim, "
    "never a transcript (project.never-store-transcripts)"
)


@cache
def _transcript() -> re.Pattern[str]:
    return re.compile(TRANSCRIPT, re.IGNORECASE)


def carries_transcript(*texts: str) -> bool:
    return any(_transcript().search(line) for text in texts for line in text.split("\n"))


def listed(root: Path, directory: str) -> list[str]:
    """The record files of one directory, repository-relative, in byte order of name (a
    directory that is not there holds none)."""
    import os

    try:
        names = os.listdir(root / directory)
    except (FileNotFoundError, NotADirectoryError):
        return []
    return sorted(f"{directory}/{n}" for n in names if n.endswith(".md") and not n.startswith("."))


def render(front: Record, body: str) -> bytes:
    """A record's bytes: the front matter in schema order (the tool's YAML writer, which quotes
    whatever could read as anything else), then the body."""
    from mj_core.yaml import write as yamlwrite

    ordered = {k: front[k] for k in ORDER if k in front}
    return f"---\n{yamlwrite.dump(ordered)}---\n\n{body.strip(chr(10))}\n".encode()


def findings(root: Path) -> list[Record]:
    """Every problem of every record, as FAIL findings; a record id held in both directories is
    one too (a promotion that did not finish)."""
    from mj_core.findings import Finding

    out: list[Record] = []
    held: dict[str, str] = {}
    for directory in (CANDIDATES, CURATED):
        for path in listed(root, directory):
            note = read(root, path)
            for where, message in note.problems:
                said = Finding("FAIL", KIND, where, message, "majordomus knowledge check")
                out.append(said.record())
            if note.id in held:
                message = f"{note.id} is also {held[note.id]} — keep one of the two files"
                out.append(Finding("FAIL", KIND, path, message, "ls " + BASE + "/*/").record())
            held[note.id] = path
    return out


def misplaced(root: Path) -> list[Record]:
    """A FAIL finding for each candidate record claiming a status `candidates/` does not hold
    (`verified` above all: only promote writes it, into `curated/`): the one defect of the
    records `check` refuses too, as `_problems` words it; no records cost one listing."""
    from mj_core.findings import Finding

    out: list[Record] = []
    for path in listed(root, CANDIDATES):
        for where, message in read(root, path).problems:
            if message.startswith("status "):
                said = Finding("FAIL", KIND, where, message, "majordomus knowledge check")
                out.append(said.record())
    return out
