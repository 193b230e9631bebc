"""`mj-knowledge derive-judge [--dry-run]`: one candidate record per decision recorded in the
episodes of the `derive` fact (`mj-knowledge derive-facts`); every other record of its input
passes on.

A judge: it reads its input and never the repository. A candidate states only what the ledger
shows — the decision's words, the task and episode it was recorded in, the commit it was
recorded at — as `status: candidate`, never more. Its id is the episode's id and a digest of
that evidence, so the same fact always lands in the same file: a record already derived (the
fact's `present`) is kept, never written again. Relations name the task's scope paths that git
tracks (a relation to nothing would be a defect of the graph). A credential in the decision's
words is stored as `[REDACTED]` (and its id is a digest of the redacted words). A decision
whose words carry a conversation is refused (a REFUSE finding), not written for `knowledge
check` to refuse. `--dry-run` names what would be written (`planned`); otherwise the new
candidates are one verdict for `mj-knowledge derive-write`, with the episodes they come from.
"""

from __future__ import annotations

from mj_core.stream.stage import Stage
from mj_policy.knowledge import notes

TYPE_CHECKING = False  # `typing` is not imported at run time on a start-up path
if TYPE_CHECKING:
    import argparse
    from collections.abc import Iterator
    from typing import Any

    from mj_core.stream.stage import Context

    Record = dict[str, Any]

DIGEST = 12  # hex digits of the evidence's SHA-256 after the episode id


def candidate(episode: Record, decision: Record, tracked: set[str]) -> tuple[str, Record, str]:
    """(id, front matter, body) of the candidate one decision of the episode gives."""
    import hashlib

    from mj_core.credentials import detect as credentials

    session, task_id = str(episode["session_id"]), str(decision["task_id"])
    task = (episode.get("tasks") or {}).get(task_id) or {}
    title = credentials.redact(" ".join(str(decision["decision"]).split()))[0]
    evidence = [f"session:{session}", f"decision:{task_id}"]
    if decision.get("head"):
        evidence.append(f"commit:{decision['head']}")
    if task.get("issue"):
        evidence.append(f"issue:{task['issue']}")
    digest = hashlib.sha256("\n".join([*evidence, title]).encode()).hexdigest()[:DIGEST]
    ident = f"{session}-{digest}"
    said = f"Recorded as a decision under task {task_id} in episode {session}."
    front: Record = {"schema": "knowledge/v1", "id": ident, "kind": notes.KIND,
                     "class": "convention", "title": title, "description": said,
                     "status": "candidate", "epistemics": "decided",
                     "date": str(decision["ts"])[:10], "tags": ["derived", "decision"],
                     "provenance": {"origin": "extracted", "derived_from": evidence}}  # fmt: skip
    scope = [str(p) for p in task.get("scope") or [] if str(p) in tracked]
    if scope:
        front["relations"] = [{"type": "references", "target": f"file:{p}"} for p in scope]
    return ident, front, f"# {title}\n\n{said}\n"


def judge(fact: Record, *, dry_run: bool) -> Iterator[Record]:
    """Each decision's record: refused, kept, planned, or one of the verdict's candidates."""
    from mj_core.findings import Finding

    tracked, present = set(fact["tracked"]), set(fact["present"])
    new: list[Record] = []
    for episode in fact["episodes"]:
        for decision in episode.get("decisions") or []:
            ident, front, body = candidate(episode, decision, tracked)
            path = f"{notes.CANDIDATES}/{ident}.md"
            shown = {"id": ident, "path": path, "title": front["title"],
                     "episode": episode["session_id"]}  # fmt: skip
            if notes.carries_transcript(front["title"], body):
                said = f"decision {front['title'][:60]!r}: {notes.TRANSCRIPT_SAID}; not derived"
                yield Finding("REFUSE", notes.KIND, path, said).record()
            elif ident in present or any(n["id"] == ident for n in new):
                yield {"kind": "candidate", "action": "kept", **shown}
            elif dry_run:
                yield {"kind": "candidate", "action": "planned", **shown}
            else:
                new.append({**shown, "front": front, "body": body})
    if new:
        yield {"kind": "verdict", "action": "derive", "episodes": fact["episodes"],
               "candidates": new}  # fmt: skip


def _run(options: argparse.Namespace, context: Context) -> Iterator[Record]:
    given = getattr(options, "input", None)
    others, fact = context.beside_fact(given, "derive", "mj-knowledge derive-facts")
    yield from others
    yield from judge(fact, dry_run=bool(options.dry_run))


STAGES = {"derive-judge": Stage(_run)}
