"""The hook lines the policy's enforcement asks for (CLI-REFERENCE §2.31), and where they go.

`init` prints them and installs nothing; `doctor` verifies that they are wired. An entry whose
`path` is the bare `majordomus` is printed with the executable this process runs as
(`mj_core.self_exe`, quoted for the shell), so the hook finds the tool where the person
installed it, whatever the PATH git runs the hook with, and with the options that keep a
hook quiet (`PRINTING`): `doctor --brief` prints one line when nothing fails.
"""

from __future__ import annotations

import os
import shlex

from mj_core import share
from mj_core.errors import MjError
from mj_core.git import questions as git
from mj_core.yaml import strict as yamlstrict

from mj_policy.layer import loader as layer

TYPE_CHECKING = False  # `typing` is not imported at run time on a start-up path
if TYPE_CHECKING:
    from pathlib import Path
    from typing import Any

# options a hook adds after a declared majordomus command that change only how much it prints,
# never what it checks or its exit code; doctor's wiring proof takes the call with them as the
# declared one (`mj_watch.wiring.call.same_args`)
PRINTING: dict[tuple[str, ...], tuple[str, ...]] = {("doctor",): ("--brief",)}


def hooks_dir(root: Path) -> Path:
    """`core.hooksPath` when set (relative to the root), else the common git dir's `hooks/`."""
    configured = git.config_get(root, "core.hooksPath")
    if configured:
        return root / os.path.expanduser(configured)
    return git.common_dir(root) / "hooks"


def shown(root: Path, path: Path) -> str:
    try:
        return path.relative_to(root).as_posix()
    except ValueError:
        return str(path)


def _enforcement(root: Path) -> list[Any]:
    try:
        data = layer.load(root).policy.data
    except MjError:
        text = share.read_text("skeleton", "ai", "repo", "policy.yaml")
        data = yamlstrict.parse(text, "policy.yaml").data
    entries = data.get("enforcement")
    return entries if isinstance(entries, list) else []


def lines(root: Path) -> list[tuple[str, str]]:
    """(hook file as shown, the line to put in it) for each `git-hook:` enforcement entry."""
    from mj_core import self_exe as selfexe

    directory = hooks_dir(root)
    here = selfexe.program()
    out = []
    for entry in _enforcement(root):
        wired = entry.get("wired_by", "") if isinstance(entry, dict) else ""
        if not isinstance(wired, str) or not wired.startswith("git-hook:"):
            continue
        path = str(entry.get("path"))
        args = [str(arg) for arg in entry.get("args") or []]
        if path == selfexe.NAME:
            args += PRINTING.get(tuple(args), ())
        program = here if path == selfexe.NAME and here else path
        command = shlex.join([program, *args])
        out.append(
            (shown(root, directory / wired.removeprefix("git-hook:")), f"{command} || exit $?")
        )
    return out
