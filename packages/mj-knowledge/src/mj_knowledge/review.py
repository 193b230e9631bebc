"""`promote <id> [--class <c>]` (the evidence on stdin; its stage is `mj-state
knowledge-promote`, which refuses while a task is active) and `mj-knowledge reject <id> --reason
<why> [--by <id>]`: a person's judgement of a candidate, each one write and the ledger line it
owes (`knowledge.promoted`, `knowledge.rejected`, appended by `mj-state log`).

Promote writes `curated/<id>.md` — the candidate's front matter with `status: verified` (and
`--class` when given), its body and a `# Evidence` section with what stdin said — refusing to
overwrite a curated record, then removes the candidate. Reject rewrites the candidate in place
(atomically) as `status: rejected` with a `# Rejected` section giving the reason and who gave
it. Only a candidate awaiting review is judged: no such candidate is 12, one already rejected
or promoted is 15, a record that does not read is 10 (naming file, line and key), evidence or
a reason that carries a conversation is 15, and an empty one is 2. Nothing is written then.
"""

from __future__ import annotations

import re

from mj_core.errors import ContractUnmet
from mj_core.errors import MissingArtifact
from mj_core.errors import Refused
from mj_core.errors import UsageError
from mj_core.stream.stage import Stage

from mj_knowledge import notes

TYPE_CHECKING = False  # `typing` is not imported at run time on a start-up path
if TYPE_CHECKING:
    import argparse
    from collections.abc import Iterator
    from pathlib import Path
    from typing import Any

    from mj_core.stream.stage import Context

    Record = dict[str, Any]

CLASS = re.compile(r"^[a-z][a-z0-9-]{0,63}$")
STDIN = "<stdin>"


def awaiting(root: Path, ident: str) -> notes.Note:
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


def _said(text: str, what: str) -> str:
    text = text.replace("\r\n", "\n").strip("\n")
    if not text.strip():
        raise UsageError(f"{what}: empty — give it (nothing was written)")
    if notes.carries_transcript(text):
        raise Refused(f"{what}: {notes.TRANSCRIPT_SAID}; nothing was written")
    return text


def promote(root: Path, options: argparse.Namespace, evidence: str) -> Iterator[Record]:
    from mj_core.write import atomic

    note = awaiting(root, options.id)
    said = _said(evidence, f"{STDIN} (the evidence)")
    front = dict(note.data, status="verified")
    if options.knowledge_class is not None:
        if not CLASS.match(options.knowledge_class):
            raise UsageError(f"--class {options.knowledge_class!r}: lower-case letters, digits, -")
        front["class"] = options.knowledge_class
    body = f"{note.body.strip(chr(10))}\n\n# Evidence\n\n{said}\n"
    target = f"{notes.CURATED}/{options.id}.md"
    atomic.make_dirs(root / notes.CURATED, root=root)
    atomic.create(root / target, notes.render(front, body), mode=0o644, root=root)
    (root / note.path).unlink()
    yield {"kind": "candidate", "action": "promoted", "id": options.id, "path": target,
           "title": note.text("title"), "class": front["class"]}  # fmt: skip
    yield {"kind": "append", "event": "knowledge.promoted", "knowledge": options.id,
           "path": target, "class": front["class"]}  # fmt: skip


def reject(root: Path, options: argparse.Namespace) -> Iterator[Record]:
    from mj_core.write import atomic

    note = awaiting(root, options.id)
    reason = _said(options.reason or "", "--reason")
    if "\n" in reason:
        raise UsageError("--reason: one line")
    by = (options.by or "").strip()
    if by and not re.match(r"^[A-Za-z0-9][A-Za-z0-9._@-]{0,127}$", by):
        raise UsageError(f"--by {by!r}: one word (a person's or an episode's id)")
    front = dict(note.data, status="rejected")
    body = f"{note.body.strip(chr(10))}\n\n# Rejected\n\n{reason}\n\nBy: {by or '-'}\n"
    atomic.create(root / note.path, notes.render(front, body), mode=0o644, replace=True,
                  root=root)  # fmt: skip
    yield {"kind": "candidate", "action": "rejected", "id": options.id, "path": note.path,
           "title": note.text("title"), "reason": reason}  # fmt: skip
    line: Record = {"kind": "append", "event": "knowledge.rejected", "knowledge": options.id,
                    "reason": reason}  # fmt: skip
    if by:
        line["rejected_by"] = by
    yield line


def evidence(context: Context) -> str:
    import sys

    from mj_core import files
    from mj_core import limits
    from mj_core.yaml import strict as yamlstrict

    stream = context.stdin if context.stdin is not None else sys.stdin.buffer
    if stream.isatty():
        raise UsageError("promote: give the evidence on stdin (what shows the claim holds)")
    return yamlstrict.decode(files.read_stream(stream, STDIN, limits.RECORD), STDIN)


def _reject(options: argparse.Namespace, context: Context) -> Iterator[Record]:
    yield from reject(context.root(), options)


STAGES = {"reject": Stage(_reject)}  # promote's stage is `mj-state knowledge-promote`
