"""`mj-policy archive-judge`: the archive a profile makes, over `mj-policy archive-facts`.

A judge: it reads the one `archive` fact on stdin (or a file) and never the repository. `--list`
is the profiles. Otherwise, in this order: a profile not declared is 12; an output inside the
working tree elsewhere than `.ai/local/`, or one that exists without `--force`, 15; an entry
unmerged in the index 10; then `.ai/local/` is dropped always, submodules (their content is
another repository) and, under `derived: drop`, the derived paths, and a profile that selects
nothing is 10. The plan (`action: plan`) names the members for `mj-policy archive-write`.
"""

from __future__ import annotations

from mj_core.errors import ContractUnmet
from mj_core.errors import MissingArtifact
from mj_core.errors import Refused
from mj_core.stream.stage import Stage

TYPE_CHECKING = False  # `typing` is not imported at run time on a start-up path
if TYPE_CHECKING:
    import argparse
    from collections.abc import Iterator
    from typing import Any

    from mj_core.stream.stage import Context

    Record = dict[str, Any]

SUBMODULE = "160000"


def run(options: argparse.Namespace, context: Context) -> Iterator[Record]:
    yield from judge(context.the_fact(options.input, "archive", "mj-policy archive-facts"))


def judge(fact: Record) -> list[Record]:
    """The profiles (`--list`), or the plan; a refusal raised."""
    known = {str(p["name"]): p for p in fact["profiles"]}
    if fact["list"]:
        return [{"kind": "archive", "action": "profile", "name": p["name"],
                 "description": p["description"], "source": p["source"]}
                for p in known.values()]  # fmt: skip
    name = str(fact["profile"])
    if name not in known:
        raise MissingArtifact(f"archive profile {name!r}: not declared (known: {', '.join(known)})")
    if fact["inside"] and not fact["local"] and fact.get("given_out"):
        raise Refused(
            f"--out {fact['given_out']}: inside the working tree; write it under .ai/local/ "
            "or outside"
        )
    if fact["exists"] and not fact["force"]:
        raise Refused(f"{fact['shown']}: already exists; --force replaces it")
    for _, _, stage, path in fact["entries"]:
        if stage != "0":
            raise ContractUnmet(f"{path}: unmerged in the index — resolve it, then archive")
    entries = [(mode, blob, path) for mode, blob, _, path in fact["entries"]]
    local = [e for e in entries if e[2].startswith(".ai/local/")]
    module = [e for e in entries if e[0] == SUBMODULE]
    kept = [e for e in entries if e not in local and e not in module]
    derived = set(fact["derived"]) & {e[2] for e in kept}
    members = [list(e) for e in kept if e[2] not in derived]
    if not members:
        raise ContractUnmet(f"archive profile {name!r} selects nothing from git's index")
    dropped = {"derived": len(derived), "local": len(local), "submodule": len(module)}
    return [{"kind": "archive", "action": "plan", "profile": name, "format": fact["format"],
             "out": fact["out"], "shown": fact["shown"], "members": members,
             "dropped": dropped, "force": fact["force"], "dry_run": fact["dry_run"]}]  # fmt: skip


STAGES = {"archive-judge": Stage(run)}
