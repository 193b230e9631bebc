"""`mj-policy vendor-update-judge`: whether the shipped rule package may be swapped in, over
`mj-policy vendor-update-facts`.

A judge: it reads the one `vendor-update` fact on stdin (or a file) and never the repository.
A vendored copy that fails its own manifest was edited by hand: refused (15) without `--force`.
A copy that is the shipped package already is one `vendored` record that changed nothing;
otherwise one `verdict` names the files that change, for `mj-policy vendor-update-write`.
"""

from __future__ import annotations

from mj_core.errors import Refused
from mj_core.stream.stage import Stage

TYPE_CHECKING = False  # `typing` is not imported at run time on a start-up path
if TYPE_CHECKING:
    import argparse
    from collections.abc import Iterator
    from typing import Any

    from mj_core.stream.stage import Context

    Record = dict[str, Any]


def run(options: argparse.Namespace, context: Context) -> Iterator[Record]:
    yield judge(context.the_fact(options.input, "vendor-update", "mj-policy vendor-update-facts"))


def judge(fact: Record) -> Record:
    """The verdict of a swap, or the record of one that changes nothing; a refusal raised."""
    package, problems = str(fact["package"]), [str(p) for p in fact.get("problems") or []]
    if fact.get("present"):
        if problems and not fact.get("force"):
            raise Refused(
                f"{package}/{problems[0]} — the vendored package was edited by hand; "
                "`majordomus rules vendor diff` shows it, `--force` replaces it"
            )
        changed = [str(name) for name in fact.get("differing") or []]
    else:
        changed = [str(name) for name in fact.get("shipped") or []]
    if not changed:
        return {"kind": "vendored", "package": package, "changed": []}
    return {"kind": "verdict", "action": "vendor-update", "package": package,
            "force": bool(fact.get("force")), "changed": changed}  # fmt: skip


STAGES = {"vendor-update-judge": Stage(run)}
