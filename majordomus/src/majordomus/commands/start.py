"""`majordomus start "<task>" --scope <p>[,<p>…]`: begin the one scoped task of this checkout."""

from __future__ import annotations

TYPE_CHECKING = False  # `typing` is not imported at run time on a start-up path
if TYPE_CHECKING:
    import argparse
    from typing import Any

    from majordomus.invocation import Invocation


HELP = "begin the one scoped task of this checkout"


def arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("task", nargs="?", help="the task, one line (required)")
    parser.add_argument("--scope", help="claimed paths, comma-separated (required)")
    parser.add_argument("--profile", help="profile (default: policy profiles.default)")
    parser.add_argument("--owner", help="free-form owner (default: $USER)")


def stages(options: argparse.Namespace, inv: Invocation) -> list[list[str]]:
    _require(options, inv)
    argv = ["mj-state", "start", options.task, "--scope", options.scope]
    if options.profile:
        argv += ["--profile", options.profile]
    if options.owner:
        argv += ["--owner", options.owner]
    return [argv]


def _require(options: argparse.Namespace, inv: Invocation) -> None:
    """Outside a repository is the first thing to say (2); then the missing arguments (2)."""
    inv.root()
    pairs = (("task", options.task), ("--scope", options.scope))
    missing = [name for name, value in pairs if not value]
    if missing:
        from mj_core.errors import UsageError

        raise UsageError(f"start: the following arguments are required: {', '.join(missing)}")


def run(options: argparse.Namespace, inv: Invocation) -> int:
    from mj_core import jsonl
    from mj_core.findings import render_text

    from majordomus import compose

    after = ""
    for record in compose.run(stages(options, inv), inv):
        if inv.json:
            inv.stdout.write(jsonl.dumps(record).decode())
        elif record.get("kind") == "record":
            inv.stdout.write(_started(record))
            after = _next(record)
        else:
            inv.stdout.write(render_text(record) + "\n")
    inv.stdout.write(after)
    return 0


def _started(record: dict[str, Any]) -> str:
    task = record["task"]
    lines = [
        f"started {task['id']}  profile={task['profile']}  scope={','.join(task['scope'])}",
        f"  {record['path']}",
    ]
    if record["archived"]:
        lines.append(f"  archived the previous task to {record['archived']}")
    return "\n".join(lines) + "\n"


def _next(record: dict[str, Any]) -> str:
    read = f"worker reads {record['instructions']}; " if record["instructions"] else ""
    return f"next: {read}checkpoint every {record['checkpoint_interval']}; majordomus check\n"
