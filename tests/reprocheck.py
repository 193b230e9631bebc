"""Every reproduce command the behavioural suite saw runs as printed.

A FAIL or DRIFT finding carries the command a person pastes to see the problem for themselves
(`[reproduce: …]`). `sampling/sitecustomize.py` keeps every finding a tool process emitted,
with the directory the process ran in; at the end of the session each distinct reproduce
command runs there once, under `sh`, as a person would paste it (the installed `majordomus`
first on PATH). It must start: a shell syntax error, a command that is not found, or a
program that rejects its own command line (an option it does not know, `grep` taking a
pattern that begins with `-` as options, git's usage exit 129) is a problem naming the
command and the tool process that printed it.

The test's repository has moved on since the finding (a later step fixed what was found, or
the test removed a file), so what the command finds is not judged, only that it starts: an
exit of 0 or 1, or 2 when all the program said is that a file is not there.
"""

from __future__ import annotations

import os
import re
import subprocess
from collections.abc import Iterable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from dataclasses import field
from pathlib import Path

# what a program says when it did not accept its command line, or the shell could not run it
REJECTED = re.compile(
    r"invalid option|unrecognized option|unknown option|unrecognized arguments|"
    r"option requires an argument|usage:|syntax error|unexpected|not found|"
    r"no such option|invalid argument|bad option|missing operand|ambiguous argument",
    re.IGNORECASE,
)
GONE = re.compile(r"No such file or directory|not a git repository|does not exist", re.IGNORECASE)


@dataclass
class Verdict:
    ran: int = 0
    skipped: int = 0
    problems: list[str] = field(default_factory=list)


def commands(found: Iterable[tuple[Path, list[object]]]) -> dict[str, tuple[str, str]]:
    """Each distinct reproduce command → (the directory it was printed in, the command that
    printed it): the first place each was seen."""
    out: dict[str, tuple[str, str]] = {}
    for _path, batch in found:
        for sample in batch:
            record = getattr(sample, "record", None)
            if not isinstance(record, dict) or record.get("kind") != "finding":
                continue
            script = record.get("reproduce")
            cwd = getattr(sample, "cwd", None)
            if isinstance(script, str) and script and cwd and script not in out:
                out[script] = (cwd, " ".join(getattr(sample, "argv", ["?"])))
    return out


def problem(script: str, code: int, said: str) -> str | None:
    """Why the command did not start as printed, or None when it did."""
    rejected = REJECTED.search(said)
    if (code in (126, 127, 129) and said.strip()) or (rejected and not _only_gone(said)):
        return f"exit {code}: {said.strip()[:300]!r}"
    if code in (0, 1) or code == 127:  # 127 without a word: `command -v` found nothing
        return None
    if code == 2 and _only_gone(said):
        return None
    if code == 2:
        return f"exit 2: {said.strip()[:300]!r}"
    return None  # another program's own verdict (majordomus 10, 12 …): it ran


def _only_gone(said: str) -> bool:
    lines = [line for line in said.splitlines() if line.strip()]
    return bool(lines) and all(GONE.search(line) for line in lines)


def run(found: dict[str, tuple[str, str]], bin_dir: Path, env: dict[str, str]) -> Verdict:
    verdict = Verdict()
    env = {k: v for k, v in env.items() if k != "MJTEST_SAMPLES"}  # nothing of this is sampled
    env["PATH"] = f"{bin_dir}{os.pathsep}{env.get('PATH', '')}"

    def one(item: tuple[str, tuple[str, str]]) -> str | None:
        script, (cwd, argv) = item
        if not Path(cwd).is_dir():
            return "skipped"
        try:
            proc = subprocess.run(
                ["sh", "-c", script],
                cwd=cwd,
                env=env,
                stdin=subprocess.DEVNULL,
                capture_output=True,
                text=True,
                errors="replace",
                timeout=30,
                check=False,
            )
        except subprocess.TimeoutExpired:
            return None  # it started
        why = problem(script, proc.returncode, proc.stderr)
        return None if why is None else f"`{script}` (printed by `{argv}`) does not run: {why}"

    with ThreadPoolExecutor(max_workers=4) as pool:
        for said in pool.map(one, sorted(found.items())):
            if said == "skipped":
                verdict.skipped += 1
                continue
            verdict.ran += 1
            if said is not None:
                verdict.problems.append(said)
    return verdict
