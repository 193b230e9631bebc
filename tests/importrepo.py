"""A repository that already has instructions for several clients, as a team that used them
before Majordomus keeps it: Claude Code's and Codex's files sharing a section, a nested
AGENTS.md, Gemini's file, a CLAUDE.md that pulls a document in with `@path`, Cursor's legacy
file and two of its rule files (one scoped by `globs`, one only on request), and Copilot's
instructions (one file for every request, one scoped by `applyTo`)."""

from __future__ import annotations

from conftest import Repo

FILES = {
    "CLAUDE.md": """# CLAUDE.md

This project is a small web service for booking rooms.

## Testing

Run `make test` before every commit.
Never skip a failing test; fix it or ask.

## Style

- Indent with four spaces.
- Keep functions under forty lines.

<!-- reviewers read this section first -->

@docs/conventions.md
""",
    "AGENTS.md": """# AGENTS.md

## Testing

Run `make test` before every commit.
Never skip a failing test; fix it or ask.

## Commits

Write commit messages in the imperative mood.
""",
    "lib/AGENTS.md": "Code under lib/ is pure: no network, no files, no clock.\n",
    "lib/core.py": "VALUE = 1\n",
    "GEMINI.md": "# Notes for Gemini\n\nAnswer in British English.\n",
    "docs/conventions.md": "Name modules in snake_case.\n",
    ".cursorrules": "Prefer small pull requests over large ones.\n",
    ".cursor/rules/api.mdc": """---
description: API handlers
globs: src/api/**/*.{ts,tsx}
alwaysApply: false
---
Every handler validates its input against the schema module.
""",
    ".cursor/rules/release.mdc": """---
description: How a release is cut
globs:
alwaysApply: false
---
Tag the release commit as vMAJOR.MINOR.PATCH and push the tag.
""",
    ".github/copilot-instructions.md": "Explain each change in the pull request body.\n",
    ".github/instructions/py.instructions.md": """---
applyTo: "**/*.py"
---
Type-annotate every Python function.
""",
}


def seed(repo: Repo, files: dict[str, str] | None = None) -> None:
    """The files, committed, and `.ai/local` ignored already (so `init` writes only `.ai/`)."""
    for relative, text in (FILES if files is None else files).items():
        repo.write(relative, text)
    repo.write(".gitignore", ".ai/local\n")
    repo.commit("instructions for several clients")


def outside_ai(repo: Repo) -> dict[str, bytes]:
    """Every file of the working tree outside `.ai/` and `.git/`, with its bytes."""
    found = {}
    for path in sorted(repo.root.rglob("*")):
        relative = path.relative_to(repo.root).as_posix()
        if relative.startswith((".git/", ".ai/")) or not path.is_file():
            continue
        found[relative] = path.read_bytes()
    return found


def under_ai(repo: Repo) -> dict[str, bytes]:
    found = {}
    for path in sorted((repo.root / ".ai").rglob("*")):
        if path.is_file():
            found[path.relative_to(repo.root).as_posix()] = path.read_bytes()
    return found
