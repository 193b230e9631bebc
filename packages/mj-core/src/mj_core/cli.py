"""What every tool's `cli` shares: the parser, the stage table, the input rules, the error funnel.

A tool is a table from subcommand name to `Stage`. Its console script and the dispatcher both
go through that table, so the two cannot diverge: `parse` turns argv into options with the
tool's own parser, and `Stage.run(options, context)` yields JSON-native records.
"""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Callable
from collections.abc import Iterable
from collections.abc import Iterator
from dataclasses import dataclass
from dataclasses import field
from pathlib import Path
from typing import IO
from typing import Any
from typing import NoReturn

from mj_core import jsonl
from mj_core import timing
from mj_core.errors import MjError
from mj_core.errors import UsageError
from mj_core.exitcodes import ExitCode
from mj_core.findings import verdict

Record = dict[str, Any]


class Parser(argparse.ArgumentParser):
    """argparse whose usage errors are one line and exit 2 through the error funnel."""

    def error(self, message: str) -> NoReturn:
        raise UsageError(f"{self.prog}: {message}")


@dataclass
class Context:
    """What a stage may touch besides its options: where it runs and its input stream."""

    cwd: Path
    stdin: IO[bytes] | None = None
    upstream: Iterable[Record] | None = None  # in-process input from the previous stage
    repo: Path | None = None  # from --repo; else the git top-level of cwd
    _root: Path | None = field(default=None, repr=False)

    def root(self) -> Path:
        if self._root is None:
            from mj_core import git

            self._root = git.toplevel(self.repo or self.cwd)
        return self._root

    def records(self, path: str | None = None) -> Iterator[Record]:
        """Input records: upstream stage, a path argument, or stdin (a TTY is a usage error)."""
        if self.upstream is not None:
            yield from self.upstream
            return
        if path not in (None, "-"):
            assert path is not None
            with open(path, "rb") as handle:
                yield from jsonl.read(handle, path)
            return
        stream = self.stdin if self.stdin is not None else sys.stdin.buffer
        if stream.isatty():
            raise UsageError("no input: pipe JSON Lines on stdin or name a file")
        yield from jsonl.read(stream)


StageFn = Callable[[argparse.Namespace, Context], Iterable[Record]]


@dataclass(frozen=True)
class Stage:
    help: str
    arguments: Callable[[argparse.ArgumentParser], None]
    run: StageFn
    # A renderer: its `{"kind": "text", "text": ...}` records are written verbatim, the one
    # exception to JSON Lines on stdout (the end of a pipeline a person reads).
    raw: bool = False


def write_record(out: IO[bytes], record: Record, *, raw: bool) -> None:
    if raw and record.get("kind") == "text":
        out.write(str(record["text"]).encode("utf-8"))
    else:
        out.write(jsonl.dumps(record))


def build_parser(prog: str, table: dict[str, Stage], description: str) -> Parser:
    parser = Parser(prog=prog, description=description)
    parser.add_argument("--repo", help="repository root (default: the git top-level of cwd)")
    subs = parser.add_subparsers(dest="subcommand", metavar="<subcommand>", required=True)
    for name, stage in table.items():
        sub = subs.add_parser(name, help=stage.help, description=stage.help)
        sub.add_argument("--repo", default=argparse.SUPPRESS, help=argparse.SUPPRESS)
        stage.arguments(sub)
    return parser


def run_stage(
    table: dict[str, Stage], options: argparse.Namespace, context: Context
) -> Iterable[Record]:
    if getattr(options, "repo", None):
        context.repo = Path(options.repo)
    return table[options.subcommand].run(options, context)


def guard(prog: str, body: Callable[[], int], stderr: IO[str] | None = None) -> int:
    """The single error funnel: expected errors → their code and one line; anything else → 13."""
    err = stderr if stderr is not None else sys.stderr
    try:
        return body()
    except MjError as exc:
        text = exc.message if exc.message.startswith(prog) else f"{prog}: {exc.message}"
        err.write(text.splitlines()[0] if text else prog)
        err.write("\n")
        return int(exc.code)
    except SystemExit as exc:  # argparse's --help
        return exc.code if isinstance(exc.code, int) else 0
    except KeyboardInterrupt:
        return 130
    except BrokenPipeError:
        # The reader went away (`| head`): stop quietly, and keep Python from complaining at exit.
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        return 0
    except Exception as exc:
        if os.environ.get("MJ_DEBUG") == "1":
            raise
        err.write(f"{prog}: internal error: {type(exc).__name__}: {exc}\n")
        return int(ExitCode.INTERNAL_ERROR)


def tool_main(
    prog: str,
    description: str,
    table: dict[str, Stage],
    argv: list[str] | None,
    *,
    stdin: IO[bytes] | None = None,
    stdout: IO[bytes] | None = None,
    stderr: IO[str] | None = None,
) -> int:
    """`main` of a filter tool: parse, run the stage, write JSON Lines, return the verdict."""
    out = stdout if stdout is not None else sys.stdout.buffer

    def body() -> int:
        parser = build_parser(prog, table, description)
        args = sys.argv[1:] if argv is None else argv
        if not args:
            parser.print_help(sys.stdout)
            return int(ExitCode.USAGE)
        options = parser.parse_args(args)
        context = Context(cwd=Path.cwd(), stdin=stdin)
        seen: list[Record] = []
        raw = table[options.subcommand].raw
        try:
            for record in run_stage(table, options, context):
                write_record(out, record, raw=raw)
                if record.get("kind") == "finding":
                    seen.append(record)
        finally:
            out.flush()
            if timing.enabled():
                timing.emit(stderr or sys.stderr, as_json=False)
        return int(verdict(seen))

    return guard(prog, body, stderr)
