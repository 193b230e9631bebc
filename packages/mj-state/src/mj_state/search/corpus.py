"""What `search` reads, kind by kind, in authority order (CLI-REFERENCE §2.20).

Each kind names its files without walking the tree: the record directories listed by name
(newest first by the stamp in the name, as every reader of records orders them), the two
indexes and the ledger by their fixed paths, the layer's files (prompt assets, the policy, the
vendored and the project's rules, …) by the manifest's sections,
and the workspace and deployment declarations by their fixed directories. The knowledge nodes,
last, come from the knowledge graph's listing (`mj_state.search.knowledge`), not from here. A
kind that attributes its text to a task says which task each line belongs to, so `--task` can
narrow the scan; a kind that does not (a prompt asset, a plan file, an ADR, a skill, a
declaration, a knowledge node) has nothing to show under `--task`.
"""

from __future__ import annotations

import os

from mj_core import limits

from mj_state.ledger import store as ledger
from mj_state.records import decisions
from mj_state.records import questions
from mj_state.records import store as records
from mj_state.session import store as sessions

TYPE_CHECKING = False  # `typing` is not imported at run time on a start-up path
if TYPE_CHECKING:
    from collections.abc import Iterator
    from pathlib import Path

    from mj_policy.layer.loader import Layer

# the corpus, in authority order: what a worker wrote for the next one outranks the log
KINDS = (
    "handover",
    "checkpoint",
    "decision",
    "question",
    "prompt",
    "policy",
    "rule",
    "ledger",
    "session",
    "plan",
    "adr",
    "skill",
    "workspace",
    "deployment",
    "knowledge",
)
# how each kind's task is found: in its front matter, line by line, or not at all
FRONT = frozenset({"handover", "checkpoint", "session"})
BY_LINE = frozenset({"decision", "question", "ledger"})
# the indexes keep their format's description in an HTML comment, which is not a record
COMMENTED = frozenset({"decision", "question"})
_LIMITS = {
    "handover": limits.RECORD,
    "checkpoint": limits.RECORD,
    "session": limits.RECORD,
    "decision": limits.LOG,
    "question": limits.LOG,
    "ledger": limits.LEDGER,
    "prompt": limits.LAYER,
    "policy": limits.LAYER,
    "rule": limits.LAYER,
    "plan": limits.LAYER,
    "adr": limits.DOCUMENT,
    "skill": limits.DOCUMENT,
    "workspace": limits.LAYER,
    "deployment": limits.LAYER,
    "knowledge": limits.DOCUMENT,
}


def limit(kind: str) -> tuple[int, int]:
    return _LIMITS[kind]


def files(layer: Layer, kind: str) -> Iterator[str]:
    """The files of one kind (absolute paths, as text: a scan of hundreds of records is not
    worth a path object each), in the order their matches are shown."""
    state = layer.state
    if kind in records.KINDS:
        directory = str(records.directory(state, kind))
        yield from (os.path.join(directory, name) for name in records.names(state, kind))
    elif kind == "decision":
        yield str(decisions.path(state))
    elif kind == "question":
        yield str(questions.path(state))
    elif kind == "ledger":
        yield str(ledger.path(state))
    elif kind == "session":
        directory = str(sessions.closed_dir(layer.root))
        yield from (os.path.join(directory, n) for n in sessions.closed_names(layer.root))
    else:
        yield from (str(path) for path in _layer_files(layer, kind))


def _layer_files(layer: Layer, kind: str) -> Iterator[Path]:  # a few files: paths are cheap
    if kind == "prompt":
        yield from _named(layer.section("prompts"), ".md")
    elif kind == "policy":
        yield from (path for path in (layer.section("policy"),) if path.is_file())
    elif kind == "rule":
        yield from rule_files(layer.section("rules"))
    elif kind == "adr":
        yield from _named(layer.section("adrs"), ".md")
    elif kind == "plan":
        base = layer.section("project")
        yield from (path for path in (base / "project.yaml",) if path.is_file())
        for folder in ("milestones", "issues"):
            yield from _named(base / folder, ".yaml")
    elif kind == "skill":
        base = layer.section("skills")
        for directory in _named(base, "", folders=True):
            yield from (path for path in (directory / "SKILL.md",) if path.is_file())
            yield from _named(directory / "examples", ".md")
    elif kind in ("workspace", "deployment"):
        from mj_policy.layer import declarations

        yield from _named(layer.root / declarations.KINDS[kind], ".yaml")


def rule_files(base: Path) -> Iterator[Path]:
    """The rule files: each vendored package's (by its name), then the project's."""
    vendor = [path / "rules" for path in _named(base / "vendor", "", folders=True)]
    for folder in [*vendor, base / "project"]:
        yield from _named(folder, ".md")


def _named(directory: Path, suffix: str, *, folders: bool = False) -> Iterator[Path]:
    """The entries of `directory` ending with `suffix`, by name; hidden ones left out."""
    try:
        names = sorted(os.listdir(directory))
    except (FileNotFoundError, NotADirectoryError):
        return
    for name in names:
        if name.startswith(".") or not name.endswith(suffix):
            continue
        path = directory / name
        if path.is_dir() == folders:
            yield path


def front_task(text: str) -> tuple[str, ...]:
    """The task ids a record's front matter names: its `task_id`, and for a session the
    tasks it lists."""
    if not text.startswith("---"):
        return ()
    end = text.find("\n---", 3)
    found = []
    for line in text[3 : end if end != -1 else len(text)].split("\n"):
        words = line.strip().lstrip("- ").split(":", 1)
        value = words[-1].strip().strip("\"'")
        if (len(words) == 1 or words[0] in ("task_id", "id")) and value.startswith("t-"):
            found.append(value)
    return tuple(found)


def line_tasks(kind: str, lines: list[str]) -> list[str | None]:
    """The task each line of an index or of the ledger belongs to (None: no task)."""
    if kind == "ledger":
        return [_ledger_task(line) for line in lines]
    if kind == "question":
        return [_question_task(line) for line in lines]
    out: list[str | None] = []
    current: str | None = None
    for number, line in enumerate(lines):  # a decision entry: its heading, then `Task: <id>`
        if line.startswith("## "):
            current = _entry_task(lines, number + 1)
        out.append(current)
    return out


def _entry_task(lines: list[str], start: int) -> str | None:
    for line in lines[start:]:
        if line.startswith("## "):
            return None
        if line.startswith("Task:"):
            return line[5:].strip() or None
    return None


def _question_task(line: str) -> str | None:
    if not line.startswith("- [") or "] " not in line:
        return None
    rest = line.split("] ", 1)[1]
    return rest.split(" ", 1)[0] or None


def _ledger_task(line: str) -> str | None:
    if '"task_id"' not in line:
        return None
    import json

    try:
        value = json.loads(line)
    except ValueError:
        return None
    task = value.get("task_id") if isinstance(value, dict) else None
    return task if isinstance(task, str) else None
