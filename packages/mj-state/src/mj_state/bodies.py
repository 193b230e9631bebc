"""Rules for the human-written body of a handover, checkpoint or completion note.

A body never carries identity: a line that looks like a front-matter key is refused, because
those fields are computed from git. A handover's sections are level-one `# ` headings; a section
whose content is only `<placeholders>` is empty.
"""

from __future__ import annotations

import re

from mj_core.errors import ContractUnmet

FRONT_KEYS = (
    "schema_version",
    "created_at",
    "task_id",
    "profile",
    "owner",
    "repository_id",
    "worktree",
    "worktree_id",
    "branch",
    "head",
    "working_tree",
    "changed_files",
)
_KEY_LINE = re.compile(
    r"^\s*(?:[-*]\s+)?(" + "|".join(FRONT_KEYS) + r")\s*:(?:\s|$)", re.IGNORECASE
)
_PLACEHOLDER = re.compile(r"<[^<>\n]*>")
_HEADING = re.compile(r"^# (\S.*?)\s*$")


def identity_lines(body: str) -> list[tuple[int, str]]:
    """(line number within the body, key) of each line that looks like a front-matter key."""
    found = []
    for number, line in enumerate(body.split("\n"), start=1):
        match = _KEY_LINE.match(line)
        if match:
            found.append((number, match.group(1).lower()))
    return found


def refuse_identity(body: str, name: str) -> None:
    """10 when the body tries to set a front-matter or identity field."""
    for number, key in identity_lines(body)[:1]:
        raise ContractUnmet(
            f"{name}:{number}: {key}: looks like a front-matter key — identity and front matter "
            "are computed by the tool; remove the line"
        )


def line_count(body: str) -> int:
    return len(body.strip("\n").split("\n")) if body.strip() else 0


def sections(body: str) -> dict[str, str]:
    """Level-one heading → its content (up to the next level-one heading)."""
    out: dict[str, str] = {}
    current: str | None = None
    lines: list[str] = []
    for line in body.split("\n"):
        match = _HEADING.match(line)
        if match:
            if current is not None:
                out.setdefault(current, "\n".join(lines))
            current, lines = match.group(1), []
        elif current is not None:
            lines.append(line)
    if current is not None:
        out.setdefault(current, "\n".join(lines))
    return out


def is_empty(content: str) -> bool:
    """No words once `<placeholders>` are removed."""
    return not re.search(r"\w", _PLACEHOLDER.sub("", content))


def missing_sections(body: str, required: list[str]) -> list[str]:
    """Required headings that are absent or empty, in the order given."""
    found = sections(body)
    return [name for name in required if name not in found or is_empty(found[name])]


def refuse_missing(body: str, required: list[str], name: str) -> None:
    missing = missing_sections(body, required)
    if missing:
        listed = ", ".join(f"# {section}" for section in missing)
        raise ContractUnmet(
            f"{name}: required section missing or empty: {listed} — write each with content "
            "(placeholders like <…> count as empty)"
        )
