"""`majordomus init [--extend]`: create the .ai/ layer from the shipped skeleton."""

from __future__ import annotations

TYPE_CHECKING = False  # `typing` is not imported at run time on a start-up path
if TYPE_CHECKING:
    import argparse
    from collections.abc import Iterable
    from typing import Any

    from majordomus.invocation import Invocation

    Record = dict[str, Any]


def render(records: Iterable[Record], options: argparse.Namespace, inv: Invocation) -> int:
    from mj_policy import hooks

    from majordomus import render as show

    created: list[str] = []

    def text(record: Record) -> None:
        if record.get("kind") == "created":
            created.append(str(record["path"]))

    code, summary = show.stream(records, inv, text)
    if code or summary.get("error"):
        return code
    lines = hooks.lines(inv.root())
    if inv.json:
        from mj_core import jsonl

        for hook, line in lines:
            inv.stdout.write(jsonl.dumps({"kind": "hook", "file": hook, "line": line}).decode())
        return code
    inv.stdout.write(_text(created, lines))
    return code


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
