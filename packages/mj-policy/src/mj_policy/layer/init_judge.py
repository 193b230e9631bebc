"""`mj-policy init-judge`: what `init` creates, over `mj-policy init-facts`.

A judge: it reads the one `init` fact on stdin (or a file) and never the repository. Every
refusal comes before the first write, in this order: a `.ai/` already there without
`--extend`, a `.ai/` that is not a directory, a `.gitignore` a write would reach through a
link (15); with `--ci`, a job file a write could not reach or that is there already (15). The
verdict lists what `mj-policy init-write` creates, in order — each missing file of the layer,
each directory (a `.gitkeep` in an empty one under `.ai/repo/`), the `.gitignore` line — and
whether the run owes the adoption's ledger line; with `--import`, the policy to write in place
of the skeleton's (a projection declared for each provider whose files were read) or, over the
person's policy, a warning for each provider it projects nothing into.
"""

from __future__ import annotations

from mj_core.errors import Refused
from mj_core.stream.stage import Stage

from mj_policy.layer import skeleton

TYPE_CHECKING = False  # `typing` is not imported at run time on a start-up path
if TYPE_CHECKING:
    import argparse
    from collections.abc import Iterator
    from typing import Any

    from mj_core.stream.stage import Context

    Record = dict[str, Any]

IGNORED = f".gitignore:{skeleton.IGNORE_LINE}"  # the `created` name of the `.gitignore` line


def run(options: argparse.Namespace, context: Context) -> Iterator[Record]:
    others, fact = context.beside_fact(options.input, "init", "mj-policy init-facts")
    yield from others  # `init --import`'s pieces pass on
    yield judge(fact)


def judge(fact: Record) -> Record:
    """The verdict: what to create, in order; a refusal raised."""
    verdict: Record = {"kind": "verdict", "action": "init", "extend": bool(fact.get("extend")),
               "ci": fact.get("ci"), "created": [], "adoption": False}  # fmt: skip
    if fact.get("ci") is not None:
        job = fact["job"]
        if job["refusal"]:
            raise Refused(str(job["refusal"]))
        if job["there"]:
            raise Refused(
                f"{job['path']} exists; `init --ci {fact['ci']}` never overwrites it — merge the "
                f"job from share/ci/{fact['ci']}.yml into it by hand, or move it aside"
            )
        return {**verdict, "created": [job["path"]]}
    root = str(fact["root"])
    if fact["ai"] != "absent" and not fact.get("extend"):
        raise skeleton.existing(root, manifest=bool(fact["manifest"]))
    if fact["ai"] == "other":
        raise Refused(f"{root}/.ai exists and is not a directory — move it aside")
    if fact["gitignore"]["refusal"]:
        raise Refused(str(fact["gitignore"]["refusal"]))
    imported = _imported(fact["import"]) if "import" in fact else {}
    created = [str(f["path"]) for f in fact["files"] if not f["there"]]
    for directory in fact["directories"]:
        created += _directory(directory, created)
    if not fact["gitignore"]["ignored"]:
        created.append(IGNORED)
    return {**verdict, "created": created, "adoption": bool(fact["hatch_open"]), **imported}


def _imported(given: Record) -> Record:
    """`init --import`'s part: the skeleton's policy with a projection declared for each
    provider whose files were read and that it projects nothing into, or, over a policy there
    already (the person's), a warning for each such provider."""
    from mj_core import share

    from mj_policy.adoption import policy as importpolicy

    pieces = given["pieces"]
    if given["policy"] is not None:
        missing = importpolicy.missing(str(given["policy"]), pieces)
        return {"policy": None, "warnings": importpolicy.warnings(missing)}
    text = share.path("skeleton", "ai", "repo", "policy.yaml").read_text(encoding="utf-8")
    wanted = importpolicy.missing(text, pieces)
    return {"policy": importpolicy.declared(text, wanted) if wanted else None, "warnings": []}


def _directory(directory: Record, made: list[str]) -> list[str]:
    """What one listed directory needs, with what this run makes before it counted: a
    directory outside `.ai/repo/` made when absent; one under it given a `.gitkeep` while it
    is empty (git carries no empty directory, and a clone must still resolve every section)."""
    relative = str(directory["path"])
    below = any(path.startswith(relative + "/") for path in made)
    if not relative.startswith(skeleton.TRACKED):
        return [] if directory["exists"] or below else [relative + "/"]
    if directory["filled"] or below or directory["keep"]:
        return []
    return [f"{relative}/{skeleton.KEEP}"]


STAGES = {"init-judge": Stage(run)}
