"""`mj-knowledge candidates`: every record under `.ai/repo/knowledge/candidates/`, on every
branch, with its status and the branch its episode was on; and the briefing's share of it.

A candidate's episode is the `session:` its provenance names; its branch is the one the
episode's closed record names (`.ai/repo/sessions/<stamp>--<id>--<branch-key>--…`, read from
the names alone). A candidate whose episode has no closed record (derived by hand from an open
episode, or from one whose record is gone) is unassigned. The directory is listed, not git's
index: a candidate is a record this checkout wrote, waiting before anyone tracks it. Read-only;
a record that does not read is listed `invalid` with a FAIL naming file and line (10).
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

SESSIONS = ".ai/repo/sessions"
MORE = notes.MORE


def episodes(root: Path) -> dict[str, str]:
    """session id → the branch key of its closed record (the newest, when there are two)."""
    import os

    from mj_core import ids

    try:
        names = sorted(os.listdir(root / SESSIONS))
    except (FileNotFoundError, NotADirectoryError):
        return {}
    out: dict[str, str] = {}
    for name in names:
        found = ids.session_record(name) if name.endswith(".md") else None
        if found is not None:
            out[found[0]] = found[1]
    return out


def episode_of(note: notes.Note) -> str | None:
    derived = (note.data.get("provenance") or {}).get("derived_from") or []
    return next((str(d)[8:] for d in derived if str(d).startswith("session:")), None)


def survey(root: Path) -> list[Record]:
    """One `candidate` record (action `listed`) for each file, in byte order of id."""
    known = episodes(root)
    out = []
    for path in notes.listed(root, notes.CANDIDATES):
        note = notes.read(root, path)
        episode = episode_of(note)
        status = note.text("status") if not note.problems else "invalid"
        out.append({"kind": "candidate", "action": "listed", "id": note.id, "path": path,
                    "status": status or "invalid", "title": note.text("title"),
                    "class": note.text("class"), "episode": episode,
                    "branch": known.get(episode or "")})  # fmt: skip
        if note.problems:
            where, message = note.problems[0]
            from mj_core.findings import Finding

            said = f"{message} — listed as invalid"
            out.append(Finding("FAIL", notes.KIND, where, said, "majordomus knowledge check")
                       .record())  # fmt: skip
    return out


def briefing(root: Path, branch: str | None) -> Record:
    """The `knowledge-candidates` fact: the ids awaiting review whose episode was on `branch`,
    those no episode record assigns, and how many await review on every branch."""
    from mj_core import ids

    here = ids.branch_key(branch)
    waiting = [r for r in survey(root) if r.get("status") == "candidate"]
    return {"kind": "fact", "fact": "knowledge-candidates", "branch": branch,
            "here": [r["id"] for r in waiting if r["branch"] == here],
            "unassigned": [r["id"] for r in waiting if r["branch"] is None],
            "total": len(waiting), "more": MORE}  # fmt: skip


def _run(options: argparse.Namespace, context: Context) -> Iterator[Record]:
    from mj_core.errors import MissingArtifact

    root = context.root()
    if not (root / notes.BASE).is_dir():
        raise MissingArtifact(f"{notes.BASE}/: no knowledge layer — run `majordomus init`")
    yield from survey(root)


STAGES = {"candidates": Stage(_run)}
