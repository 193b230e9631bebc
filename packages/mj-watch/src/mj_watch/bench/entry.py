"""`majordomus bench`: time each public command as a whole process and judge it by a baseline.

The dispatcher's `majordomus bench …` parses the declared options and calls `run`;
`python -m mj_watch.bench …` parses the same declaration (plus `--repo`) and ends in `run` too.
Targets come from `share/commands.yaml`; the start-up floor (`python -c pass`, a bare import of
the dispatcher) is measured beside them so every figure can be read as a multiple of it.
"""

from __future__ import annotations

import sys
from pathlib import Path

from mj_core.cli import Parser
from mj_core.declaration import commands as declare
from mj_core.errors import UsageError
from mj_core.funnel import guard
from mj_core.git import questions as git

from mj_watch.bench import markdown
from mj_watch.bench import session
from mj_watch.bench import settings
from mj_watch.bench.sampling import Plan

TYPE_CHECKING = False  # `typing` is imported for annotations only
if TYPE_CHECKING:
    import argparse
    from typing import IO

MODES = {"cold": ("cold",), "warm": ("warm",), "both": ("cold", "warm")}


def run(options: argparse.Namespace, root: Path, out: IO[str], err: IO[str]) -> int:
    """Measure, keep, report; then the baseline write or check. Returns the exit code."""
    if options.force and not options.write_baseline:
        raise UsageError("bench: --force only goes with --write-baseline")
    if options.markdown and not options.list:
        markdown.check(root, Path(options.markdown))  # refused before minutes of measuring
    policy = settings.load(root)
    plan = Plan(
        warmup=policy.warmup if options.warmup is None else options.warmup,
        samples=policy.samples if options.samples is None else options.samples,
        modes=MODES[options.mode],
    )
    bench = session.Session(options, root, out=out, err=err, plan=plan, policy=policy)
    if options.list:
        return bench.list_targets()
    return bench.run()


def main(argv: list[str] | None = None) -> int:
    def body() -> int:
        parser = Parser(prog="majordomus bench", description=__doc__.splitlines()[0])
        parser.add_argument("--repo", help="the repository (default: git top-level of cwd)")
        declare.add_options(parser, list(declare.command("bench")["options"]))
        options = parser.parse_args(sys.argv[1:] if argv is None else argv)
        root = git.toplevel(Path(options.repo) if options.repo else Path.cwd())
        return run(options, root, sys.stdout, sys.stderr)

    return guard("majordomus", body)
