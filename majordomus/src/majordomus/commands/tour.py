"""`majordomus tour`: a walkthrough in a scratch repository, with the real commands.

It creates a git repository in a temporary directory and runs each step of `STEPS` as a
subprocess of the installed `majordomus`, printing the command, its output, its exit code and
every file it wrote. Add a step by appending one line to `STEPS`.
"""

from __future__ import annotations

import argparse
import os
import re
import shutil
import subprocess
import sys
import tempfile
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import IO

from majordomus.invocation import Invocation

HELP = "walk through the real commands in a scratch repository (prints where every file lives)"


@dataclass(frozen=True)
class Step:
    why: str
    argv: tuple[str, ...] = ()  # a majordomus command; empty for a person's own action
    act: Callable[[Path, str], str] | None = None  # the person's action: (root, last output)
    stdin: str | None = None
    expect: int = 0


def wire_hooks(root: Path, init_output: str) -> str:
    """What a person does with the hook lines `init` printed: one line per hook, executable."""
    done = []
    for hook, line in re.findall(r"^  (\S+): (.+ \|\| exit \$\?)$", init_output, re.M):
        path = root / hook
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(f"#!/bin/sh\n{line}\n", encoding="utf-8")
        path.chmod(0o755)
        done.append(f"{hook}: {line}")
    return "\n".join(done) + "\n"


STEPS: list[Step] = [
    Step("create the layer from the shipped skeleton", ("init",)),
    Step("install the two hook lines init printed (majordomus installs none)", act=wire_hooks),
    Step("check that the layer is well-formed and what it declares is real", ("doctor",)),
    # keep this step last: the tour ends with what the next worker would be handed
    Step(
        "the context a next worker would receive, in authority order within a budget", ("context",)
    ),
]


def executable() -> str:
    beside = Path(sys.executable).parent / "majordomus"
    return str(beside) if beside.exists() else shutil.which("majordomus") or "majordomus"


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


def _git(root: Path, env: dict[str, str], *args: str) -> None:
    subprocess.run(("git", *args), cwd=root, env=env, check=True, capture_output=True)


def scratch(env: dict[str, str]) -> Path:
    root = Path(tempfile.mkdtemp(prefix="majordomus-tour-"))
    _git(root, env, "init", "-q", "-b", "main")
    readme = "# A scratch project\n\nAI coding workers: start with AGENTS.md.\n"
    (root / "README.md").write_text(readme, encoding="utf-8")
    _git(root, env, "add", "README.md")
    _git(root, env, "commit", "-q", "--no-verify", "-m", "a scratch project")
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


def _run_step(step: Step, root: Path, tool: str, env: dict[str, str], last: str) -> tuple[int, str]:
    if step.act is not None:
        return 0, step.act(root, last)
    proc = subprocess.run(
        (tool, *step.argv),
        cwd=root,
        env=env,
        input=step.stdin,
        capture_output=True,
        text=True,
        check=False,
    )
    return proc.returncode, proc.stdout + proc.stderr


def walk(out: IO[str]) -> int:
    tool = executable()
    env = environment(tool)
    root = scratch(env)
    out.write(f"scratch repository: {root}\n")
    last, unexpected = "", 0
    for number, step in enumerate(STEPS, 1):
        shown = "majordomus " + " ".join(step.argv) if step.argv else "(you, by hand)"
        out.write(f"\n== step {number}: {step.why}\n$ {shown}\n")
        before = snapshot(root)
        code, last = _run_step(step, root, tool, env, last)
        out.write(last if last.endswith("\n") or not last else last + "\n")
        out.write(f"exit {code}" + ("" if code == step.expect else f" (expected {step.expect})"))
        out.write("\n")
        unexpected += code != step.expect
        after = snapshot(root)
        for relative in sorted(p for p in after if before.get(p) != after[p]):
            out.write(f"  wrote {root / relative}\n")
    out.write(f"\ntour: {len(STEPS)} step(s), {unexpected} unexpected; explore {root}\n")
    return 10 if unexpected else 0


def run(options: argparse.Namespace, inv: Invocation) -> int:
    return walk(inv.stdout)
