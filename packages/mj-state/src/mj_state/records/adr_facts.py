"""`mj-state adr-propose-facts "<title>" [--from <type>:<value>]… [--tag <t>]… [--supersedes <id>]`:
what `mj-watch adr-propose` judges (`mj_state.records.adr_judge`), as one `adr-propose` fact.

The request as given; each `--from` as it would be written (a path relative to the root, a
commit by its full id) with what stopped reading it, or why it names nothing
(`mj_state.records.references`); the record `--supersedes` names: its path, front matter and
text. Nothing is judged here. The next number is not gathered: no refusal depends on it, and
`mj-state adr-propose-write` takes it under the ADR directories' lock.
"""

from __future__ import annotations

from mj_core.errors import MjError
from mj_core.stream.stage import Stage
from mj_policy.layer.loader import load

TYPE_CHECKING = False  # `typing` is not imported at run time on a start-up path
if TYPE_CHECKING:
    import argparse
    from collections.abc import Iterator
    from pathlib import Path
    from typing import Any

    from mj_core.stream.stage import Context
    from mj_policy.layer.loader import Layer

    Record = dict[str, Any]

TYPES = ("decision", "session", "commit", "issue", "file", "test")


def gather(
    lay: Layer,
    *,
    title: str,
    sources: list[str],
    tags: list[str],
    supersedes: str | None,
    status: str | None = None,
) -> Record:
    return {
        "kind": "fact",
        "fact": "adr-propose",
        "title": title,
        "status": status or None,
        "tags": list(tags),
        "sources": _sources(lay, sources),
        "old": _old(lay, supersedes) if supersedes else None,
    }


def _sources(lay: Layer, given: list[str]) -> list[Record]:
    from mj_state.records.references import World

    out: list[Record] = []
    for item in given:
        entry: Record = {"given": item, "ref": None, "error": None, "dangling": None}
        try:
            entry["ref"] = _written(lay, item)
        except MjError as exc:
            entry["error"] = {"code": int(exc.code), "message": exc.message}
        out.append(entry)
    world = World(lay)
    world.prepare([str(e["ref"]) for e in out if e["ref"] is not None])
    for entry in out:
        if entry["ref"] is not None:
            entry["dangling"] = world.why_not(str(entry["ref"]))
    return out


def _written(lay: Layer, item: str) -> str:
    """`item` as the record will carry it (a `UsageError` when it is not `<type>:<value>`)."""
    from mj_core import paths
    from mj_core.errors import UsageError

    kind, _, value = item.partition(":")
    if kind not in TYPES or not value:
        raise UsageError(f"--from {item}: not <type>:<value>, type one of {', '.join(TYPES)}")
    if kind in ("file", "test"):
        value = paths.relative_from_root(lay.root, value, what=f"--from {kind}:")
    elif kind == "commit":
        value = _commit(lay.root, value)
    return f"{kind}:{value}"


def _commit(root: Path, value: str) -> str:
    """The full id of the commit `value` names (a ref moves; the record keeps the commit)."""
    from mj_core.git import questions as git

    found = git.out("rev-parse", "--verify", "--quiet", "--end-of-options", f"{value}^{{commit}}",
                    cwd=root)  # fmt: skip
    return found.strip() if found else value


def _old(lay: Layer, ident: str) -> Record:
    """The record `ident` names: whether there is one, whether its front matter parses, and
    its path, data and text (what its `superseded_by` is added to)."""
    from mj_policy.adr import model as adrmodel

    model = adrmodel.load(lay)
    old = model.by_id().get(ident)
    found: Record = {"id": ident, "directory": model.directory, "found": old is not None}
    if old is None:
        return found
    parses = old.doc is not None and isinstance(old.doc.data, dict)
    found |= {"path": old.path, "parses": parses}
    if parses:
        text = (lay.root / old.path).read_text(encoding="utf-8")
        found |= {"data": old.data, "text": text}
    return found


def _run(options: argparse.Namespace, context: Context) -> Iterator[Record]:
    yield gather(
        load(context.root()),
        title=str(options.title or ""),
        sources=list(options.source or []),
        tags=list(options.tag or []),
        supersedes=options.supersedes or None,
        status=getattr(options, "status", None),
    )


STAGES = {"adr-propose-facts": Stage(_run)}
