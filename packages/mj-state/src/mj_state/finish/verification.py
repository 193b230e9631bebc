"""The verification `finish` runs itself, and the tree it vouches for (CLI-REFERENCE Decision 16).

`verification.commands` in the policy pins what may satisfy `verification_ran`: without
`--verify-command` finish runs every pinned command; a `--verify-command` must be one of them.
Unpinned, any command counts (doctor warns). A command is an argument vector split with
shell-word rules and run without a shell, in the repository root, each under the policy's
`verification.timeout` (default 30m). Text that needs a shell (`a && b`, `| tee`, `> log`) is
refused (2): the explicit way is `sh -c '…'`, pinned like any other command. The program a
command names is resolved on PATH (or from the root, for a relative path) and run by its
absolute path, which `finish` records with its sha256; a program inside the repository (as
found, or as its links resolve) is refused: the task's own work is never its judge. So is a
program found in a directory that is not one `allowed` holds: the
system's bin directories, the running virtual environment's bin (`sys.prefix`, and
`$VIRTUAL_ENV` when set), and those `verification.allow_paths` adds — a program a worker put
first on PATH never passes for the one the policy meant.

`tree` is what was verified: `git write-tree` of the working tree (tracked changes, and the
untracked files inside the task's scope) through a temporary index, so the user's index is
never touched.
"""

from __future__ import annotations

import os
import shlex
import sys
import time
from pathlib import Path

from mj_core import clock
from mj_core.errors import ContractUnmet
from mj_core.errors import UsageError
from mj_core.git import questions as git

TYPE_CHECKING = False  # `typing` is not imported at run time on a start-up path
if TYPE_CHECKING:
    from typing import Any

    Record = dict[str, Any]

DEFAULT_TIMEOUT = "30m"
SYSTEM_BINS = ("/usr/local/sbin", "/usr/local/bin", "/usr/sbin", "/usr/bin", "/sbin", "/bin")
_SHELL = frozenset(";&|<>()`")


def argv_of(command: str, what: str = "--verify-command") -> list[str]:
    """`command` as an argument vector; shell syntax or an empty command → 2."""
    try:
        lexer = shlex.shlex(command, posix=True, punctuation_chars=";&|<>()`")
        lexer.whitespace_split = True
        tokens = list(lexer)
    except ValueError as exc:
        raise UsageError(f"{what} {command!r}: {exc}") from None
    operators = [t for t in tokens if t and set(t) <= _SHELL]
    if operators:
        raise UsageError(
            f"{what} {command!r}: {operators[0]} is shell syntax, but verification runs without a "
            f'shell; to run one, say so: {what} "sh -c {shlex.quote(command)}"'
        )
    argv = shlex.split(command)
    if not argv:
        raise UsageError(f"{what} is empty")
    return argv


def pinned(policy: Record) -> list[list[str]] | None:
    """The pinned commands as argument vectors, or None when verification is unpinned."""
    commands = (policy.get("verification") or {}).get("commands")
    if not commands:
        return None
    try:
        return [argv_of(str(c), "verification.commands entry") for c in commands]
    except UsageError as exc:
        raise ContractUnmet(f".ai/repo/policy.yaml: {exc.message}") from None


def plan(
    policy: Record, given: str | None, what: str = "--verify-command"
) -> tuple[list[list[str]], str | None]:
    """(the commands to run, why verification cannot pass without running anything)."""
    allowed = pinned(policy)
    if given is not None:
        argv = argv_of(given, what)
        if allowed is not None and argv not in allowed:
            listed = "; ".join(shlex.join(a) for a in allowed)
            return [], f"{shlex.join(argv)} is not a pinned verification command ({listed})"
        return [argv], None
    if allowed is not None:
        return allowed, None
    return [], "no --verify-command given and verification.commands pins none"


def timeout(policy: Record) -> int:
    text = str((policy.get("verification") or {}).get("timeout") or DEFAULT_TIMEOUT)
    return clock.parse_duration(text) or clock.parse_duration(DEFAULT_TIMEOUT) or 1800


def allowed(extra: list[str] | None) -> frozenset[str]:
    """The directories a verification program may run from: the system's, the running virtual
    environment's bin, and `extra` (the policy's `verification.allow_paths`), as named and as
    their links resolve."""
    named = [*SYSTEM_BINS, os.path.join(sys.prefix, "bin"), *(extra or [])]
    if os.environ.get("VIRTUAL_ENV"):
        named.append(os.path.join(os.environ["VIRTUAL_ENV"], "bin"))
    return frozenset(p for d in named for p in (os.path.normpath(d), os.path.realpath(d)))


def allow_paths(policy: Record) -> list[str]:
    """The policy's `verification.allow_paths` (the schema holds each absolute)."""
    return [str(p) for p in (policy.get("verification") or {}).get("allow_paths") or []]


def run(root: Path, argvs: list[list[str]], limit: int, allow: frozenset[str]) -> Record:
    """Run each command in turn (stopping at the first that fails); the runs and the verdict.
    A program outside `allow` (`allowed`) is refused, as one inside the repository is."""
    runs = []
    for argv in argvs:
        one = _run_one(root, argv, limit, allow)
        runs.append(one)
        if one["exit"] != 0:
            break
    failed = next((r for r in runs if r["exit"] != 0), None)
    return {
        "command": "; ".join(r["command"] for r in runs),
        "argv": runs[-1]["argv"] if runs else [],
        "exit": failed["exit"] if failed else 0,
        "seconds": round(sum(r["seconds"] for r in runs), 2),
        "runs": runs,
        **({"error": failed["error"]} if failed and failed.get("error") else {}),
    }


def _run_one(root: Path, argv: list[str], limit: int, allow: frozenset[str]) -> Record:
    """One command: its output goes to stderr; a timeout kills its whole process group."""
    import signal
    import subprocess  # only a real finish spawns the worker's command

    began = time.monotonic()
    error = None
    program, refused = _program(root, argv[0], allow)
    if refused:
        return {"command": shlex.join(argv), "argv": argv, "exit": 126, "seconds": 0.0,
                "error": refused}  # fmt: skip
    runs = [program[0], *argv[1:]] if program is not None else argv  # the program recorded
    try:
        proc = subprocess.Popen(
            runs, cwd=root, env=git.clean_env(), stdin=subprocess.DEVNULL,
            stdout=sys.stderr.fileno(), start_new_session=True,
        )  # fmt: skip
        try:
            code = proc.wait(timeout=limit)
        except subprocess.TimeoutExpired:
            os.killpg(proc.pid, signal.SIGKILL)
            proc.wait()
            code, error = 124, f"timed out after {limit}s (verification.timeout)"
    except (FileNotFoundError, PermissionError, NotADirectoryError) as exc:
        code, error = (127 if isinstance(exc, FileNotFoundError) else 126), exc.strerror
    out: Record = {"command": shlex.join(argv), "argv": argv, "exit": code}
    out["seconds"] = round(time.monotonic() - began, 2)
    if program is not None:
        out["program"], out["sha256"] = program
    if error:
        out["error"] = error
    return out


def _program(
    root: Path, name: str, allow: frozenset[str]
) -> tuple[tuple[str, str] | None, str | None]:
    """((absolute path, sha256) of the program `name` runs, or None when none is found; why it
    is refused): a program inside the repository (its `.ai/` included), as found or as its
    links resolve, is the task's own work, never its judge; one in a directory `allow` does not
    hold is not the program the policy meant."""
    import hashlib
    import shutil

    path = os.environ.get("PATH", os.defpath)
    given = str(root / name) if "/" in name and not os.path.isabs(name) else name
    found = shutil.which(given, path=path) if "/" not in given else given
    if found is None or not os.path.isfile(found):
        return None, None
    here = os.path.realpath(root)
    for candidate in (os.path.abspath(found), os.path.realpath(found)):
        if candidate == here or candidate.startswith(here.rstrip("/") + "/"):
            return None, f"{name} resolves to {candidate}, inside the repository — refused"
    where = os.path.abspath(found)
    place = os.path.dirname(where)
    if place not in allow and os.path.realpath(place) not in allow:
        return None, (
            f"{name} resolves to {where}, in a directory verification.allow_paths does not allow"
            f" — refused (to run it, add {place} to verification.allow_paths)"
        )
    with open(found, "rb") as handle:
        digest = hashlib.sha256(handle.read()).hexdigest()
    return (os.path.abspath(found), digest), None


def tree(root: Path, state: Path, scope: list[str]) -> str | None:
    """The tree of the working tree as verified: tracked changes everywhere, untracked files
    inside `scope`; None when git cannot say (an unborn branch)."""
    scratch = state.parent / "tmp"
    scratch.mkdir(parents=True, exist_ok=True, mode=0o700)
    index = scratch / f"verify-index-{os.getpid()}"
    try:
        source = git.git_dir(root) / "index"
        if source.is_file():
            index.write_bytes(source.read_bytes())
        inside = [p for p in scope if p == "." or (root / p).exists()]
        steps: list[tuple[str, ...]] = [("add", "-u", "--", ".")]
        if inside:
            steps.append(("add", "--", *inside))
        for args in steps:
            code, _, _ = git.run_with_index(index, *args, cwd=root)
            if code != 0:
                return None
        code, out, _ = git.run_with_index(index, "write-tree", cwd=root)
        return out.strip() if code == 0 and out.strip() else None
    finally:
        index.unlink(missing_ok=True)
