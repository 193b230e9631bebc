"""Generated repositories to measure on: `small` (a fresh layer), `large` (a busy one),
`governed` (the large one with 50 project rules and 20 context documents for doctor to judge)
and `records` (the small one with 200 skills and 500 decision records, for `skills check` and
`adr check`).

Both start as a git repository initialised by the real `majordomus init` and `update`, so the
fixture is exactly what a user would have; `large` then gets its history and records from the
fixture generator. A step that fails stops the benchmark with 13, naming the step.
"""

from __future__ import annotations

import shlex
import subprocess
import tempfile
from pathlib import Path

from mj_core.declaration import commands as declare
from mj_core.errors import InternalError

from mj_watch.bench import fixture_history
from mj_watch.bench import scenario as _scenario
from mj_watch.bench.scenario import Scenario
from mj_watch.bench.targets import executable

FILES = 2000  # tracked files of the large fixture at scale 1
WORKTREES = 3  # linked worktrees, each with an active task
# Never changed in place by any command (sources; records are write-once): copies link them.
LINKED = ("src", ".ai/local/state/checkpoints", ".ai/local/state/handovers")


def scenario(name: str, scale: int) -> Scenario:
    scratch = Path(tempfile.mkdtemp(prefix=f"mj-bench-{name}-"))
    root = scratch / "fixture" / name
    env = _scenario.environment()
    try:
        small(root, env)
        if name in ("large", "governed"):
            large(root, env, scale)
        if name == "governed":
            governed(root)
        if name == "records":
            records(root, env)
        _scenario.settle(root)
    except BaseException:
        Scenario("", root, scratch, env).close()
        raise
    label = f"fixture {name}" + (f"×{scale}" if scale != 1 else "")
    return Scenario(label, root, scratch, env, linked=LINKED)


def small(root: Path, env: dict[str, str]) -> None:
    """A repository with one commit, then `majordomus init` (and `update`), committed."""
    _scenario.blank(root)
    _majordomus(root, env, "init")
    if "update" in declare.public():  # the provider files, as `init` tells the user to
        _majordomus(root, env, "update")
    _scenario.commit(root, "adopt majordomus")


def large(root: Path, env: dict[str, str], scale: int) -> None:
    """2,000 tracked files, `fixture_history.Sizes.large`, its newest task ended by the real
    `finish` (so its copy is there, as a finish leaves it, for the next `start` to archive),
    3 linked worktrees at work."""
    for index in range(FILES * scale):
        target = root / "src" / f"pkg_{index // 100:03d}" / f"mod_{index:05d}.py"
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(f"VALUE_{index} = {index}\n", encoding="utf-8")
    _scenario.commit(root, "source tree")
    _scenario.git_ok(root, "repack", "-adq")  # a few pack files, not thousands of objects
    fixture_history.write(
        root, root / ".ai" / "local" / "state", fixture_history.Sizes.large(scale)
    )
    _majordomus(root, env, "start", "the last task", "--scope", "src")
    _majordomus(root, env, "finish", "--outcome", "partial", "--note", "docs/finish-note.md")
    for number in range(WORKTREES):
        where = root.parent / f"{root.name}-wt-{number}"
        _scenario.git_ok(root, "worktree", "add", "-q", str(where), "-b", f"wt-{number}")
        _majordomus(where, env, "start", f"work {number}", "--scope", f"src/pkg_{number:03d}")


def governed(root: Path) -> None:
    """50 project rules (a dependency chain among them; one in five routed to a shipped
    validator and naming its test file) and 20 context documents, each tracking one package of
    `src/`; committed."""
    from mj_watch.bench import fixture_layer

    fixture_layer.write(root, rules=50, documents=20)
    _scenario.commit(root, "project rules and context documents")


def records(root: Path, env: dict[str, str], skills: int = 200, adrs: int = 500) -> None:
    """`skills` skills and `adrs` decision records of realistic shape
    (`mj_watch.bench.fixture_records`), every one valid, the active skills projected by
    `update`; committed."""
    import time

    from mj_policy.layer import parse_cache as parsecache

    from mj_watch.bench import fixture_records

    fixture_records.skills(root, skills)
    fixture_records.adrs(root, adrs)
    if "update" in declare.public():
        _majordomus(root, env, "update")
    _scenario.commit(root, "skills and decision records")
    # A file written in the last two seconds is never kept in the parse cache
    # (`mj_policy.layer.parse_cache.RACY_NS`): a user's records are older than that, so wait it out
    # here, or every warm sample of the first seconds would parse everything again.
    time.sleep(parsecache.RACY_NS / 1e9)


def _majordomus(root: Path, env: dict[str, str], *args: str) -> None:
    _run(root, env, (*executable(), *args), f"majordomus {shlex.join(args)}")


def _run(root: Path, env: dict[str, str], argv: tuple[str, ...], shown: str) -> None:
    proc = subprocess.run(argv, cwd=root, env=env, capture_output=True, text=True, check=False)
    if proc.returncode != 0:
        said = (proc.stderr or proc.stdout).strip().splitlines()
        raise InternalError(
            f"fixture: {shown} exited {proc.returncode}: {said[-1] if said else ''}"
        )
