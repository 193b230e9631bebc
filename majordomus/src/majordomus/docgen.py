"""Generate `docs/CLI.md`, the command reference, from the declaration (`share/commands.yaml`).

`python -m majordomus.docgen` rewrites it; `--check` exits 10 when it is stale. The page is made
from the parsers `majordomus` builds from that declaration, so every option a `--help` lists is
documented, and nothing else is.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path

from mj_core.exit_codes import ExitCode

from majordomus import cli

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

TARGET = Path("docs") / "CLI.md"
MEANING = {
    ExitCode.OK: "success; for a check, nothing found",
    ExitCode.USAGE: "bad arguments, unknown command or option, or not inside a git repository",
    ExitCode.CONTRACT_UNMET: "a deterministic contract failed (any blocking FAIL)",
    ExitCode.DRIFT_FOUND: "`watch` found drift; informational, never a hook blocker",
    ExitCode.MISSING_ARTIFACT: "a required file, record or tool is absent",
    ExitCode.INTERNAL_ERROR: "the tool itself broke; never counts as a pass",
    ExitCode.REFUSED: "declined to overwrite or to proceed",
}


def _help_text(name: str) -> str:
    os.environ["COLUMNS"] = "100"  # argparse wraps to the terminal; the page must not depend on it
    return cli.declared_help(name).rstrip() + "\n"


def render() -> str:
    parts = [
        "# Command reference\n",
        "\nGenerated from the dispatcher's parsers by `python -m majordomus.docgen`"
        "; do not edit.\n",
        "\n## Exit codes\n\n| code | name | meaning |\n|---|---|---|\n",
    ]
    parts += [f"| {int(code)} | {code.name} | {MEANING[code]} |\n" for code in ExitCode]
    parts.append("\n## Usage\n\n```\n" + cli.usage() + "```\n")
    from mj_core.declaration import commands as declare

    for group in declare.declaration()["groups"]:
        parts.append(f"\n## {group['name']}\n")
        for parent in group["commands"]:
            if parent == "version":
                parts.append("\n### version\n\n```\nusage: majordomus version [--json]\n```\n")
                parts.append(_json_line(declare.command(parent)))
                continue
            for name in _with_actions(parent):
                parts.append(f"\n### {name}\n\n```\n{_help_text(name)}```\n")
                parts.append(_json_line(declare.command(name)))
    return "".join(parts)


JSON = {
    "document": "`--json`: one `{}` document, the whole answer (no summary after it).",
    "ledger": "`--json`: the stored ledger lines, verbatim (no summary after them); with "
    "`--validate` or `--rotate`, JSON Lines: {}, then `summary`.",
    "none": "No `--json`: its standard output is another protocol, or a walkthrough for a "
    "person (2).",
}


def _json_line(spec: dict[str, Any]) -> str:
    """What `--json` writes: the kinds of record, each with its schema under
    `share/schemas/pipeline/`, and the `summary` that ends the stream."""
    kinds = ", ".join(f"`{kind}`" for kind in spec.get("emits") or [])
    shape = spec.get("json")
    if shape is None and spec.get("actions") and not spec.get("pipeline"):
        return ""  # a group: each action says its own
    if shape is None:
        lead = f"JSON Lines: {kinds}, then " if kinds else "JSON Lines: "
        return f"\n`--json`: {lead}`summary` (last; its `exit` is the command's).\n"
    return "\n" + JSON[str(shape)].format(kinds) + "\n"


def _with_actions(parent: str) -> list[str]:
    """The command, then (a command with actions) each action, as `majordomus <name>` takes it."""
    from mj_core.declaration import commands as declare

    spec = declare.command(parent)
    names = [f"{parent} {action}" for action in spec.get("actions") or []]
    return [parent, *names]


def main(argv: list[str] | None = None) -> int:
    args = sys.argv[1:] if argv is None else argv
    root = Path(args[-1]) if args and not args[-1].startswith("-") else Path.cwd()
    target = root / TARGET
    text = render()
    current = target.read_text(encoding="utf-8") if target.exists() else None
    if "--check" in args:
        if current != text:
            print(f"stale: {TARGET} (regenerate with `python -m majordomus.docgen`)")
            return 10
        return 0
    from mj_core.write import atomic

    atomic.create(target, text.encode("utf-8"), replace=True, root=root)
    print(f"wrote {TARGET}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
