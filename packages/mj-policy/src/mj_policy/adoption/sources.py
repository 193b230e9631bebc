"""The instruction files `majordomus init --import` adopts, and which provider loaded each.

| file                                          | read by       | reaches                        |
|-----------------------------------------------|---------------|--------------------------------|
| `CLAUDE.md`, `.claude/CLAUDE.md`              | claude-code   | always                         |
| `<dir>/CLAUDE.md`                             | claude-code   | files under `<dir>/`           |
| `AGENTS.md`                                   | codex, opencode | always                       |
| `<dir>/AGENTS.md`                             | codex         | files under `<dir>/`           |
| `GEMINI.md` (`<dir>/GEMINI.md`)               | gemini        | always (files under `<dir>/`)  |
| `.cursorrules`                                | cursor        | always                         |
| `.cursor/rules/**/*.mdc`                      | cursor        | its `globs`, `alwaysApply`     |
| `.github/copilot-instructions.md`             | copilot       | always                         |
| `.github/instructions/**/*.instructions.md`   | copilot       | its `applyTo`                  |

A file an imported `CLAUDE.md` or `GEMINI.md` names with `@path` is read too (`kind`
`reference`), reaching what the file naming it reached. The files are found through git's
index and the untracked files git does not ignore, never by walking the tree; `.ai/` is never a
source.
"""

from __future__ import annotations

from mj_core.errors import ContractUnmet
from mj_core.errors import Refused

TYPE_CHECKING = False  # `typing` is not imported at run time on a start-up path
if TYPE_CHECKING:
    from pathlib import Path

# kind → (providers that read it at the root, nested, front matter keys it may carry)
KINDS: dict[str, tuple[tuple[str, ...], tuple[str, ...], tuple[str, ...]]] = {
    "claude": (("claude-code",), ("claude-code",), ()),
    "agents": (("codex", "opencode"), ("codex",), ()),
    "gemini": (("gemini",), ("gemini",), ()),
    "cursorrules": (("cursor",), (), ()),
    "mdc": (("cursor",), (), ("description", "globs", "alwaysApply")),
    "copilot": (("copilot",), (), ()),
    "instructions": (("copilot",), (), ("applyTo", "description", "name")),
}
NESTED = {"CLAUDE.md": "claude", "AGENTS.md": "agents", "GEMINI.md": "gemini"}
ROOT_FILES = {
    "AGENTS.md": "agents",
    "CLAUDE.md": "claude",
    ".claude/CLAUDE.md": "claude",
    "GEMINI.md": "gemini",
    ".github/copilot-instructions.md": "copilot",
    ".cursorrules": "cursorrules",
}
ORDER = ("agents", "claude", "gemini", "copilot", "cursorrules", "mdc", "instructions")
PATHSPECS = (
    ":(glob)**/CLAUDE.md",
    ":(glob)**/AGENTS.md",
    ":(glob)**/GEMINI.md",
    ".cursorrules",
    ":(glob).cursor/rules/**/*.mdc",
    ".github/copilot-instructions.md",
    ":(glob).github/instructions/**/*.instructions.md",
)
IMPORTS = ("claude", "gemini", "reference")  # their clients expand `@path` lines


class Source:
    """One instruction file: its path, kind, and the directory it is nested in ('' at root)."""

    __slots__ = ("kind", "nested_in", "path", "via")

    def __init__(self, path: str, kind: str, nested_in: str = "", via: str = "") -> None:
        self.path = path
        self.kind = kind
        self.nested_in = nested_in
        self.via = via  # a reference: `<file>:<line>` of the `@path` naming it

    @property
    def providers(self) -> tuple[str, ...]:
        if self.kind == "reference":
            return ()
        root, nested, _ = KINDS[self.kind]
        return nested if self.nested_in else root

    @property
    def front_keys(self) -> tuple[str, ...]:
        return KINDS[self.kind][2] if self.kind in KINDS else ()


def classify(path: str) -> Source | None:
    """The source `path` is, or None when no provider reads it as instructions."""
    if path.startswith(".ai/"):
        return None
    if path in ROOT_FILES:
        return Source(path, ROOT_FILES[path])
    if path.startswith(".cursor/rules/") and path.endswith(".mdc"):
        return Source(path, "mdc")
    if path.startswith(".github/instructions/") and path.endswith(".instructions.md"):
        return Source(path, "instructions")
    folder, _, name = path.rpartition("/")
    if folder and name in NESTED:
        return Source(path, NESTED[name], nested_in=folder)
    return None


def find(root: Path) -> list[Source]:
    """Every instruction file of the repository, in a fixed order (root files by kind, then
    nested ones and rule files by path); names and links checked (`checked`)."""
    from mj_core.git import questions as git

    args = ("ls-files", "-z", "--cached", "--others", "--exclude-standard", "--", *PATHSPECS)
    code, out, err = git.run(*args, cwd=root)
    if code != 0:
        raise Refused(f"git ls-files: {err.strip() or 'failed'} — is {root} a git repository?")
    found = []
    for path in sorted(set(git.zsplit(out))):
        source = classify(path)
        if source is not None and checked(root, path):
            found.append(source)
    return sorted(found, key=lambda s: (bool(s.nested_in), ORDER.index(s.kind), s.path))


def checked(root: Path, path: str) -> bool:
    """True for a file to read: a name the layer can record, a regular file (or a link to one
    inside the repository); False when it is gone from the working tree. A link leading out
    of the repository or into the git directory → 15; an odd name → 10."""
    import os
    import stat

    named(path)
    full = root / path
    try:
        found = os.lstat(full)
    except FileNotFoundError:
        return False
    if stat.S_ISLNK(found.st_mode):
        _inside(root, path)
        found = os.stat(full)
    if not stat.S_ISREG(found.st_mode):
        raise Refused(f"{path}: not a regular file — an instruction file is expected here")
    return True


def named(path: str) -> None:
    """Refuse (10) a name the rule's provenance could not carry: bytes that are not UTF-8,
    a control character or a line separator."""
    from mj_core.sanitise import undecodable

    if not path.isprintable():
        shown = "".join(c if c.isprintable() else f"\\u{ord(c):04x}" for c in undecodable(path))
        raise ContractUnmet(
            f"{shown}: a file name with bytes that are not UTF-8 or a control "
            "character — rename it to import it"
        )


def _inside(root: Path, path: str) -> None:
    import os

    from mj_core.write import confine

    real_root = os.path.realpath(root)
    real = os.path.realpath(root / path)
    inside = real.startswith(real_root.rstrip(os.sep) + os.sep)
    in_git = any(real == d or real.startswith(d + os.sep) for d in confine.git_dirs(root))
    if not inside or in_git:
        raise Refused(
            f"{path}: a symbolic link to {real}, outside the repository — never read; "
            "replace the link with the file"
        )
