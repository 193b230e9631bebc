"""Generated repositories to measure on: `small` (a fresh layer) and `large` (a busy one).

Both start as a git repository initialised by the real `majordomus init` and `update`, so the
fixture is exactly what a user would have; `large` then gets its history and records from the
fixture generator. A step that fails stops the benchmark with 13, naming the step.
"""

from __future__ import annotations

import shlex
import subprocess
import tempfile
from pathlib import Path

from mj_core.errors import InternalError

from majordomus import commands
from majordomus.benchmark import scenario as _scenario
from majordomus.benchmark.scenario import Scenario
from majordomus.benchmark.targets import executable


def scenario(name: str, scale: int) -> Scenario:
    scratch = Path(tempfile.mkdtemp(prefix=f"mj-bench-{name}-"))
    root = scratch / "fixture" / name
    env = _scenario.environment()
    try:
        small(root, env)
        if name == "large":
            large(root, env, scale)
    except BaseException:
        Scenario("", root, scratch, env).close()
        raise
    label = f"fixture {name}" + (f"×{scale}" if scale != 1 else "")
    return Scenario(label, root, scratch, env)


def small(root: Path, env: dict[str, str]) -> None:
    """A repository with one commit, then `majordomus init` (and `update`), committed."""
    _scenario.blank(root)
    _majordomus(root, env, "init")
    if "update" in commands.public():  # the provider files, as `init` tells the user to
        _majordomus(root, env, "update")
    _scenario.commit(root, "adopt majordomus")


def large(root: Path, env: dict[str, str], scale: int) -> None:
    raise InternalError(f"fixture large ×{scale}: the record generator is not in this build")


def _majordomus(root: Path, env: dict[str, str], *args: str) -> None:
    argv = (*executable(), *args)
    proc = subprocess.run(argv, cwd=root, env=env, capture_output=True, text=True, check=False)
    if proc.returncode != 0:
        said = (proc.stderr or proc.stdout).strip().splitlines()
        raise InternalError(
            f"fixture: majordomus {shlex.join(args)} exited {proc.returncode}: "
            f"{said[-1] if said else ''}"
        )
