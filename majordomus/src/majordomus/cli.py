"""`majordomus`: argument parsing, dispatch, exit codes. No domain logic lives here.

Every command is declared once in `share/commands.yaml` (`mj_core.declaration.commands`): its help,
its
options, its pipeline of tool stages. The parser is built from that declaration, the
pipeline is run in-process (`majordomus.compose`) or printed (`--pipeline`), and the module
`majordomus.commands.<command>` only renders the last stage's records for a person
(`render(records, options, invocation) -> int`); a command with no pipeline (`tour`,
`version`, `bench`) has `run(options, invocation) -> int` instead.
"""

from __future__ import annotations

import importlib
import os
import sys

TYPE_CHECKING = False  # `typing` costs milliseconds the `version` path does not have
if TYPE_CHECKING:
    import argparse
    from types import ModuleType
    from typing import IO
    from typing import Any
    from typing import NoReturn

LEGEND = (
    "exit codes: 0 ok, 2 usage, 10 contract unmet, 11 drift found, 12 missing artifact, "
    "13 internal error, 15 refused"
)
GLOBAL_VALUES = ("--repo",)  # global options that take a value
VERSION = ("version", "--version", "-V")  # the forms that print the version


def usage() -> str:
    from mj_core.declaration import commands as declare

    lines = ["usage: majordomus <command> [options]", ""]
    for group in declare.declaration()["groups"]:
        lines.append(group["name"])
        for name in group["commands"]:
            lines.append(f"  {name:<12} {declare.command(name)['help']}")
        lines.append("")
    lines += [
        "global options:",
        "  --repo <path>  the repository (default: the git top-level of the current directory)",
        "  --json         machine output: the last stage's stream (JSON Lines) as it is",
        "  --pipeline     print the equivalent pipeline of mj-* tools (POSIX sh) instead",
        "  --help         this text, or `majordomus <command> --help`",
        "",
        LEGEND,
    ]
    return "\n".join(lines) + "\n"


def module_for(name: str) -> ModuleType:
    """The module that renders (or runs) command `name` (an action renders with its parent)."""
    from majordomus import commands

    return importlib.import_module(commands.module_name(name))


def split(argv: list[str]) -> tuple[str | None, list[str]]:
    """(the command named, every other argument); global options may stand anywhere. A command
    with actions takes the next words that name one (`rules vendor status`)."""
    from mj_core.declaration import commands as declare

    words = _words(argv)
    if not words:
        return None, argv
    first, at = words[0]
    if first not in declare.names():
        return first, argv[:at] + argv[at + 1 :]
    spec, used = declare.command(first), [at]
    name = first
    actions = spec.get("actions") or []
    later = [w for w, _ in words[1:]]
    for size in (2, 1):
        candidate = " ".join(later[:size])
        if len(later) >= size and candidate in actions:
            name = f"{first} {candidate}"
            used += [index for _, index in words[1 : 1 + size]]
            break
    else:
        if actions and later:  # no action takes a word of its own before it is named
            from mj_core.errors import UsageError

            from majordomus import guidance

            raise UsageError(guidance.unknown_action(first, later[0], actions))
        if actions and spec.get("default") and not _asks_help(argv):
            name = f"{first} {spec['default']}"
    return name, [arg for index, arg in enumerate(argv) if index not in used]


def _asks_help(argv: list[str]) -> bool:
    return "-h" in argv or "--help" in argv


def _words(argv: list[str]) -> list[tuple[str, int]]:
    """(word, index) of the arguments that are not options or option values, up to `--`."""
    from mj_core.declaration import commands as declare

    values = {*GLOBAL_VALUES, *declare.value_flags()}
    out: list[tuple[str, int]] = []
    skip = False
    for index, arg in enumerate(argv):
        if skip:
            skip = False
            continue
        if arg == "--":
            break
        if arg.startswith("-"):
            skip = arg in values
            continue
        out.append((arg, index))
    return out


def parser_for(name: str) -> argparse.ArgumentParser:
    from mj_core.cli import Parser
    from mj_core.declaration import commands as declare

    spec = declare.command(name)
    parser = Parser(prog=f"majordomus {name}", description=spec["help"], epilog=LEGEND)
    parser.add_argument("--repo", help="the repository (default: git top-level of cwd)")
    if spec.get("json") != "none":  # else its standard output is another protocol
        parser.add_argument("--json", action="store_true", help="machine output (JSON Lines)")
    if spec.get("pipeline"):
        parser.add_argument(
            "--pipeline", action="store_true", help="print the equivalent mj-* pipeline"
        )
    declare.add_options(parser, list(spec.get("options") or []))
    return parser


def _version(rest: list[str], out: IO[str], err: IO[str]) -> int:
    if rest not in ([], ["--json"]):
        wrong = next((arg for arg in rest if arg != "--json"), rest[-1])
        err.write(f"majordomus: version: unknown option {wrong}\n")
        return 2
    from majordomus.commands.system.version import installed

    if rest:  # --json: the version record, then the summary that ends every stream
        summary = '{"kind":"summary","stage":"majordomus version","exit":0,"counts":{"version":1}}'
        out.write(f'{{"kind":"version","version":"{installed()}"}}\n{summary}\n')
        return 0
    out.write(f"majordomus {installed()}\n")
    return 0


def dispatch(argv: list[str], out: IO[str], err: IO[str]) -> int:
    if not argv:
        out.write(usage())
        return 2
    if argv[0] in ("-h", "--help", "help"):
        out.write(usage())
        return 0
    if argv[0] in VERSION:
        return _version(argv[1:], out, err)
    from mj_core.declaration import commands as declare

    name, rest = split(argv)
    if name is None:
        if "-h" in rest or "--help" in rest:
            out.write(usage())
            return 0
        err.write(f"majordomus: no command given\n{usage()}")
        return 2
    if name.split(" ", 1)[0] not in declare.public():
        from majordomus import guidance

        err.write(guidance.unknown_command(name, declare.public()) + "\n")
        return 2
    return _run(name, rest, out, err)


def _run(name: str, rest: list[str], out: IO[str], err: IO[str]) -> int:
    from pathlib import Path

    from mj_core import timing
    from mj_core.declaration import commands as declare
    from mj_core.errors import UsageError

    from majordomus.invocation import Invocation

    spec = declare.command(name)
    if not "".join(rest).isascii():  # a byte that is not UTF-8 is refused, never stored
        from majordomus.arg_text import refuse_undecodable

        refuse_undecodable(name, rest)
    asks_help = "-h" in rest or "--help" in rest
    special = not spec.get("pipeline") and not spec.get("actions")  # tour, bench
    root = None if asks_help or special else _root(rest)
    if spec.get("actions") and asks_help:
        out.write(declared_help(name))
        return 0
    if spec.get("actions") and not spec.get("pipeline"):
        *most, last = spec["actions"]
        raise UsageError(f"{name}: name an action: {', '.join(most)} or {last}")
    with timing.phase(f"{name}: import"):
        module = module_for(name)
    options = parser_for(name).parse_args(rest)
    options.command = name
    if getattr(options, "json", False) or spec.get("json") == "none":
        from mj_core import sanitise

        sanitise.plain_stdout()  # a machine stream: JSON keeps its exact data
    inv = Invocation(
        cwd=Path.cwd(),
        repo=Path(options.repo) if options.repo else None,
        json=getattr(options, "json", False),
        pipeline=getattr(options, "pipeline", False),
        stdout=out,
        stderr=err,
        _root=root,
    )
    if not spec.get("pipeline"):  # under --json, an error it raises ends the stream too
        from majordomus import render

        return int(render.ran(name, module.run, options, inv))
    from majordomus import compose

    argvs = compose.stages(spec, options, inv)
    if inv.pipeline:
        out.write(compose.pipeline_text(argvs) + "\n")
        return 0
    with timing.phase(f"{name}: run"):
        ended: int = module.render(compose.run(argvs, inv), options, inv)
    return ended


def _root(rest: list[str]) -> Any:
    """The repository, asked before the arguments are judged: outside one, 2 comes first."""
    from pathlib import Path

    from mj_core.git import questions as git

    where = rest[rest.index("--repo") + 1] if "--repo" in rest[:-1] else None
    return git.toplevel(Path(where) if where else Path.cwd())


def main(argv: list[str] | None = None) -> int:
    args = sys.argv[1:] if argv is None else argv
    if args[:1] and args[0] in VERSION:  # the hot path: nothing else is imported
        code = _version(args[1:], sys.stdout, sys.stderr)
        if os.environ.get("MJ_TIMING") == "1":
            from mj_core import timing

            timing.emit(sys.stderr, as_json="--json" in args)
        return code
    if args[:2] == ["capture", "tool"] and not _asks_help(args):  # before every tool call
        from majordomus import tool_hook_cli as toolhookcli

        return toolhookcli.main(args[2:], sys.stdout, sys.stderr)
    from mj_core import timing
    from mj_core.funnel import guard

    def body() -> int:
        try:
            if args[:1] == ["plan"]:  # a listing kept for this plan needs no parser
                from majordomus import plan_fast as planfast

                kept = planfast.answer(args, sys.stdout, sys.stderr)
                if kept is not None:
                    return kept
            return dispatch(args, sys.stdout, sys.stderr)
        finally:
            sys.stdout.flush()
            if timing.enabled():
                timing.emit(sys.stderr, as_json="--json" in args)

    return guard("majordomus", body)


def script() -> NoReturn:
    """The installed executable: `main` on the process's own arguments, then `exit_now`.

    The cyclic garbage collector is off for the run (`exit_codes.unattended`)."""
    from mj_core.exit_codes import exit_now
    from mj_core.exit_codes import unattended

    unattended()
    exit_now(main())


def declared_help(name: str) -> str:
    """`majordomus <name> --help` as the dispatcher prints it (docs/CLI.md): a group's lists
    its actions."""
    from mj_core.declaration import commands as declare

    spec = declare.command(name)
    if not spec.get("actions"):
        return parser_for(name).format_help()
    from majordomus import guidance

    own = parser_for(name).format_help() if spec.get("pipeline") else None
    return guidance.group_help(name, own, LEGEND)
