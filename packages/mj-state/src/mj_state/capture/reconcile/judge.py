"""`mj-state capture-reconcile-judge`: which orphaned prompt records link to which episode, over
`mj-state capture-reconcile-facts`.

A judge: it reads the one `capture-reconcile` fact on stdin (or a file) and never the
repository. A file that is not a capture record is a FAIL naming it (10; the others are still
judged). An orphan whose provider session no surviving evidence names stays an orphan; one that
two episodes claim is refused (left unlinked); one that one episode claims links to it (by its
working context when there is one, else by the ledger). With `--dry-run` each link is a
`prompt-record` not done; otherwise one `verdict` names them for `mj-state
capture-reconcile-write`.
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
    fact = context.the_fact(options.input, "capture-reconcile", "mj-state capture-reconcile-facts")
    items = judge(fact)
    if fact["dry_run"] or not any(item.get("episode") for item in items):
        yield from (shown(item, done=False) for item in items)
    else:
        yield {"kind": "verdict", "action": "capture-reconcile", "items": items}


def judge(fact: Record) -> list[Record]:
    """Each record the archive holds that is not a capture record or is an orphan, in order:
    not a record (`problem`), linked to an episode (`episode`, `link`), or why it is not."""
    out: list[Record] = []
    for found in fact["records"]:
        if "problem" in found:
            out.append({"path": found["path"], "problem": found["problem"]})
            continue
        key = found.get("provider_session")
        pairs = (fact.get("evidence") or {}).get(key, []) if key else []
        episodes = sorted({str(episode) for episode, _ in pairs})
        item: Record = {"path": found["path"], "episode": None, "link": None}
        if not episodes:
            detail = f"no episode of {key} survives: orphan"
            out.append({**item, "action": "reconcile", "detail": detail})
        elif len(episodes) > 1:
            said = f"{len(episodes)} episodes claim provider session {key}: {', '.join(episodes)}"
            out.append({**item, "action": "refuse", "detail": f"{said}; left unlinked"})
        else:
            links = sorted(str(link) for _, link in pairs)
            link = "session-context" if "session-context" in links else links[0]
            out.append({"path": found["path"], "episode": episodes[0], "link": link,
                        "action": "reconcile", "detail": f"{episodes[0]} ({link})"})  # fmt: skip
    return out


def shown(item: Record, *, done: bool) -> Record:
    """An item as the command shows it: a FAIL for a file that is not a capture record."""
    if "problem" in item:
        return prunejudge.failed(str(item["path"]), str(item["problem"]))
    return {"kind": "prompt-record", "action": item["action"], "path": item["path"],
            "done": done, "detail": item["detail"]}  # fmt: skip


STAGES = {"capture-reconcile-judge": Stage(run)}
