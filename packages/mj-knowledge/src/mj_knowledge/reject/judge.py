"""`mj-knowledge reject-judge`: whether a candidate may be rejected, over `mj-knowledge
reject-facts`.

A judge: it reads the one `knowledge-reject` fact on stdin (or a file) and never the
repository. Only a candidate awaiting review is judged (`mj_policy.knowledge.awaiting.checked`:
no such candidate is 12, one already rejected or promoted is 15, a record that does not read is
10); a reason that carries a conversation is 15, an empty one or one of several lines is 2, a
`--by` of more than one word is 2. A rejection that may be written becomes one `verdict`: the
record's whole new text (`status: rejected` and a `# Rejected` section with the reason and who
gave it) for `mj-knowledge reject-write`.
"""

from __future__ import annotations

import re

from mj_core.errors import UsageError
from mj_core.stream.stage import Stage
from mj_policy.knowledge import awaiting
from mj_policy.knowledge import notes

TYPE_CHECKING = False  # `typing` is not imported at run time on a start-up path
if TYPE_CHECKING:
    import argparse
    from collections.abc import Iterator
    from typing import Any

    from mj_core.stream.stage import Context

    Record = dict[str, Any]


def run(options: argparse.Namespace, context: Context) -> Iterator[Record]:
    yield judge(context.the_fact(options.input, "knowledge-reject", "mj-knowledge reject-facts"))


def judge(fact: Record) -> Record:
    """The verdict of a rejection; a refusal raised with its exit code."""
    found = fact["candidate"]
    awaiting.checked(found)
    reason = awaiting.said(str(fact.get("reason") or ""), "--reason")
    if "\n" in reason:
        raise UsageError("--reason: one line")
    by = str(fact.get("by") or "").strip()
    if by and not re.match(r"^[A-Za-z0-9][A-Za-z0-9._@-]{0,127}$", by):
        raise UsageError(f"--by {by!r}: one word (a person's or an episode's id)")
    front = dict(found["front"], status="rejected")
    body = f"{str(found['body']).strip(chr(10))}\n\n# Rejected\n\n{reason}\n\nBy: {by or '-'}\n"
    title = found["front"].get("title")
    return {
        "kind": "verdict",
        "action": "knowledge-reject",
        "id": found["id"],
        "path": found["path"],
        "title": title if isinstance(title, str) else "",
        "reason": reason,
        "by": by or None,
        "content": notes.render(front, body).decode(),
    }


STAGES = {"reject-judge": Stage(run)}
