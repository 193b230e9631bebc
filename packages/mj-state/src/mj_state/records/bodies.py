"""Rules for the human-written body of a handover, checkpoint or completion note.

A body never carries identity: a line that looks like a front-matter key is refused, because
those fields are computed from git. A handover's sections are level-one `# ` headings; a section
that says nothing of its own (`mj_state.finish.substance`) is empty.
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
    """Level-one heading → its content (up to the next level-one heading). A heading inside a
    code fence or an HTML comment is content, not a heading."""
    out: dict[str, str] = {}
    current: str | None = None
    lines: list[str] = []
    for line, live in _marked(body):
        match = _HEADING.match(line) if live else None
        if match:
            if current is not None:
                out.setdefault(current, "\n".join(lines))
            current, lines = match.group(1), []
        elif current is not None:
            lines.append(line)
    if current is not None:
        out.setdefault(current, "\n".join(lines))
    return out


def _marked(body: str) -> list[tuple[str, bool]]:
    """Each line of `body` with whether it is live text: outside code fences (``` or ~~~) and
    HTML comments. A fence or comment left open runs to the end."""
    out: list[tuple[str, bool]] = []
    fence: str | None = None
    comment = False
    for line in body.split("\n"):
        stripped = line.strip()
        if fence is not None:
            out.append((line, False))
            if stripped.startswith(fence) and not stripped[len(fence) :].strip():
                fence = None
            continue
        if comment:
            out.append((line, False))
            comment = "-->" not in line
            continue
        opened = _FENCE.match(stripped)
        if opened:
            fence = opened.group(1)
            out.append((line, False))
            continue
        live, comment = _outside_comments(line)
        out.append((live, bool(live.strip()) or not stripped))
    return out


def _outside_comments(line: str) -> tuple[str, bool]:
    """(the text of `line` outside `<!-- … -->`, whether a comment stays open after it)."""
    kept = []
    rest = line
    while "<!--" in rest:
        before, _, after = rest.partition("<!--")
        kept.append(before)
        if "-->" not in after:
            return "".join(kept), True
        rest = after.partition("-->")[2]
    kept.append(rest)
    return "".join(kept), False


_FENCE = re.compile(r"^(`{3,}|~{3,})")


def live_sections(body: str) -> dict[str, list[str]]:
    """Each level-one heading of `body` → the live lines of its content."""
    return {name: live_lines(content) for name, content in sections(body).items()}


def live_lines(content: str) -> list[str]:
    """The lines of `content` that are live text: outside code fences and HTML comments."""
    return [line for line, live in _marked(content) if live]


def is_empty(content: str, heading: str | None = None) -> bool:
    """True when `content` says nothing (`mj_state.finish.substance`): no word left once template
    markers, placeholders (`TODO`, `TBD`, `WIP`, `same as above`, …), the heading's words and
    text inside code fences or HTML comments are set aside."""
    from mj_state.finish import substance

    return not substance.says_something(live_lines(content), (heading,) if heading else ())


def missing_sections(body: str, required: list[str]) -> list[str]:
    """Required headings that are absent, say nothing, or say what an earlier section said
    (`mj_state.finish.substance.said`), in the order given."""
    from mj_state.finish import substance

    present = substance.said(live_sections(body))
    return [name for name in required if name not in present]


def refuse_missing(body: str, required: list[str], name: str) -> None:
    missing = missing_sections(body, required)
    if missing:
        listed = ", ".join(f"# {section}" for section in missing)
        raise ContractUnmet(
            f"{name}: required section missing or empty: {listed} — write each with words "
            "of its own (placeholders like <…>, {{…}}, [ ], TODO, TBD, WIP, same as above, "
            "the heading's words and text inside code fences or HTML comments count as empty; "
            "no two sections alike)"
        )


def guarded(text: str, name: str, *, redact: bool) -> str:
    """`text` as it may be stored: redacted when asked (or when no person is there to be
    refused), else unchanged when it holds no credential; a credential refuses the write (15),
    naming its line and kind, never its value."""
    from mj_core.credentials import (
        detect as credentials,  # the detector loads only for text that may need it
    )

    if redact:
        return credentials.redact(text)[0]
    found = credentials.find(text)
    if found:
        from mj_core.errors import Refused

        first, more = found[0], len(found) - 1
        also = f" (and {more} more)" if more else ""
        raise Refused(
            f"{name}:{first.line}: a credential ({first.kind}){also} — nothing written; remove "
            "it, or pass --redact to store it as [REDACTED]"
        )
    return text
