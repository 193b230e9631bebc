"""`mj-knowledge derive-facts`: every record of its input but the `episode` facts passes on (the
stream of `mj-state episode`, or of `mj-state session-close-write`, which ends an episode with
the same fact); then what `mj-knowledge derive-judge` judges, as one `derive` fact: those
episodes as given, the scope paths of their deciding tasks that git tracks (or tracks below),
and the records already derived from them (a candidate, a rejected one, or one promoted to
curated/: the names under either folder that begin with an episode's id). Nothing is judged
here.
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


def run(options: argparse.Namespace, context: Context) -> Iterator[Record]:
    episodes: list[Record] = []
    for record in context.records(getattr(options, "input", None)):
        if record.get("kind") == "fact" and record.get("fact") == FACT:
            episodes.append(record)
        else:
            yield record
    yield gather(context.root(), episodes)


def gather(root: Path, episodes: list[Record]) -> Record:
    """The `derive` fact (the writer gathers it again for its verdict's episodes)."""
    return {"kind": "fact", "fact": "derive", "episodes": episodes,
            "tracked": sorted(tracked_scope(root, episodes)),
            "present": present(root, episodes)}  # fmt: skip


def present(root: Path, episodes: list[Record]) -> list[str]:
    """The record names (without `.md`) under candidates/ and curated/ that begin with an
    episode's id: every record derived from these episodes before."""
    prefixes = tuple(f"{e['session_id']}-" for e in episodes if e.get("decisions"))
    if not prefixes:
        return []
    found: set[str] = set()
    for folder in (notes.CANDIDATES, notes.CURATED):
        directory = root / folder
        if directory.is_dir():
            found.update(p.name[:-3] for p in directory.iterdir()
                         if p.name.endswith(".md") and p.name.startswith(prefixes))  # fmt: skip
    return sorted(found)


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


STAGES = {"derive-facts": Stage(run)}
