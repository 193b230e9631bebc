"""A candidate awaiting a person's judgement, and what that person says of it: read before
`knowledge promote` (`mj_state.promote`) or `knowledge reject` (`mj_knowledge.reject`)
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
    from typing import Any

IDENT = r"^[a-z0-9][a-z0-9._-]{0,127}$"  # a knowledge record's id


def found(root: Path, ident: str) -> dict[str, Any]:
    """What `checked` judges of the candidate `ident`, as read (a judge's fact): whether a
    curated record of that id is there, and the candidate's front matter, body and problems
    (None when there is no candidate). An id that names no record file reads nothing."""
    out: dict[str, Any] = {"id": ident, "curated": False, "path": None, "front": None,
                           "body": None, "problems": []}  # fmt: skip
    if not re.match(IDENT, ident):
        return out
    out["curated"] = (root / f"{notes.CURATED}/{ident}.md").exists()
    path = f"{notes.CANDIDATES}/{ident}.md"
    if (root / path).is_file():
        note = notes.read(root, path)
        out.update(path=path, front=note.data, body=note.body,
                   problems=[list(problem) for problem in note.problems])  # fmt: skip
    return out


def checked(given: dict[str, Any]) -> None:
    """`found`'s candidate judged: 2 for an id that is no record id, 15 for one promoted
    already, 12 for no such candidate, 10 for one that does not read, 15 for one judged."""
    ident = str(given["id"])
    if not re.match(IDENT, ident):
        raise UsageError(f"{ident!r}: not a knowledge record id")
    if given["curated"]:
        curated = f"{notes.CURATED}/{ident}.md"
        raise Refused(f"{curated}: {ident} is already promoted; nothing was overwritten")
    path = f"{notes.CANDIDATES}/{ident}.md"
    if given["path"] is None:
        raise MissingArtifact(f"{path}: no such candidate — `majordomus knowledge candidates`")
    if given["problems"]:
        where, message = given["problems"][0]
        raise ContractUnmet(f"{where}: {message}")
    status = (given["front"] or {}).get("status")
    if status != "candidate":
        shown = status if isinstance(status, str) else ""
        raise Refused(f"{path}: {ident} is {shown}, not awaiting review")


def said(text: str, what: str) -> str:
    """A person's statement (evidence, a reason) without its outer blank lines; 2 when empty,
    15 when it carries a conversation."""
    text = text.replace("\r\n", "\n").strip("\n")
    if not text.strip():
        raise UsageError(f"{what}: empty — give it (nothing was written)")
    if notes.carries_transcript(text):
        raise Refused(f"{what}: {notes.TRANSCRIPT_SAID}; nothing was written")
    return text
