"""What `bench` measures: each public command's `bench` entries in `share/commands.yaml`,
plus the start-up floor.

Adding a target is one entry under its command: its `argv` (after `majordomus`), its `class`
(read-only targets share one repository; mutating ones get a fresh copy per sample), the exit
codes its scenario `accept`s, optional unmeasured `setup` runs, the `stdin` it reads,
`repository: empty` for a command that needs a repository without a layer, a `label` for
a second target of one command (`finish --check`), and the file a run must leave behind
(`expect`, repository-relative) for a command whose exit code proves nothing: a provider hook
exits 0 even when it failed and only logged it.
"""

from __future__ import annotations

import sys
from pathlib import Path

from mj_core.errors import MissingArtifact

TYPE_CHECKING = False  # `typing` is imported for annotations only
if TYPE_CHECKING:
    from typing import Any

CATALOGUE = "share/commands.yaml"
LOOP = "sum(range(10**6))"  # a fixed amount of work: its CPU time is the machine's scale


class Target:
    """One measured command: its argv, its class, the exit codes it may end with."""

    __slots__ = (
        "accept", "argv", "command", "empty", "expect", "klass", "once", "setup", "stdin",
    )  # fmt: skip

    def __init__(  # noqa: PLR0917 - a catalogue entry's fields, in their order
        self,
        command: str,
        argv: tuple[str, ...],  # the whole process: executable first
        klass: str,  # read-only | mutating
        accept: frozenset[int],
        setup: tuple[tuple[str, ...], ...] = (),
        empty: bool = False,  # runs in a new repository without a layer (`init`), one per run
        stdin: bytes | None = None,  # what the process reads on stdin (a record body)
        once: bool = False,  # measured in the first scenario only: its work does not depend on it
        expect: str | None = None,  # a path every run must have written, else the target fails
    ) -> None:
        self.command = command
        self.argv = argv
        self.klass = klass
        self.accept = accept
        self.setup = setup
        self.empty = empty
        self.stdin = stdin
        self.once = once
        self.expect = expect

    @property
    def mutating(self) -> bool:
        return self.klass == "mutating"


def executable() -> list[str]:
    """The installed `majordomus` beside this interpreter, else `python -m majordomus`."""
    script = Path(sys.executable).parent / "majordomus"
    return [str(script)] if script.is_file() else [sys.executable, "-m", "majordomus"]


def floor() -> list[Target]:
    """The start-up floor every figure is read against: an empty interpreter, a bare import;
    and the machine's scale, a fixed loop whose CPU time compares one machine with another."""
    python = sys.executable
    return [
        Target("floor:python", (python, "-c", "pass"), "read-only", frozenset({0})),
        Target(
            "floor:import", (python, "-c", "import majordomus.cli"), "read-only", frozenset({0})
        ),
        Target("floor:loop", (python, "-c", LOOP), "read-only", frozenset({0})),
    ]


def catalogue() -> list[Target]:
    """Every command's `bench` entries in the declaration (`share/commands.yaml`)."""
    from mj_core.declaration import commands as declare

    prefix = executable()
    out = []
    for name, spec in declare.commands().items():
        for entry in spec.get("bench") or []:
            out.append(_target({**entry, "command": entry.get("label") or name}, prefix))
    return out


def _target(entry: dict[str, Any], prefix: list[str]) -> Target:
    argv = [str(a) for a in entry["argv"]]
    setup = entry.get("setup") or []
    return Target(
        command=str(entry["command"]),
        argv=(*prefix, *argv),
        klass=str(entry["class"]),
        accept=frozenset(int(c) for c in entry["accept"]),
        setup=tuple(_setup_argv([str(a) for a in s], prefix) for s in setup),
        empty=entry.get("repository") == "empty",
        stdin=entry["stdin"].encode() if "stdin" in entry else None,
        once=bool(entry.get("once")),
        expect=str(entry["expect"]) if "expect" in entry else None,
    )


def _setup_argv(argv: list[str], prefix: list[str]) -> tuple[str, ...]:
    """A setup run: `majordomus <argv>`, or an `mj-*` tool installed beside this interpreter."""
    if argv[0].startswith("mj-"):
        return (str(Path(sys.executable).parent / argv[0]), *argv[1:])
    return (*prefix, *argv)


def select(names: list[str], public: list[str]) -> list[Target]:
    """The named targets (all public ones when none is named); a name not benchmarked → 12."""
    known = {t.command: t for t in catalogue() if t.command.split(" ", 1)[0] in public}
    if not names:
        return list(known.values())
    missing = [n for n in names if n not in known]
    if missing:
        offered = ", ".join(sorted(known)) or "none"
        raise MissingArtifact(f"bench: unknown target {missing[0]} — public targets: {offered}")
    return [known[n] for n in dict.fromkeys(names)]
