"""`majordomus bench`: time each public command as a whole process and judge it by a baseline.

Run as `majordomus bench …` or `python -m majordomus.bench …` (what `tox -e bench` calls); both
parse the same arguments and end in `run`. Targets come from `share/commands.yaml`; the start-up
floor (`python -c pass`, a bare import of the dispatcher) is measured beside them so every
figure can be read as a multiple of it.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from mj_core.errors import MjError

from majordomus.benchmark import settings
from majordomus.benchmark.runner import Plan

TYPE_CHECKING = False  # `typing` is imported for annotations only
if TYPE_CHECKING:
    from typing import IO
    from typing import Any

FIXTURES = ("small", "large")


def arguments(parser: argparse.ArgumentParser) -> None:
    add = parser.add_argument
    add("commands", nargs="*", metavar="command", help="targets (default: every public command)")
    add("--all", action="store_true", help="every public command and the start-up floor")
    add("--list", action="store_true", help="list the targets and exit")
    add("--samples", type=_count(1), help="samples per target (policy benchmark.samples)")
    add("--warmup", type=_count(0), help="unsampled runs first (policy benchmark.warmup)")
    add("--mode", choices=("cold", "warm", "both"), default="warm", help="default: warm")
    add("--fixture", action="append", choices=FIXTURES, help="measure on a generated repository")
    add(
        "--scale",
        action="append",
        type=_count(1),
        help="large fixture size multiplier (repeatable; default 1)",
    )
    add("--format", choices=("text", "json"), default="text", help="output (default: text)")
    add("--no-save", action="store_true", help="do not keep the run under .ai/local/benchmarks/")
    add("--check", action="store_true", help="compare p50/p95/p99 with the baseline")
    add("--write-baseline", action="store_true", help="make this run the baseline")
    add("--force", action="store_true", help="with --write-baseline: accept a dirty tree")
    add("--baseline", metavar="PATH", help="baseline file (default .ai/repo/benchmarks/...)")
    add("--report-only", action="store_true", help="print the --check verdict, exit 0")
    add("--markdown", metavar="PATH", help="write the performance tables to PATH")


def _count(least: int) -> Any:
    def parse(text: str) -> int:
        if not text.isdigit() or int(text) < least:
            raise argparse.ArgumentTypeError(f"{text!r}: an integer ≥ {least} is expected")
        return int(text)

    return parse


def run(options: argparse.Namespace, root: Path, out: IO[str], err: IO[str]) -> int:
    """Measure, keep, report; then the baseline write or check. Returns the exit code."""
    from majordomus.benchmark import session

    if options.force and not options.write_baseline:
        raise _usage("--force only goes with --write-baseline")
    policy = settings.load(root)
    plan = Plan(
        warmup=policy.warmup if options.warmup is None else options.warmup,
        samples=policy.samples if options.samples is None else options.samples,
        modes={"cold": ("cold",), "warm": ("warm",), "both": ("cold", "warm")}[options.mode],
    )
    bench = session.Session(options, root, out=out, err=err, plan=plan, policy=policy)
    if options.list:
        return bench.list_targets()
    return bench.run()


def _usage(message: str) -> MjError:
    from mj_core.errors import UsageError

    return UsageError(f"bench: {message}")


def main(argv: list[str] | None = None) -> int:
    from mj_core import git
    from mj_core.cli import Parser
    from mj_core.cli import guard

    def body() -> int:
        parser = Parser(prog="majordomus bench", description=__doc__.splitlines()[0])
        parser.add_argument("--repo", help="the repository (default: git top-level of cwd)")
        arguments(parser)
        options = parser.parse_args(sys.argv[1:] if argv is None else argv)
        root = git.toplevel(Path(options.repo) if options.repo else Path.cwd())
        return run(options, root, sys.stdout, sys.stderr)

    return guard("majordomus", body)


if __name__ == "__main__":
    raise SystemExit(main())
