"""The published ledger: a chain of commits under `refs/majordomus/ledger/<clone-id>`, one per
publish, each tree holding

    lines.jsonl   the ledger lines published by this commit, byte for byte, oldest first
    tip.json      {format, clone, count, last, first, lines, head, branch, published_at}:
                  `count` lines published so far, `last` the hash of the newest
                  (`mj_state.ledger.chain.digest`), this commit's lines being `first`..`count`
    records/<path>  the durable records those lines name (checkpoints, handovers, finish notes)

How it relates to the local chain: the lines are the ledger's own, so each line's `prev` links
it to the line before it across commits too, and `last` is the hash the next line published
must carry. A commit's parent is the commit the remote held before it (the push is
compare-and-swapped on it), so the ref only ever moves forward; whoever reads the chain (`sync`
here, `verify` in CI) checks that a later ledger is the earlier one with lines added. Locally,
the published prefix holds while the line whose hash is `last` is still in this checkout's
ledger (the chain then vouches for every line before it); when it is not, the ledger was
rewritten, and the first line that differs from what was published is named. `walk` reads a
published ledger back from any git directory, `continues` judges that it only grew.
"""

from __future__ import annotations

from mj_core import clock
from mj_core import files
from mj_core import limits
from mj_core import line_hash as linehash
from mj_core.errors import MjError
from mj_core.stream import jsonl

from mj_state import mirror
from mj_state.ledger import chain

TYPE_CHECKING = False
if TYPE_CHECKING:
    from pathlib import Path
    from typing import Any

    from mj_policy.layer.loader import Layer

    from mj_state.ledger.scan import Scan

    Record = dict[str, Any]

RECORD_KEYS = {"task.checkpoint": "checkpoint_path", "task.handed_over": "handover_path"}
LOCAL = ".ai/local/"


class Position:
    """Where the published prefix ends in the local ledger: the lines after it (`new`), or the
    first line that differs (`differs`, from `mirror.first_difference`)."""

    __slots__ = ("count", "differs", "new")

    def __init__(self, count: int, new: list[bytes], differs: Record | None) -> None:
        self.count = count
        self.new = new
        self.differs = differs


def position(layer: Layer, scan: Scan, published: Record | None) -> Position:
    """Compare the ledger now (`scan`, read whole) with what the remote holds (`published`)."""
    rows = scan.rows
    hashes = scan.hashes if scan.hashes is not None else linehash.hexdigests([r[1] for r in rows])
    count = int(published["count"]) if published else 0
    last = str(published["last"]) if published else ""
    if count and last in hashes:
        at = hashes.index(last)
        return Position(count, [raw for _, raw, done in rows[at + 1 :] if done], None)
    local = mirror.sequence(layer.state, rows)
    if not count:
        return Position(0, [raw for _, _, raw in local], None)
    digests = linehash.hexdigests([raw for _, _, raw in local])
    if len(local) >= count and digests[count - 1] == last:
        return Position(count, [raw for _, _, raw in local[count:]], None)
    store = mirror.directory(layer) / mirror.STORE
    lines = mirror.published_lines(store, str(published.get("commit"))) if published else None
    return Position(count, [], mirror.first_difference(lines, local, count))


def files_of(
    layer: Layer, position: Position, clone: str, where: Record
) -> tuple[dict[str, bytes], list[str]]:
    """The tree of the commit that publishes `position.new`, and the records it could not
    carry (named by a line but gone, or outside `.ai/local/`)."""
    new = position.new
    tip = {
        "format": 1,
        "clone": clone,
        "count": position.count + len(new),
        "last": chain.digest(new[-1]),
        "first": position.count + 1,
        "lines": len(new),
        "head": where.get("head") or "",
        "branch": where.get("branch") or "DETACHED",
        "published_at": clock.iso(clock.now()),
    }
    tree = {"lines.jsonl": b"".join(raw + b"\n" for raw in new), "tip.json": jsonl.dumps(tip)}
    missing: list[str] = []
    for path in _records(new):
        if not path.startswith(LOCAL) or ".." in path.split("/"):
            missing.append(path)
            continue
        try:
            tree[f"records/{path}"] = files.read_capped(layer.root / path, path, limits.NOTE)
        except (OSError, MjError):
            missing.append(path)
    return tree, missing


def _records(lines: list[bytes]) -> list[str]:
    """The record files the lines name: checkpoints, handovers, finish notes."""
    found: list[str] = []
    for raw in lines:
        try:
            value = jsonl.loads_line(raw)
        except ValueError:
            continue
        if type(value) is not dict:
            continue
        key = RECORD_KEYS.get(str(value.get("event")))
        if key and type(value.get(key)) is str:
            found.append(value[key])
        if value.get("event") == "task.finished" and type(value.get("task_id")) is str:
            found.append(f"{LOCAL}state/completed/{value['task_id']}.md")
    return list(dict.fromkeys(found))


def walk(git_dir: Path, ref: str) -> list[Record]:
    """A published ledger as `git_dir` holds it (this store, or a CI clone that fetched
    `refs/majordomus/*`): each commit, oldest first, as {commit, parents, tip, lines}; tip None
    when its `tip.json` is not one. For a reader such as `verify`: `continues` judges it."""
    from mj_state.remote import reading
    from mj_state.remote import store

    code, out, _ = store.run(git_dir, "rev-list", "--reverse", "--parents", ref)
    rows = (
        [line.split() for line in out.decode("ascii", "replace").splitlines()] if code == 0 else []
    )
    specs = [f"{row[0]}:{name}" for row in rows for name in (reading.TIP, reading.LINES)]
    blobs = store.contents(git_dir, specs)
    walked = []
    for index, row in enumerate(rows):
        tip, lines = blobs[2 * index], blobs[2 * index + 1]
        walked.append({"commit": row[0], "parents": row[1:],
                       "tip": reading.parse_tip(tip) if tip is not None else None,
                       "lines": (lines or b"").splitlines()})  # fmt: skip
    return walked


def continues(walked: list[Record], before: str | None = None) -> str | None:
    """None when the walked ledger is one chain that only grew (from `before`, a commit the
    ref held earlier, when given: it must be one of its commits); else why not, naming the
    commit and the line. Each commit has one parent, the one before it; its tip counts the
    lines so far and hashes the newest; each chained line's `prev` is the hash of the line
    before it, across commits."""
    if before is not None and before not in {w["commit"] for w in walked}:
        return f"{before} is not in it: the ref was rewritten since it held that commit"
    count, last = 0, None
    for index, step in enumerate(walked):
        where = f"commit {step['commit']}"
        if step["parents"] != ([walked[index - 1]["commit"]] if index else []):
            return f"{where}: its parent is not the publish before it"
        tip, lines = step["tip"], step["lines"]
        if tip is None or tip.get("first") != count + 1 or tip["count"] != count + len(lines):
            return f"{where}: tip.json does not count its lines on from line {count}"
        for offset, raw in enumerate(lines, count + 1):
            prev = _prev(raw)
            if last is not None and prev is not None and prev != chain.digest(last):
                return f"{where}: line {offset} does not link to line {offset - 1}"
            last = raw
        count += len(lines)
        if lines and tip["last"] != chain.digest(lines[-1]):
            return f"{where}: tip.json's last is not the hash of its newest line"
    return None


def _prev(raw: bytes) -> str | None:
    try:
        value = jsonl.loads_line(raw)
    except ValueError:
        return None
    prev = value.get("prev") if type(value) is dict else None
    return prev if type(prev) is str else None
