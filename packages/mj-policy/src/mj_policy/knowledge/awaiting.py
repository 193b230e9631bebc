"""A candidate awaiting a person's judgement, and what that person says of it: read before
`knowledge promote` (`mj_state.records.promote`) or `knowledge reject` (`mj_knowledge.review`)
writes anything. No such candidate is 12, one already rejected or promoted is 15, a record
that does not read is 10 (naming file, line and key), a statement that carries a conversation
is 15 and an empty one is 2.
"""

from __future__ import annotations

import re

from mj_core.errors import ContractUnmet
from mj_core.errors import MissingArtifact
from mj_core.errors import Refused
from mj_core.errors import UsageError

from mj_policy.knowledge import notes

TYPE_CHECKING = False  # `typing` is not imported at run time on a start-up path
if TYPE_CHECKING:
    from pathlib import Path


def candidate(root: Path, ident: str) -> notes.Note:
    """The candidate `ident`, readable and awaiting review; else 2, 10, 12 or 15."""
    if not re.match(r"^[a-z0-9][a-z0-9._-]{0,127}$", ident):
        raise UsageError(f"{ident!r}: not a knowledge record id")
    curated = f"{notes.CURATED}/{ident}.md"
    if (root / curated).exists():
        raise Refused(f"{curated}: {ident} is already promoted; nothing was overwritten")
    path = f"{notes.CANDIDATES}/{ident}.md"
    if not (root / path).is_file():
        raise MissingArtifact(f"{path}: no such candidate — `majordomus knowledge candidates`")
    note = notes.read(root, path)
    if note.problems:
        where, message = note.problems[0]
        raise ContractUnmet(f"{where}: {message}")
    if note.text("status") != "candidate":
        raise Refused(f"{path}: {ident} is {note.text('status')}, not awaiting review")
    return note


def said(text: str, what: str) -> str:
    """A person's statement (evidence, a reason) without its outer blank lines; 2 when empty,
    15 when it carries a conversation."""
    text = text.replace("\r\n", "\n").strip("\n")
    if not text.strip():
        raise UsageError(f"{what}: empty — give it (nothing was written)")
    if notes.carries_transcript(text):
        raise Refused(f"{what}: {notes.TRANSCRIPT_SAID}; nothing was written")
    return text
