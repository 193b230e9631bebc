"""The facts that read another concept's files: context chains, the ledger's tail, a prompt,
the task's reasoning records."""

from __future__ import annotations

import itertools
from pathlib import Path

from mj_core import limits
from mj_core.errors import MjError
from mj_policy.context import chain as contextchain
from mj_policy.context import tree as contexttree
from mj_policy.layer.loader import Layer

from mj_state.ledger import store as ledger

TYPE_CHECKING = False  # `typing` is not imported at run time on a start-up path
if TYPE_CHECKING:
    from typing import Any

ENVELOPE = ("ts", "event", "head", "branch", "by", "session", "session_id", "task_id", "prev")


def documents(lay: Layer, claims: list[str]) -> list[dict[str, Any]]:
    """For each scope path: the ids of its effective chain, root first, or why there is none."""
    names, providers = contexttree.settings(lay)
    tree = contexttree.load(lay.root, names, providers)
    out: list[dict[str, Any]] = []
    for claim in claims:
        try:
            rel, is_dir = contextchain.target(lay.root, claim, lay.root)
            chain = contextchain.resolve(tree, rel, is_dir)
        except MjError as exc:
            out.append({"path": claim, "ids": [], "problem": exc.message})
            continue
        out.append({"path": claim, "ids": [e["id"] for e in chain], "problem": None})
    return out


def history(path: Path, limit: int) -> dict[str, Any]:
    """The last `limit` ledger events (only those lines are cut and parsed) and how many lines
    there are; a malformed line among them is skipped (`history --validate` names it)."""
    rows = ledger.newest_first(path)
    newest = next(rows, None)
    if newest is None:
        return {"events": [], "total": 0}
    events = []
    for number, text, complete in itertools.islice(itertools.chain((newest,), rows), max(limit, 0)):
        if len(text) > limits.LEDGER[1]:
            continue
        parsed = ledger.parse(number, text, complete=complete)
        if parsed.record is not None and parsed.error is None:
            events.append(_event(parsed.record))
    events.reverse()
    return {"events": events, "total": newest[0]}


def _event(record: dict[str, Any]) -> dict[str, Any]:
    detail = " ".join(
        f"{key}={value}" for key, value in record.items() if key not in ENVELOPE and value
    )
    return {"ts": record["ts"], "event": record["event"], "detail": detail[:100]}


def prompt(lay: Layer, name: str) -> dict[str, Any]:
    """The asset, checked in full (unknown → 12, a bad token → 10 naming the line)."""
    from mj_policy.prompts import (
        assets as prompts,  # only a briefing that asks for a prompt reads one
    )

    directory = lay.section("prompts")
    asset = prompts.load(directory, name, lay.relative(directory))
    shown = {k: v for k, v in asset.record().items() if k != "kind"}
    return {**shown, "body": asset.body, "body_line": asset.body_line}


REASONING = "reasoning"  # state/reasoning/<task id>/*.md: the task's reasoning records


def reasoning(lay: Layer, task_id: str, limit: int) -> dict[str, Any] | None:
    """The task's reasoning records, newest first by name (the titles of the newest `limit`
    read) and how many there are; None when the task has no directory of them: one look at
    the directory is all a briefing without any pays."""
    import os

    if not task_id or "/" in task_id or task_id.startswith("."):
        return None
    directory = lay.state / REASONING / task_id
    try:
        with os.scandir(directory) as entries:
            names = [e.name for e in entries if _record_name(e.name) and e.is_file()]
    except (FileNotFoundError, NotADirectoryError):
        return None
    names.sort(reverse=True)
    shown = lay.relative(directory)
    records = [{"name": n, "title": _title(directory / n, f"{shown}/{n}")} for n in names[:limit]]
    return {"task_id": task_id, "directory": shown, "total": len(names), "records": records}


def _record_name(name: str) -> bool:
    return name.endswith(".md") and not name.startswith(".")


def _title(path: Path, shown: str) -> str:
    """The record's first heading (else its first line), one line of at most 120 characters;
    a record that cannot be read says so."""
    from mj_core import files

    try:
        text = files.read_lenient(path, shown, limits.RECORD) or ""
    except MjError as exc:
        return f"(unreadable: {exc.message})"
    lines = [line.strip() for line in text.split("\n") if line.strip()]
    first = next((line for line in lines if line.startswith("# ")), lines[0] if lines else "")
    title = first.lstrip("#").strip() or "(empty)"
    return title if len(title) <= 120 else title[:119] + "…"
