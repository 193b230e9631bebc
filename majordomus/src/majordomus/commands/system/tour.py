"""`majordomus tour`: a walkthrough in a scratch repository, with the real commands.

It creates a git repository in a temporary directory and runs each step of `STEPS` as a
subprocess of the installed `majordomus`, printing the command, its output, its exit code and
every file it wrote. Add a step by appending one line to `STEPS`.
"""

from __future__ import annotations

import re
import shlex
import sys
from pathlib import Path

from majordomus.tour import projections as _tp
from majordomus.tour.world import environment
from majordomus.tour.world import executable
from majordomus.tour.world import git
from majordomus.tour.world import scratch
from majordomus.tour.world import snapshot

# Importing this module stays cheap: subprocess, shutil and tempfile are
# imported by the functions that run the tour, typing only for annotations.
TYPE_CHECKING = False
if TYPE_CHECKING:
    import argparse
    from collections.abc import Callable
    from typing import IO

    from majordomus.invocation import Invocation


class Step:
    """One step of the tour: a majordomus command, or a person's own action."""

    __slots__ = ("act", "argv", "expect", "stdin", "why")

    def __init__(
        self,
        why: str,
        argv: tuple[str, ...] = (),  # a majordomus command; empty for a person's own action
        act: Callable[[Path, str], str] | None = None,  # the person's action: (root, last output)
        stdin: str | None = None,
        expect: int = 0,
    ) -> None:
        self.why = why
        self.argv = argv
        self.act = act
        self.stdin = stdin
        self.expect = expect


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


def commit_layer(root: Path, last: str) -> str:
    """What a person does after `init`: commit the layer's tracked half (.ai/local/ is ignored).

    The hook lines `init` printed are passed on for the next step, which installs them.
    """
    env = environment(executable())
    git(root, env, "add", ".ai", ".gitignore")
    git(root, env, "commit", "-q", "-m", "adopt majordomus")
    hooks = re.findall(r"^  \S+: .+ \|\| exit \$\?$", last, re.M)
    said = "git add .ai .gitignore; git commit -m 'adopt majordomus'\nhook lines to install:\n"
    return said + "".join(f"{line}\n" for line in hooks)


def edit_in_scope(root: Path, last: str) -> str:
    """What a worker does between the commands: change a file inside the claimed scope."""
    del last
    target = root / "lib" / "greeting.py"
    target.parent.mkdir(parents=True, exist_ok=True)
    target.write_text('GREETING = "hello"\n', encoding="utf-8")
    return f"edited {target.relative_to(root)}\n"


def edit_outside_scope(root: Path, last: str) -> str:
    """A worker strays: a file outside the claimed scope changes."""
    del last
    target = root / "config" / "settings.ini"
    target.parent.mkdir(parents=True, exist_ok=True)
    target.write_text("debug = true\n", encoding="utf-8")
    return f"edited {target.relative_to(root)} (outside the claimed scope lib)\n"


def undo_outside_scope(root: Path, last: str) -> str:
    """The worker takes the stray change back."""
    del last
    import shutil

    shutil.rmtree(root / "config")
    return "removed config/settings.ini\n"


def pin_verification(root: Path, last: str) -> str:
    """What a person does after `init`: pin the verification the finish contract will run."""
    del last
    policy = root / ".ai" / "repo" / "policy.yaml"
    text = policy.read_text(encoding="utf-8")
    pinned = f"verification:\n  commands:\n    - {PINNED}\n"
    policy.write_text(text.replace("verification:\n", pinned, 1), encoding="utf-8")
    return f"pinned in .ai/repo/policy.yaml: verification.commands: [{PINNED}]\n"


def tamper_with_the_copy(root: Path, last: str) -> str:
    """A worker who wants to look done edits the task's copy instead of finishing."""
    del last
    copy = root / ".ai" / "local" / "state" / "current.yaml"
    text = copy.read_text(encoding="utf-8")
    copy.write_text(text.replace("outcome: active", "outcome: completed"), encoding="utf-8")
    return "sed -i 's/^outcome: active/outcome: completed/' .ai/local/state/current.yaml\n"


def stamped_line(root: Path, last: str) -> str:
    """What a person reads in the ledger: the newest checkpoint line and its `session`."""
    import json

    del last
    ledger = root / ".ai" / "local" / "state" / "ledger.jsonl"
    lines = [json.loads(x) for x in ledger.read_text(encoding="utf-8").splitlines() if x]
    line = next(x for x in reversed(lines) if x.get("event") == "task.checkpoint")
    return f"task.checkpoint  session={line.get('session')}  {line.get('checkpoint_path')}\n"


def show_session_record(root: Path, last: str) -> str:
    """The closed episode's record, as `session close` printed its path."""
    path = root / last.strip().splitlines()[0]
    return f"cat {last.strip().splitlines()[0]}\n" + path.read_text(encoding="utf-8")


HANDOVER = (
    "# Objective\nAdd a greeting.\n\n# Current State\nlib/greeting.py defines it.\n\n"
    "# Next Action\nNone; the task is complete.\n"
)


FINISH = ("finish", "--outcome", "completed")
PINNED = shlex.join([sys.executable, "-c", "import lib.greeting"])


STEPS: list[Step] = [
    Step("create the layer from the shipped skeleton", ("init",)),
    Step("commit the layer (its local half stays ignored)", act=commit_layer),
    Step("install the two hook lines init printed (majordomus installs none)", act=wire_hooks),
    Step("pin the verification command finish will run itself", act=pin_verification),
    Step("write the provider files the policy declares, stamped", ("update",)),
    Step("commit them through the pre-commit hook", act=_tp.commit_provider_files),
    Step("check that the layer is well-formed and what it declares is real", ("doctor",)),
    Step("a hand edit inside CLAUDE.md's generated region", act=_tp.hand_edit_claude),
    Step("doctor catches the edit against the stamp", ("doctor",), expect=10),
    Step("update refuses to overwrite it without --force", ("update",), expect=15),
    Step("regenerate on purpose", ("update", "--force")),
    Step("begin one scoped task", ("start", "add a greeting", "--scope", "lib")),
    Step("change a file inside the claimed scope", act=edit_in_scope),
    Step("is the task consistent with policy, scope and git?", ("check",)),
    Step("change a file outside the claimed scope", act=edit_outside_scope),
    Step("check names the file outside the scope, with a reproduce command", ("check",), expect=10),
    Step("take the stray change back", act=undo_outside_scope),
    Step("claim done by editing the task's copy instead of finishing", act=tamper_with_the_copy),
    Step("check takes the task from the ledger and names the edited field", ("check",), expect=10),
    Step(
        "reported again, then the copy written anew from the ledger",
        ("check", "--checkpoint"),
        expect=10,
    ),
    Step("open an episode: this sitting, independent of the task", ("session", "start")),
    Step("a short progress note (body on stdin)", ("checkpoint",), stdin="greeting added\n"),
    Step("the note's ledger line carries the episode's id", act=stamped_line),
    Step("a continuation record with its required sections", ("handover",), stdin=HANDOVER),
    Step(
        "close the episode: its record lists what the ledger stamped with it",
        ("session", "close"),
        stdin="Added the greeting; handed over.\n",
    ),
    Step("the record the sitting left (tracked, immutable)", act=show_session_record),
    Step(
        "completion claimed with a verification the policy does not pin: refused",
        (*FINISH, "--verify-command", "true"),
        expect=10,
    ),
    Step("done is the contract met; the tool runs the pinned verification itself", FINISH),
    Step("the ledger read back: the whole story", ("history",)),
    # keep this step last: the tour ends with what the next worker would be handed
    Step(
        "the context a next worker would receive, in authority order within a budget", ("context",)
    ),
]


def _run_step(step: Step, root: Path, tool: str, env: dict[str, str], last: str) -> tuple[int, str]:
    if step.act is not None:
        return 0, step.act(root, last)
    import subprocess

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
