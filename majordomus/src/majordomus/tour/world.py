"""The world the tour runs in: a scratch repository, git told who commits, the installed
`majordomus` first on PATH. Shared by the tour's steps (`commands/tour.py`) and its
provider-file actions (`tour.projections`), below both.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path


def executable() -> str:
    beside = Path(sys.executable).parent / "majordomus"
    if beside.exists():
        return str(beside)
    import shutil

    return shutil.which("majordomus") or "majordomus"


def environment(tool: str) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("GIT_", "MJ_"))}
    env.update(
        GIT_CONFIG_GLOBAL=os.devnull,
        GIT_CONFIG_NOSYSTEM="1",
        GIT_AUTHOR_NAME="majordomus tour",
        GIT_AUTHOR_EMAIL="tour@example.invalid",
        GIT_COMMITTER_NAME="majordomus tour",
        GIT_COMMITTER_EMAIL="tour@example.invalid",
    )
    env["PATH"] = f"{Path(tool).parent}{os.pathsep}{env.get('PATH', '')}"
    return env


def git(root: Path, env: dict[str, str], *args: str) -> None:
    import subprocess

    subprocess.run(("git", *args), cwd=root, env=env, check=True, capture_output=True)


def scratch(env: dict[str, str]) -> Path:
    import tempfile

    root = Path(tempfile.mkdtemp(prefix="majordomus-tour-"))
    git(root, env, "init", "-q", "-b", "main")
    readme = "# A scratch project\n\nAI coding workers: start with AGENTS.md.\n"
    (root / "README.md").write_text(readme, encoding="utf-8")
    git(root, env, "add", "README.md")
    git(root, env, "commit", "-q", "--no-verify", "-m", "a scratch project")
    return root


def snapshot(root: Path) -> dict[str, int]:
    """Every file outside git's object store, with its modification time."""
    skip = {".git/objects", ".git/logs", ".git/refs"}
    out = {}
    for path in root.rglob("*"):
        relative = path.relative_to(root).as_posix()
        if path.is_file() and not any(relative.startswith(s) for s in skip):
            out[relative] = path.stat().st_mtime_ns
    return out
