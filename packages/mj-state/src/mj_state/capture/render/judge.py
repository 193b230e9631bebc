"""`mj-state capture-render-judge`: which renderings are rebuilt, over `mj-state
capture-render-facts`. A judge: it reads the one `capture-render` fact on stdin (or a file) and
never the repository. A file that is not a capture record is a FAIL naming it (10; the others
are still judged); a record without its rendering is rebuilt, and with `--force` every one.
They become one `verdict` in the archive's order, for `mj-state capture-render-write` (none
when nothing is rebuilt).
"""

from __future__ import annotations

from mj_core.stream.stage import Stage

from mj_state.capture.prune import judge as prunejudge

TYPE_CHECKING = False  # `typing` is not imported at run time on a start-up path
if TYPE_CHECKING:
    import argparse
    from collections.abc import Iterator
    from typing import Any

    from mj_core.stream.stage import Context

    Record = dict[str, Any]


def run(options: argparse.Namespace, context: Context) -> Iterator[Record]:
    fact = context.the_fact(options.input, "capture-render", "mj-state capture-render-facts")
    items = judge(fact)
    if any("problem" not in item for item in items):
        yield {"kind": "verdict", "action": "capture-render", "force": bool(fact["force"]),
               "items": items}  # fmt: skip
    else:
        yield from (shown(item) for item in items)


def judge(fact: Record) -> list[Record]:
    """In the archive's order: each file that is not a record (`problem`), each rendering to
    rebuild (`present`: whether one is replaced)."""
    out: list[Record] = []
    for found in fact["records"]:
        if "problem" in found:
            out.append({"path": found["path"], "problem": found["problem"]})
        elif fact["force"] or not found["rendered"]:
            out.append({"path": found["path"], "present": bool(found["rendered"])})
    return out


def shown(item: Record) -> Record:
    """An item as the command shows it: a FAIL, or the rendering rebuilt."""
    if "problem" in item:
        return prunejudge.failed(str(item["path"]), str(item["problem"]))
    target = str(item["path"]).removesuffix(".json") + ".md"
    return {"kind": "prompt-record", "action": "render", "path": target, "done": True,
            "detail": "rebuilt" if item["present"] else "was missing"}  # fmt: skip


STAGES = {"capture-render-judge": Stage(run)}
