"""`majordomus`: argument parsing, dispatch, exit codes. No domain logic lives here.

Each command is a module `majordomus.commands.<name>` exposing `HELP`, optionally
`arguments(parser)` and `stages(options)` (its composition, printed by `--pipeline`), and
`run(options, invocation) -> int`. Only the dispatched module is imported.
"""

from __future__ import annotations

import importlib
import os
import sys

from majordomus import commands

TYPE_CHECKING = False  # `typing` costs milliseconds the `version` path does not have
if TYPE_CHECKING:
    import argparse
    from types import ModuleType
    from typing import IO
    from typing import NoReturn

LEGEND = (
    "exit codes: 0 ok, 2 usage, 10 contract unmet, 11 drift found, 12 missing artifact, "
    "13 internal error, 15 refused"
)


def usage() -> str:
    lines = ["usage: majordomus <command> [options]", ""]
    for heading, names in commands.GROUPS:
        if not names:
            continue
        lines.append(heading)
        for name in names:
            lines.append(f"  {name:<12} {_module(name).HELP}")
        lines.append("")
    lines += [
        "global options:",
        "  --repo <path>  the repository (default: the git top-level of the current directory)",
        "  --json         machine output (JSON Lines) on read-only commands",
        "  --pipeline     print the equivalent pipeline of mj-* tools instead of running",
        "  --help         this text, or `majordomus <command> --help`",
        "",
        LEGEND,
    ]
    return "\n".join(lines) + "\n"


def _module(name: str) -> ModuleType:
    return importlib.import_module(commands.module_name(name))


def _split(argv: list[str]) -> tuple[str | None, list[str]]:
    """(command, the remaining arguments); global options may stand before the command."""
    index = 0
    while index < len(argv):
        arg = argv[index]
        if arg == "--repo":
            index += 2
            continue
        if arg.startswith("-"):
            index += 1
            continue
        return arg, argv[:index] + argv[index + 1 :]
    return None, argv


def parser_for(name: str, module: ModuleType) -> argparse.ArgumentParser:
    from mj_core.cli import Parser

    parser = Parser(prog=f"majordomus {name}", description=module.HELP, epilog=LEGEND)
    parser.add_argument("--repo", help="the repository (default: git top-level of cwd)")
    parser.add_argument("--json", action="store_true", help="machine output (JSON Lines)")
    if hasattr(module, "stages"):
        parser.add_argument(
            "--pipeline", action="store_true", help="print the equivalent mj-* pipeline"
        )
    if hasattr(module, "arguments"):
        module.arguments(parser)
    return parser


def _version(rest: list[str], out: IO[str], err: IO[str]) -> int:
    if rest:
        err.write(f"majordomus: version: unknown option {rest[0]}\n")
        return 2
    from majordomus.commands.version import installed

    out.write(f"majordomus {installed()}\n")
    return 0


def dispatch(argv: list[str], out: IO[str], err: IO[str]) -> int:
    if not argv:
        out.write(usage())
        return 2
    if argv[0] in ("-h", "--help", "help"):
        out.write(usage())
        return 0
    if argv[0] in ("version", "--version"):
        return _version(argv[1:], out, err)
    name, rest = _split(argv)
    if name is None:
        if "-h" in rest or "--help" in rest:
            out.write(usage())
            return 0
        err.write(f"majordomus: no command given\n{usage()}")
        return 2
    if name not in commands.public():
        err.write(f"majordomus: unknown command: {name}\n{usage()}")
        return 2
    from mj_core import timing

    with timing.phase(f"{name}: import"):
        module = _module(name)
    options = parser_for(name, module).parse_args(rest)
    from pathlib import Path

    from majordomus.invocation import Invocation

    inv = Invocation(
        cwd=Path.cwd(),
        repo=Path(options.repo) if options.repo else None,
        json=options.json,
        pipeline=getattr(options, "pipeline", False),
        stdout=out,
        stderr=err,
    )
    if inv.pipeline:
        from majordomus.compose import pipeline_text

        out.write(pipeline_text(module.stages(options, inv)) + "\n")
        return 0
    with timing.phase(f"{name}: run"):
        code: int = module.run(options, inv)
    return code


def main(argv: list[str] | None = None) -> int:
    args = sys.argv[1:] if argv is None else argv
    if args[:1] in (["version"], ["--version"]):  # the hot path: nothing else is imported
        code = _version(args[1:], sys.stdout, sys.stderr)
        if os.environ.get("MJ_TIMING") == "1":
            from mj_core import timing

            timing.emit(sys.stderr, as_json="--json" in args)
        return code
    from mj_core import timing
    from mj_core.cli import guard

    def body() -> int:
        try:
            return dispatch(args, sys.stdout, sys.stderr)
        finally:
            sys.stdout.flush()
            if timing.enabled():
                timing.emit(sys.stderr, as_json="--json" in args)

    return guard("majordomus", body)


def script() -> NoReturn:
    """The installed executable: `main` on the process's own arguments, then `exit_now`."""
    from mj_core.exitcodes import exit_now

    exit_now(main())
