"""`mj-policy mcp-install-judge`: the entry a client's configuration needs, over
`mj-policy mcp-install-facts`.

A judge: it reads the one `mcp-install` fact on stdin (or a file) and never the repository. A
file that could not be read is refused with its own code; one that does not parse, or whose
servers are not a table, is 10; an entry named `majordomus` that does not run `majordomus mcp`
is 15 (nothing is overwritten). Otherwise: without `--write`, or with the entry already there,
one `mcp` record (the entry to add by hand, and the keys the client's row adds that the entry
found lacks); with `--write` and no entry, one `verdict` naming the file's whole new text for
`mj-policy mcp-install-write`.
"""

from __future__ import annotations

from mj_core.errors import MjError
from mj_core.errors import Refused
from mj_core.exit_codes import ExitCode
from mj_core.stream.stage import Stage

from mj_policy import providers
from mj_policy.hooks import mcp_wiring as mcpwiring

TYPE_CHECKING = False  # `typing` is not imported at run time on a start-up path
if TYPE_CHECKING:
    import argparse
    from collections.abc import Iterator
    from typing import Any

    from mj_core.stream.stage import Context

    Record = dict[str, Any]


def run(options: argparse.Namespace, context: Context) -> Iterator[Record]:
    yield judge(context.the_fact(options.input, "mcp-install", "mj-policy mcp-install-facts"))


def judge(fact: Record) -> Record:
    """The record to show, or the verdict of a write; a refusal raised with its exit code."""
    provider = providers.get(str(fact["provider"]))
    block = mcpwiring.config_block(provider)
    problem = fact.get("problem")
    if problem:
        raise MjError(str(problem["message"]), ExitCode(int(problem["code"])))
    text = fact.get("text")
    data = None if text is None else mcpwiring.parsed(block, str(text))
    found = mcpwiring.state(data, provider)
    record: Record = {"kind": "mcp", "provider": provider.key, "config": block["config"],
                      "state": found}  # fmt: skip
    if block.get("needs"):
        record["needs"] = block["needs"]
    if found == "wired":
        record["lacks"] = mcpwiring.lacks(data, block, mcpwiring.entry(provider))
    if found == "other":
        raise Refused(
            f"{block['config']}: {block['table']}.{mcpwiring.NAME} is there and does not run "
            "`majordomus mcp`; nothing was overwritten"
        )
    shown = mcpwiring.snippet(provider)
    if not fact.get("write") or found == "wired":
        return {**record, "action": "print" if not fact.get("write") else "present", "text": shown}
    return {
        "kind": "verdict",
        "action": "mcp-install",
        "provider": provider.key,
        "config": block["config"],
        "replace": text is not None,
        "content": mcpwiring.added(provider, data, None if text is None else str(text)),
        "record": {**record, "state": "wired", "action": "wrote", "text": shown},
    }


STAGES = {"mcp-install-judge": Stage(run)}
