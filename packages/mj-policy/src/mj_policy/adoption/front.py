"""The front matter of an imported instruction file, read the way its provider reads it, and
the scope it gives the file's text.

Cursor's `.mdc` (`description`, `globs`, `alwaysApply`) and Copilot's `.instructions.md`
(`applyTo`, `description`, `name`) are `key: value` lines, a value optionally quoted, or a key
followed by `  - item` lines; `globs` is not YAML there (`**/*.ts` would be an alias), so it is
not read as YAML here either. A file of any other kind carries no front matter: a leading
`---` block in it is refused. An unknown or repeated key, a line that is neither, or a value
of the wrong form → 10 naming the file, the line and the key.
"""

from __future__ import annotations

import re

from mj_core.errors import ContractUnmet

_KEY = re.compile(r"([A-Za-z_][A-Za-z0-9_-]*):(?:[ \t]+(.*?))?[ \t]*")
_ITEM = re.compile(r"[ \t]+-[ \t]+(.*?)[ \t]*")
_ALLOWED = re.compile(r"[^A-Za-z0-9_.*?/\[\]!-]")
EVERYTHING = ("**", "**/*")


class Front:
    """A file's front matter: its values, where each key is, and the first line after it."""

    __slots__ = ("after", "lines", "values")

    def __init__(self) -> None:
        self.values: dict[str, str | list[str]] = {}
        self.lines: dict[str, int] = {}
        self.after = 0  # index of the first line below the block (0: no front matter)


def read(lines: list[str], shown: str, allowed: tuple[str, ...]) -> Front:
    """The front matter opening `lines` (each without its line break)."""
    found = Front()
    if not lines or lines[0].rstrip("\r") != "---":
        return found
    end = next((i for i in range(1, len(lines)) if lines[i].rstrip("\r") == "---"), None)
    if end is None:
        raise ContractUnmet(f"{shown}:1: front matter is not closed — add a closing '---' line")
    key = ""
    for index in range(1, end):
        key = _line(found, lines[index].rstrip("\r"), index + 1, key, (shown, allowed))
    found.after = end + 1
    return found


def _line(
    found: Front, text: str, number: int, key: str, where: tuple[str, tuple[str, ...]]
) -> str:
    shown, allowed = where
    if not text.strip() or text.lstrip().startswith("#"):
        return key
    item = _ITEM.fullmatch(text)
    if item is not None and key and isinstance(found.values.get(key), list):
        listed = found.values[key]
        assert isinstance(listed, list)
        listed.append(_unquoted(item.group(1)))
        return key
    match = _KEY.fullmatch(text)
    if match is None:
        raise ContractUnmet(f"{shown}:{number}: not a 'key: value' line — fix the front matter")
    name, value = match.group(1), match.group(2) or ""
    if name not in allowed:
        carries = (
            f"this file's front matter carries {', '.join(allowed)}"
            if allowed
            else (
                "its client reads no front matter in this file: remove the block, or make it text"
            )
        )
        raise ContractUnmet(f"{shown}:{number}: unknown key '{name}' — {carries}")
    if name in found.values:
        raise ContractUnmet(f"{shown}:{number}: repeated key '{name}' — keep one")
    found.values[name] = _unquoted(value) if value else []
    found.lines[name] = number
    return name


def _unquoted(value: str) -> str:
    if len(value) >= 2 and value[0] == value[-1] and value[0] in "\"'":
        return value[1:-1]
    return value


def text(front: Front, key: str, shown: str) -> str:
    """A one-line value ('' when absent)."""
    value = front.values.get(key, "")
    if isinstance(value, list):
        if len(value) > 1:
            raise ContractUnmet(f"{shown}:{front.lines[key]}: key '{key}' takes one line of text")
        value = value[0] if value else ""
    return value.strip()


def flag(front: Front, key: str, shown: str) -> bool:
    value = text(front, key, shown).lower()
    if value not in ("", "true", "false"):
        raise ContractUnmet(f"{shown}:{front.lines[key]}: key '{key}' is true or false")
    return value == "true"


def globs(front: Front, key: str, shown: str) -> list[str]:
    """The key's globs as rule `paths` (`mj_policy.rules.effective`): comma-separated or listed,
    braces expanded, a leading `./` or `/` dropped (both name the repository root), and a
    character a rule path cannot hold matched by `?`, so the scope is never narrower than it
    was."""
    value = front.values.get(key, "")
    items = value if isinstance(value, list) else _split(value)
    out: list[str] = []
    for item in items:
        for glob in _expanded(item.strip(), shown, front.lines.get(key, 1), key):
            if glob and glob not in out:
                out.append(glob)
    return out


def _split(value: str) -> list[str]:
    """Comma-separated globs; a comma inside braces belongs to the glob."""
    parts, depth, current = [], 0, ""
    for char in value:
        depth += (char == "{") - (char == "}")
        if char == "," and depth == 0:
            parts.append(current)
            current = ""
        else:
            current += char
    return [*parts, current]


def _expanded(glob: str, shown: str, line: int, key: str) -> list[str]:
    match = re.search(r"\{([^{}]*)\}", glob)
    if match is not None:
        out = []
        for choice in match.group(1).split(","):
            out += _expanded(glob[: match.start()] + choice + glob[match.end() :], shown, line, key)
        return out
    if "{" in glob or "}" in glob:
        raise ContractUnmet(f"{shown}:{line}: key '{key}': unbalanced braces in '{glob}'")
    while glob.startswith(("./", "/")):
        glob = glob[1:] if glob.startswith("/") else glob[2:]
    if ".." in glob.split("/"):
        raise ContractUnmet(f"{shown}:{line}: key '{key}': '{glob}' leaves the repository")
    return [_ALLOWED.sub("?", glob)] if glob else []


def directory_glob(folder: str) -> str:
    """The rule path of everything below a directory (a nested file's reach)."""
    return _ALLOWED.sub("?", folder) + "/**"
