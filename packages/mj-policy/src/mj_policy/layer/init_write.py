"""`mj-policy init-write`: the writes of `init` — each file, directory and line its verdict
lists, created atomically and never over anything there — then, while the bootstrap hatch was
open, its `layer.adopted` line asked of `mj-state log`.

It passes the judge's stream on; an `init` verdict becomes the writes (with `--import`, the
policy its verdict holds in place of the skeleton's, and its warnings). It does not take the
verdict on trust: it gathers the facts again itself and judges again, and a verdict that
differs (a path added to it, a file that appeared or a ledger made since judging, a replay)
writes nothing (15). What it writes comes from the shipped skeleton, never from the stream.
"""

from __future__ import annotations

import os

from mj_core.errors import Refused
from mj_core.stream.stage import Stage
from mj_core.write import atomic

from mj_policy.layer import init_facts
from mj_policy.layer import init_judge
from mj_policy.layer import skeleton

TYPE_CHECKING = False  # `typing` is not imported at run time on a start-up path
if TYPE_CHECKING:
    import argparse
    from collections.abc import Iterator
    from pathlib import Path
    from typing import Any

    from mj_core.stream.stage import Context

    Record = dict[str, Any]


def run(options: argparse.Namespace, context: Context) -> Iterator[Record]:
    pieces: list[Record] = []  # `init --import`'s, passed on by the facts and the judge
    for record in context.records(options.input):
        if record.get("kind") == "verdict" and record.get("action") == "init":
            yield from init(context.root(), record, pieces if "policy" in record else None)
            continue
        if record.get("kind") == "piece":
            pieces.append(record)
        yield record


def init(root: Path, verdict: Record, pieces: list[Record] | None = None) -> Iterator[Record]:
    """The creation judged again over the tree as it is now, then made."""
    from mj_policy.adoption import policy as importpolicy

    ci = verdict.get("ci") if isinstance(verdict.get("ci"), str) else None
    extend = verdict.get("extend") is True
    again = init_judge.judge(init_facts.gather(root, extend=extend, ci=ci, pieces=pieces))
    if again != verdict:
        raise Refused("init: the verdict is not what the repository gives now; nothing was written")
    changed = {importpolicy.POLICY: str(again["policy"]).encode()} if again.get("policy") else {}
    created = 0
    for relative in execute(root, again, changed):
        created += 1
        yield {"kind": "created", "path": relative}
    yield from again.get("warnings") or []
    if again["adoption"]:
        yield skeleton.adoption(created, extend=bool(again["extend"]))


def create(root: Path, *, extend: bool, changed: dict[str, bytes] | None = None) -> Iterator[str]:
    """Write every missing part of the layer; yield each path created, in order: the three
    stages in one call. `changed`: a skeleton file's bytes to write instead of the shipped ones
    (`init --import`'s policy)."""
    verdict = init_judge.judge(init_facts.gather(root, extend=extend, ci=None))
    yield from execute(root, verdict, changed)


def execute(root: Path, verdict: Record, changed: dict[str, bytes] | None = None) -> Iterator[str]:
    """Create what the verdict lists; yield each path created. `changed`: a skeleton file's
    bytes to write instead of the shipped ones (`init --import`'s policy)."""
    if verdict["ci"] is not None:
        yield from _job(root, str(verdict["ci"]))
        return
    shipped = dict(skeleton.sources())
    for relative in verdict["created"]:
        if relative == init_judge.IGNORED:
            _ignore(root)
        elif relative.endswith("/"):
            atomic.make_dirs(root / relative, root=root)
        elif relative in shipped:
            source = shipped[relative]
            mode = 0o755 if os.access(source, os.X_OK) else 0o644
            data = (changed or {}).get(relative) or source.read_bytes()
            atomic.create(root / relative, data, mode=mode, root=root)
        else:  # a directory's `.gitkeep`
            atomic.create(root / relative, b"", mode=0o644, root=root)
        yield relative


def _ignore(root: Path) -> None:
    """Add the `.ai/local` line to `.gitignore` (the judge found no line that ignores it)."""
    path = root / ".gitignore"
    old = path.read_bytes() if path.exists() else b""
    sep = b"" if not old or old.endswith(b"\n") else b"\n"
    mode = path.stat().st_mode & 0o777 if path.exists() else 0o644
    line = skeleton.IGNORE_LINE.encode()
    atomic.create(path, old + sep + line + b"\n", mode=mode, replace=True, root=root)


def _job(root: Path, ci: str) -> Iterator[str]:
    """The CI job's file, from the shipped template with this majordomus's version pinned."""
    from mj_core import share

    from mj_policy.hooks import ci_setup as cisetup

    target = root / cisetup.TARGETS[ci]
    version = share.read_text("version.txt").strip()
    text = share.read_text("ci", f"{ci}.yml").replace("{version}", version)
    atomic.make_dirs(target.parent, root=root)
    atomic.create(target, text.encode("utf-8"), mode=0o644, root=root)
    yield cisetup.TARGETS[ci]


STAGES = {"init-write": Stage(run)}
