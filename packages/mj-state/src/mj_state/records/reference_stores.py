"""The stores `mj_state.records.references` resolves a reference in, one reader per kind: each gives
every value a reference of that kind may name, read from the files that hold it (never from
the reference itself)."""

from __future__ import annotations

import os

TYPE_CHECKING = False  # `typing` is not imported at run time on a start-up path
if TYPE_CHECKING:
    from collections.abc import Callable
    from collections.abc import Iterator
    from pathlib import Path
    from typing import Any

    from mj_policy.layer.loader import Layer


def _names(directory: Path, suffix: str) -> set[str]:
    try:
        names = os.listdir(directory)
    except (FileNotFoundError, NotADirectoryError):
        return set()
    return {n[: -len(suffix)] for n in names if n.endswith(suffix) and not n.startswith(".")}


def ledger_values(lay: Layer) -> Iterator[dict[str, Any]]:
    """Every object of the ledger and of its rotated archives, oldest archive first."""
    from mj_state.ledger import store as ledger

    archived = sorted(f"{n}.jsonl.archived" for n in _names(lay.state, ".jsonl.archived")
                      if n.startswith("ledger."))  # fmt: skip
    for path in [*(lay.state / n for n in archived), ledger.path(lay.state)]:
        for line in ledger.read(path):
            if line.record is not None:
                yield line.record


def decisions(lay: Layer) -> set[str]:
    """Each decision's title, and each task a decision was recorded under."""
    from mj_state.records import decisions as log

    held: set[str] = set()
    for entry in log.read(lay.state):
        held.add(entry.title)
        if entry.fields.get("Task", "-") != "-":
            held.add(entry.fields["Task"])
    for value in ledger_values(lay):
        if value.get("event") == "decision.recorded":
            held.update(str(value[k]) for k in ("decision", "task_id") if value.get(k))
    return held


def tasks(lay: Layer) -> set[str]:
    held = {str(v["task_id"]) for v in ledger_values(lay)
            if v.get("event") == "task.started" and v.get("task_id")}  # fmt: skip
    return held | _names(lay.state / "archive", ".yaml")


def sessions(lay: Layer) -> set[str]:
    """Every episode a closed record (the archive's too), an open file or a ledger line names."""
    from mj_core import ids
    from mj_core.errors import MjError
    from mj_core.yaml import strict as yamlstrict

    from mj_state.session import store

    held: set[str] = set()
    closed = store.closed_dir(lay.root)
    for directory in (closed, closed / "archive"):
        for name in _names(directory, ".md"):
            found = ids.session_record(f"{name}.md")
            held.update([found[0]] if found else [])
    for key in store.open_keys(lay.state):
        try:
            data = yamlstrict.load_file(store.open_path(lay.state, key), key).data
        except MjError:
            continue
        held.update([str(data["session_id"])] if isinstance(data, dict) and "session_id" in data
                    else [])  # fmt: skip
    held.update(str(v["session"]) for v in ledger_values(lay) if v.get("session"))
    return held


def _section(name: str, below: str, suffix: str) -> Callable[[Layer], set[str]]:
    def look(lay: Layer) -> set[str]:
        return _names(lay.section(name) / below, suffix)

    return look


def adrs(lay: Layer) -> set[str]:
    from mj_policy.adr import model as adrmodel

    numbers = (adrmodel.number_of(n) for n in adrmodel.files(lay.section("adrs")))
    return {f"adr-{n:04d}" for n in numbers if n is not None}


def knowledge(lay: Layer) -> set[str]:
    base = lay.root / ".ai" / "repo" / "knowledge"
    return _names(base / "candidates", ".md") | _names(base / "curated", ".md")


def rules(lay: Layer) -> set[str]:
    from mj_core.errors import MjError
    from mj_policy.rules import effective as rule_set

    held: set[str] = set()
    try:
        found = rule_set.effective(lay)
    except MjError:  # a rule set that does not load names no rule (its defect is doctor's)
        return held
    for rule in found:
        held.update((rule.id, f"{rule.id}@{rule.version}"))
    return held


def skills(lay: Layer) -> set[str]:
    directory = lay.section("skills")
    try:
        names = os.listdir(directory)
    except (FileNotFoundError, NotADirectoryError):
        return set()
    return {n for n in names if (directory / n / "SKILL.md").is_file()}


STORES: dict[str, tuple[Callable[[Layer], set[str]], str]] = {
    "decision": (decisions, "state/decisions.md or the ledger"),
    "task": (tasks, "the ledger or state/archive/"),
    "session": (sessions, "the session records, the open episodes or the ledger"),
    "issue": (_section("project", "issues", ".yaml"), "the plan's issues"),
    "milestone": (_section("project", "milestones", ".yaml"), "the plan's milestones"),
    "adr": (adrs, "the decision records"),
    "knowledge": (knowledge, "the knowledge records"),
    "rule": (rules, "the effective rule set"),
    "skill": (skills, "the skills"),
}
