"""What every tool's `cli` shares: the parser, the stage table, the input rules, the error funnel.

A tool is a table from subcommand name to `Stage`. Its console script and the dispatcher both
go through that table, so the two cannot diverge: `parse` turns argv into options with the
tool's own parser, and `Stage.run(options, context)` yields JSON-native records.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Mapping
from pathlib import Path

from mj_core import sanitise
from mj_core import timing
from mj_core.english import argparse
from mj_core.errors import UsageError
from mj_core.exit_codes import ExitCode
from mj_core.exit_codes import exit_now
from mj_core.exit_codes import unattended
from mj_core.funnel import guard
from mj_core.stream import jsonl
from mj_core.stream import protocol as streams
from mj_core.stream.stage import Context
from mj_core.stream.stage import Stage
from mj_core.stream.stage import run_stream

TYPE_CHECKING = False  # `typing` is not imported at run time on a start-up path
if TYPE_CHECKING:
    from collections.abc import Iterator
    from typing import IO
    from typing import Any
    from typing import NoReturn

    Record = dict[str, Any]


_TERMINAL: list[int] = []  # asked once: each argument a parser adds builds a formatter


def columns() -> int:
    """The width argparse formats help to, found without `shutil` (it imports bz2 and lzma).

    The same rule as `shutil.get_terminal_size().columns - 2`: a valid positive `COLUMNS`,
    else the terminal on standard output (asked once per process), else 80.
    """
    given = os.environ.get("COLUMNS")
    width = 0
    if given:
        try:
            width = int(given)
        except ValueError:
            width = 0
    if width <= 0:
        if not _TERMINAL:
            _TERMINAL.append(_terminal())
        width = _TERMINAL[0]
    return (width or 80) - 2


def _terminal() -> int:
    try:
        return os.get_terminal_size(sys.__stdout__.fileno()).columns  # type: ignore[union-attr]
    except (AttributeError, ValueError, OSError):
        return 0


class HelpFormatter(argparse.HelpFormatter):
    """argparse's formatter given an explicit width, so building a parser never imports shutil."""

    def __init__(
        self,
        prog: str,
        indent_increment: int = 2,
        max_help_position: int = 24,
        width: int | None = None,
    ) -> None:
        super().__init__(
            prog, indent_increment, max_help_position, columns() if width is None else width
        )


class Parser(argparse.ArgumentParser):
    """argparse whose usage errors are one line and exit 2 through the error funnel.

    Its help formatter (and its subparsers', which are `Parser`s too) is `HelpFormatter`.
    """

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        kwargs.setdefault("formatter_class", HelpFormatter)
        super().__init__(*args, **kwargs)

    def error(self, message: str) -> NoReturn:
        raise UsageError(f"{self.prog}: {message}")


def write_record(out: IO[bytes], record: Record, *, raw: bool) -> None:
    kind = record.get("kind")
    if raw and kind == "text":
        out.write(sanitise.terminal(str(record["text"])).encode("utf-8", sanitise.ESCAPE))
    elif kind == "written":  # records already serialised (`mj_core.stream.protocol.written`)
        out.write(streams.written_part(record, "jsonl"))
    else:
        out.write(jsonl.dumps(record))


class LazyTable(Mapping[str, Stage]):
    """A stage table that imports a stage's module only when that stage is used.

    `where` maps each subcommand to the module whose `STAGES` dict defines it. A tool run for
    one subcommand then imports one concept module, not all of them (start-up is the budget of
    a hook); `--help` still lists every stage, importing them all.
    """

    def __init__(self, where: dict[str, str]) -> None:
        self._where = where

    def __getitem__(self, name: str) -> Stage:
        import importlib

        stage: Stage = importlib.import_module(self._where[name]).STAGES[name]
        return stage

    def __iter__(self) -> Iterator[str]:
        return iter(self._where)

    def __len__(self) -> int:
        return len(self._where)


def _chosen(argv: list[str] | None, names: list[str]) -> str | None:
    """The subcommand `argv` names (global `--repo <path>` skipped), or None."""
    index = 0
    while argv is not None and index < len(argv):
        if argv[index] == "--repo":
            index += 2
            continue
        if argv[index].startswith("-"):
            return None  # --help and the like: the whole table
        return argv[index] if argv[index] in names else None
    return None


def build_parser(
    prog: str,
    table: Mapping[str, Stage],
    description: str,
    argv: list[str] | None = None,
    declared: Mapping[str, Record] | None = None,
) -> Parser:
    """The tool's parser, its options from the declaration (`declared`: another one, for a
    tool of a test); given `argv`, only the stage it names is registered."""
    from mj_core.declaration import commands as declare

    names = list(table)
    chosen = _chosen(argv, names)
    if declared is None:  # one stage run: its declaration alone is read
        one = declare.stage(prog, chosen) if chosen is not None else None
        declared = {chosen: one} if chosen is not None and one is not None else declare.stages(prog)
    parser = Parser(prog=prog, description=description)
    parser.add_argument("--repo", help="repository root (default: the git top-level of cwd)")
    # `prog` given, argparse does not format a usage to find it (the tool has no positionals,
    # so that usage is `prog` itself)
    subs = parser.add_subparsers(
        dest="subcommand", metavar="<subcommand>", required=True, prog=prog
    )
    for name in names if chosen is None else [chosen]:
        spec = declared[name]
        sub = subs.add_parser(name, help=spec["help"], description=spec["help"])
        sub.add_argument("--repo", default=argparse.SUPPRESS, help=argparse.SUPPRESS)
        declare.add_options(sub, spec["options"])
    return parser


def stage_parser(prog: str, name: str) -> Parser:
    """One stage's parser alone, for a pipeline composed in one process: the namespace it gives
    is the one `build_parser`'s gives for `[name, …]` (`subcommand` set by the caller), without
    the tool's own parser and its subparsers, which a composed stage never needs."""
    from mj_core.declaration import commands as declare

    spec = declare.stage(prog, name)
    if spec is None:
        raise UsageError(f"{prog}: {name!r}: no such stage")
    parser = Parser(prog=f"{prog} {name}", description=spec["help"])
    parser.add_argument("--repo", help="repository root (default: the git top-level of cwd)")
    declare.add_options(parser, spec["options"])
    return parser


def _ended(prog: str, summary: Record, stderr: IO[str] | None) -> int:
    """The exit code of a stage's stream; its own error (not a stopped upstream's) on stderr."""
    code = int(summary.get("exit", ExitCode.INTERNAL_ERROR))
    if summary.get("error") and not summary.get("stopped"):
        text = str(summary["error"])
        (stderr or sys.stderr).write((text if text.startswith(prog) else f"{prog}: {text}") + "\n")
    return code


class Tool:
    """One filter tool: its name, its stage table, and the `parse`/`main` both callers share."""

    __slots__ = ("description", "prog", "table")

    def __init__(self, prog: str, description: str, table: Mapping[str, Stage]) -> None:
        self.prog = prog
        self.description = description
        self.table = table

    def parse(self, argv: list[str]) -> argparse.Namespace:
        return build_parser(self.prog, self.table, self.description, argv).parse_args(argv)

    def parse_stage(self, argv: list[str]) -> argparse.Namespace:
        """`parse` for an argv the tool composed itself (`[stage, options…]`, no global
        option before it): the stage's parser alone (`stage_parser`)."""
        if not argv or argv[0] not in self.table:
            return self.parse(argv)
        options = stage_parser(self.prog, argv[0]).parse_args(argv[1:])
        options.subcommand = argv[0]
        return options

    def main(
        self,
        argv: list[str] | None = None,
        *,
        stdin: IO[bytes] | None = None,
        stdout: IO[bytes] | None = None,
        stderr: IO[str] | None = None,
    ) -> int:
        return tool_main(
            self.prog, self.description, self.table, argv, stdin=stdin, stdout=stdout, stderr=stderr
        )

    def script(self) -> NoReturn:
        """The installed executable: `main` on the process's own arguments, then `exit_now`.

        The cyclic garbage collector is off for the run (`exit_codes.unattended`)."""
        unattended()
        exit_now(self.main())


def tool_main(
    prog: str,
    description: str,
    table: Mapping[str, Stage],
    argv: list[str] | None,
    *,
    stdin: IO[bytes] | None = None,
    stdout: IO[bytes] | None = None,
    stderr: IO[str] | None = None,
    declared: Mapping[str, Record] | None = None,
) -> int:
    """`main` of a filter tool: parse, run the stage, write its stream, return its verdict."""
    out = stdout if stdout is not None else sys.stdout.buffer

    def body() -> int:
        args = sys.argv[1:] if argv is None else argv
        parser = build_parser(prog, table, description, args, declared)
        if not args:
            parser.print_help(sys.stdout)
            return int(ExitCode.USAGE)
        options = parser.parse_args(args)
        context = Context(cwd=Path.cwd(), stdin=stdin)
        stage = table[options.subcommand]
        name = f"{prog} {options.subcommand}"
        last: Record = {}
        try:
            for record in run_stream(name, stage, options, context):
                if record.get("kind") == "summary":
                    last = record
                    if record.get("raw"):
                        continue  # text for a person ends with its text, not a JSON line
                write_record(out, record, raw=stage.raw)
        finally:
            out.flush()
            if timing.enabled():
                timing.emit(stderr or sys.stderr, as_json=False)
        return _ended(prog, last, stderr)

    return guard(prog, body, stderr)
