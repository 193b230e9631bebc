"""`majordomus init`: create the `.ai/` layer from the shipped skeleton; installs nothing else.

The writing happens in `mj-policy init`; this module prints what was created, the hook lines
the policy's enforcement asks for (it installs none) and the next commands.
"""

from __future__ import annotations

TYPE_CHECKING = False  # `typing` is not imported at run time on a start-up path
if TYPE_CHECKING:
    import argparse

    from majordomus.invocation import Invocation


HELP = "create the .ai/ layer from the shipped skeleton (--extend adds what is missing)"


def arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--extend",
        action="store_true",
        help="add every missing skeleton file to an existing layer; overwrite nothing",
    )


def stages(options: argparse.Namespace, inv: Invocation) -> list[list[str]]:
    return [["mj-policy", "init", *(["--extend"] if options.extend else [])]]


def run(options: argparse.Namespace, inv: Invocation) -> int:
    from mj_core import jsonl
    from mj_policy import hooks

    from majordomus import compose

    created = [r["path"] for r in compose.run(stages(options, inv), inv) if r["kind"] == "created"]
    lines = hooks.lines(inv.root())
    if inv.json:
        for path in created:
            inv.stdout.write(jsonl.dumps({"kind": "created", "path": path}).decode())
        for hook, line in lines:
            inv.stdout.write(jsonl.dumps({"kind": "hook", "file": hook, "line": line}).decode())
        return 0
    inv.stdout.write(_text(created, lines))
    return 0


def _text(created: list[str], lines: list[tuple[str, str]]) -> str:
    out = ["created", *(f"  {path}" for path in created)] if created else ["nothing to add"]
    out.append("local state: .ai/local/state/ (ignored by git; this checkout's own)")
    out.append("hook lines (majordomus installs no hook; add each line to its file, executable):")
    out += [f"  {hook}: {line}" for hook, line in lines]
    out += [
        "next: majordomus update      # write the provider files the policy declares",
        "next: majordomus doctor      # verify the layer and that the hook lines are wired",
        "next: git add .ai .gitignore # .ai/repo/ belongs to the repository; .ai/local/ never",
    ]
    return "\n".join(out) + "\n"
