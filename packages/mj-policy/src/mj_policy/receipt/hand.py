"""The instruction files of a receipt that no projection plans: a rule file someone wrote by
hand into a directory the client reads rules from, and the nested files (Codex's
`<dir>/AGENTS.md`, Claude Code's `<dir>/CLAUDE.md`) anywhere below the root.

A hand-written rule file is judged by the front matter its client reads (share/providers.yaml
`rules.front_matter`): `always`, `scoped` to the globs it names, or `on-request` where the
client reads it only when asked for it (a Cursor rule with neither `alwaysApply` nor
`globs`, a Windsurf or Kiro rule triggered by hand or by the model). Front matter this reader
does not understand counts as always loaded: the receipt never claims a file stays out of a
conversation it may be in.
"""

from __future__ import annotations

TYPE_CHECKING = False  # `typing` is not imported at run time on a start-up path
if TYPE_CHECKING:
    from pathlib import Path


def rule_files(root: Path, folder: str, suffix: str, skip: set[str]) -> list[str]:
    """The files of `folder` (and below) ending in `suffix` that are not in `skip`, sorted."""
    base = root / folder
    if not base.is_dir() or base.is_symlink():
        return []
    found = []
    for path in base.rglob(f"*{suffix}"):
        name = path.relative_to(root).as_posix()
        if name not in skip and path.is_file() and not path.is_symlink():
            found.append(name)
    return sorted(found)


def scope(text: str, style: str) -> tuple[str, list[str]]:
    """How a rule file of front matter `style` is loaded: (`always` | `scoped` | `on-request`,
    the globs of a scoped one)."""
    fields = front_matter(text)
    if style == "paths":
        globs = _globs(fields.get("paths"))
        return ("scoped", globs) if globs else ("always", [])
    if style == "cursor":
        if _true(fields.get("alwaysApply")):
            return "always", []
        globs = _globs(fields.get("globs"))
        return ("scoped", globs) if globs else ("on-request", [])
    if style == "copilot":
        globs = _globs(fields.get("applyTo"))
        return ("scoped", globs) if globs else ("on-request", [])
    if style == "windsurf":
        trigger = fields.get("trigger", "always_on")
        if trigger == "glob":
            return "scoped", _globs(fields.get("globs"))
        return ("always", []) if trigger == "always_on" else ("on-request", [])
    if style == "kiro":
        inclusion = fields.get("inclusion", "always")
        if inclusion == "fileMatch":
            return "scoped", _globs(fields.get("fileMatchPattern"))
        return ("always", []) if inclusion == "always" else ("on-request", [])
    return "always", []


def front_matter(text: str) -> dict[str, str | list[str]]:
    """The top-level keys of a leading `---` block: a scalar (quotes dropped) or a list of
    `- item` lines; {} without one."""
    lines = text.split("\n")
    if not lines or lines[0].strip() != "---":
        return {}
    fields: dict[str, str | list[str]] = {}
    key = None
    for line in lines[1:]:
        if line.strip() == "---":
            return fields
        stripped = line.strip()
        if key is not None and stripped.startswith("- "):
            held = fields.get(key)
            items = held if isinstance(held, list) else []
            items.append(_unquote(stripped[2:]))
            fields[key] = items
            continue
        name, colon, value = line.partition(":")
        if colon and name and not name[0].isspace():
            key = name.strip()
            fields[key] = _unquote(value.strip()) if value.strip() else []
    return {}  # no closing line: not front matter


def _unquote(value: str) -> str:
    if len(value) >= 2 and value[0] == value[-1] and value[0] in "'\"":
        return value[1:-1]
    return value


def _globs(value: str | list[str] | None) -> list[str]:
    if isinstance(value, list):
        return [v for v in value if v]
    if not value:
        return []
    value = value.strip("[]")
    return [_unquote(g.strip()) for g in value.split(",") if g.strip()]


def _true(value: str | list[str] | None) -> bool:
    return isinstance(value, str) and value.lower() == "true"


def nested_files(root: Path, name: str) -> list[str]:
    """Every `<dir>/<name>` below the root the client could read: tracked, or untracked and not
    ignored (git decides), shallow first."""
    from mj_core.git import questions as git

    code, out, _ = git.run(*ls_args(name), cwd=root)
    found = {p for p in git.zsplit(out) if "/" in p} if code == 0 else set()
    return sorted((p for p in found if (root / p).is_file()), key=lambda p: (p.count("/"), p))


def ls_args(name: str) -> tuple[str, ...]:
    """The git question `nested_files` asks (begun ahead by the receipt's stage)."""
    return ("ls-files", "-z", "-c", "-o", "--exclude-standard", "--", f":(glob)**/{name}")
