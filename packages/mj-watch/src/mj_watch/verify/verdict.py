"""`mj-watch verify`: CI's judgement over `verify`'s facts — pure, it never opens the repository.

- coverage: each commit of the range that changes a path (outside `.ai/`, always allowed) is
  covered by a published task (`cover`). Otherwise FAIL naming the commit, and the task that
  would cover it had its finish been published, or any task claim on the remote for those
  paths whose start no ledger shows (deleted or truncated); INFO instead when the base policy
  sets `verify.require_task: false`.
- witness: each published ledger is one chain that only grew, else FAIL naming commit and line;
  with `--witness FILE`, each ledger the remote held when `base` was judged is still published,
  its lines those it held with lines added, else FAIL naming the first line that differs
  (`verify.held_before`).
- reproof: each claimed completion re-proven (OK) or FAIL naming task, commit and command.
- layer: `doctor` and `update --check` at head exit 0, else FAIL naming what they found; a
  client hook that failed open for a task of the range is FAIL naming the task
  (`verify.fail_open`); a
  commit whose tree no published pre-commit pass names is WARN, FAIL with
  `verify.require_hooks: true` (`bypass`).
"""

from __future__ import annotations

from mj_core.errors import MissingArtifact
from mj_core.findings import Finding
from mj_core.paths import within
from mj_core.stream.stage import Stage

from mj_watch.verify import bypass
from mj_watch.verify import cover
from mj_watch.verify import fail_open as failopen
from mj_watch.verify import held_before as heldbefore
from mj_watch.verify import judge_lines as judgelines

TYPE_CHECKING = False
if TYPE_CHECKING:
    import argparse
    from collections.abc import Iterator
    from typing import Any

    from mj_core.stream.stage import Context

    Record = dict[str, Any]

NEEDED = ("verify-range", "verify-policy", "verify-ledgers", "verify-layer")


def judge(records: list[Record]) -> Iterator[Finding]:
    facts = {r["fact"]: r for r in records if r.get("kind") == "fact"}
    for name in NEEDED:
        if name not in facts:
            raise MissingArtifact(
                f"verify: the facts carry no {name} fact — `mj-state verify-facts`"
            )
    rng, policy = facts["verify-range"], facts["verify-policy"]
    earlier = facts.get("verify-witness")
    seen, gone = heldbefore.against(facts["verify-ledgers"], earlier)
    again = f"majordomus verify --base {rng['base']} --head {rng['head']}"
    yield from witness(seen, again)
    yield from witnessed(gone, earlier)
    found = cover.covering(rng, policy, seen)
    yield from coverage(found, policy, seen, again)
    yield from failopen.judge(seen, found)
    yield from bypass.judge(policy, seen, found, again)
    proofs = [r for r in records if r.get("fact") == "verify-reproof"]
    yield from judgelines.reproofs(proofs, policy)
    yield from judgelines.layer(facts["verify-layer"])


def witness(seen: Record, again: str) -> Iterator[Finding]:
    for ledger in seen["ledgers"]:
        if ledger["problem"]:
            clone, problem = ledger["clone"], ledger["problem"]
            message = f"the published ledger of clone {clone} was rewritten: {problem}"
            yield Finding(
                "FAIL",
                "witness",
                ledger["ref"],
                message,
                f"git log -p {ledger['commit'] or ledger['ref']}",
            )
        else:
            message = f"one chain of {ledger['count']} line(s) that only grew"
            yield Finding("OK", "witness", ledger["ref"], message)
    for problem in seen["problems"]:
        yield Finding("WARN", "witness", str(problem["ref"]), f"{problem['why']}; not read")


def witnessed(gone: list[Record], earlier: Record | None) -> Iterator[Finding]:
    if earlier is None:
        message = (
            "no record of what the remote held at base (--witness FILE): a ledger "
            "rewritten and recomputed from its first line is judged only as it is now"
        )
        yield Finding("INFO", "witness", "base", message)
        return
    when = f"{str(earlier['head'])[:12]} was judged ({earlier['path']})"
    for was in gone:
        message = (f"the remote held {was['count']} line(s) here when {when}; the ledger is no "
                   "longer published: deleted since")  # fmt: skip
        yield Finding("FAIL", "witness", was["ref"], message, "git for-each-ref refs/majordomus/")


def coverage(
    covered: list[cover.Covered], policy: Record, seen: Record, again: str
) -> Iterator[Finding]:
    level = "FAIL" if policy["require_task"] else "INFO"
    for found in covered:
        short = found.commit["commit"][:12]
        if found.task is not None:
            yield Finding("OK", "coverage", short, f"covered by task {found.task['task_id']}")
        elif found.unfinished is not None:
            message = (f"task {found.unfinished['task_id']} covers it, but no published ledger "
                       "records that task's finish: not finished yet, or its ledger was "
                       "truncated since")  # fmt: skip
            yield Finding(level, "coverage", short, message, again, path=_first(found.paths))
        else:
            message = _uncovered(found.paths, seen)
            yield Finding(level, "coverage", short, message, again, path=_first(found.paths))


def _first(paths: list[str]) -> str | None:
    """The path a report locates an uncovered commit at: the first it changes."""
    return paths[0] if paths else None


def _uncovered(paths: list[str], seen: Record) -> str:
    shown = ", ".join(paths[:3]) + (f" and {len(paths) - 3} more" if len(paths) > 3 else "")
    message = f"changes {shown}, and no task published on the remote covers it"
    started = {row["task_id"] for led in seen["ledgers"] for row in led["started"]}
    for claim in seen["claims"]:
        if claim["id"] not in started and any(within(p, s) for p in paths for s in claim["scope"]):
            message += (f"; task {claim['id']} claims that scope ({claim['ref']}, clone "
                        f"{claim['clone']}) but no published ledger starts it: deleted or "
                        "truncated")  # fmt: skip
    return message


def _run(options: argparse.Namespace, context: Context) -> Iterator[Record]:
    records = list(context.records(options.input))
    for finding in judge(records):
        yield finding.record()
    facts = {r["fact"]: r for r in records if r.get("kind") == "fact"}
    seen, _ = heldbefore.against(facts["verify-ledgers"], facts.get("verify-witness"))
    yield heldbefore.kept(seen, facts.get("verify-witness"), facts["verify-range"]["head"])


STAGES = {"verify": Stage(_run)}
