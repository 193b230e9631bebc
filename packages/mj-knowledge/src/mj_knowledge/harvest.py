"""`mj-knowledge derive [--dry-run]`: an episode's facts in, one candidate record per decision
recorded in it out (`.ai/repo/knowledge/candidates/<id>.md`), each with the ledger line it owes
(`knowledge.derived`, appended by the `mj-state log` stage after it).

The input is the stream of `mj-state episode` (or of `mj-state session-close`, which ends an
episode with the same fact): every record but the `episode` fact passes on. A candidate states
only what the ledger shows — the decision's words, the task and episode it was recorded in, the
commit it was recorded at — as `status: candidate`, never more. Its id is the episode's id and a
digest of that evidence, so the same fact always lands in the same file: a record already
derived (a candidate, a rejected one, or promoted to curated/) is kept, never written again.
Relations name the task's scope paths that git tracks (a relation to nothing would be a defect
of the graph). A credential in the decision's words is stored as `[REDACTED]` (and its id is a
digest of the redacted words). A decision whose words carry a conversation is refused (a REFUSE
finding), not written for `knowledge check` to refuse. `--dry-run` names what would be written
and writes nothing.
"""

from __future__ import annotations

from mj_core.stream.stage import Stage
from mj_policy.knowledge import notes

TYPE_CHECKING = False  # `typing` is not imported at run time on a start-up path
if TYPE_CHECKING:
    import argparse
    from collections.abc import Iterator
    from pathlib import Path
    from typing import Any

    from mj_core.stream.stage import Context

    Record = dict[str, Any]

FACT = "episode"
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


def tracked_scope(root: Path, episodes: list[Record]) -> set[str]:
    """The scope paths of the episodes' deciding tasks that git tracks (or tracks below), asked
    in one `git ls-files`; none asked when no decision was recorded."""
    from mj_core.git import questions as git

    claims: set[str] = set()
    for episode in episodes:
        tasks = episode.get("tasks") or {}
        for decision in episode.get("decisions") or []:
            task = tasks.get(str(decision.get("task_id"))) or {}
            claims.update(str(p) for p in task.get("scope") or [] if str(p) not in ("", "."))
    if not claims:
        return set()
    specs = [f":(literal){p}" for p in sorted(claims)]
    code, out, _ = git.run("ls-files", "-z", "--", *specs, cwd=root)
    listed = git.zsplit(out) if code == 0 else []
    return {c for c in claims if any(p == c or p.startswith(c.rstrip("/") + "/") for p in listed)}


def derive(root: Path, episodes: list[Record], *, dry_run: bool) -> Iterator[Record]:
    from mj_core.findings import Finding
    from mj_core.write import atomic

    tracked = tracked_scope(root, episodes)
    for episode in episodes:
        for decision in episode.get("decisions") or []:
            ident, front, body = candidate(episode, decision, tracked)
            path = f"{notes.CANDIDATES}/{ident}.md"
            shown = {"id": ident, "path": path, "title": front["title"],
                     "episode": episode["session_id"]}  # fmt: skip
            if notes.carries_transcript(front["title"], body):
                said = f"decision {front['title'][:60]!r}: {notes.TRANSCRIPT_SAID}; not derived"
                yield Finding("REFUSE", notes.KIND, path, said).record()
                continue
            if any((root / d / f"{ident}.md").exists() for d in (notes.CANDIDATES, notes.CURATED)):
                yield {"kind": "candidate", "action": "kept", **shown}
                continue
            if dry_run:
                yield {"kind": "candidate", "action": "planned", **shown}
                continue
            atomic.make_dirs(root / notes.CANDIDATES, root=root)
            atomic.create(root / path, notes.render(front, body), mode=0o644, root=root)
            yield {"kind": "candidate", "action": "derived", **shown}
            yield {"kind": "append", "event": "knowledge.derived", "knowledge": ident,
                   "path": path, "episode": episode["session_id"]}  # fmt: skip


def _run(options: argparse.Namespace, context: Context) -> Iterator[Record]:
    episodes: list[Record] = []
    for record in context.records(getattr(options, "input", None)):
        if record.get("kind") == "fact" and record.get("fact") == FACT:
            episodes.append(record)
        else:
            yield record
    if episodes:
        yield from derive(context.root(), episodes, dry_run=bool(options.dry_run))


STAGES = {"derive": Stage(_run)}
