"""`mj-watch facts --for watch`: everything watch judges, read once, as `fact` records.

The layer (it must load: watch cannot judge work without it — 12 or 10 propagate), the place,
the whole ledger read once (the task's situation over it, its malformed lines and chain),
where HEAD is, the active task's divergence label, touched files and checkpoint interval, the
projection targets (with what `update` would write into each now), the stores' sizes, the
question file, the decision log, the prompt assets' texts, the records written elsewhere
(their front matter) and the handover naming a handed-over task. Nothing is judged here:
`mj-watch watch` does that from these records alone.
"""

from __future__ import annotations

from mj_core import files
from mj_core import limits
from mj_core import timing
from mj_core.errors import MjError
from mj_core.yaml import strict as yamlstrict
from mj_policy.layer import files as layerfiles
from mj_policy.layer import loader as layer_mod
from mj_policy.layer import target_facts as targetfacts
from mj_policy.prompts import assets as prompts
from mj_state import identity
from mj_state.ledger import store as ledger
from mj_state.records import store as records
from mj_state.task import start_facts
from mj_state.task import state as taskstate
from mj_state.task.place import Place

from mj_watch.doctrine import retention

TYPE_CHECKING = False  # `typing` is not imported at run time on a start-up path
if TYPE_CHECKING:
    from collections.abc import Iterator
    from pathlib import Path
    from typing import Any

    from mj_policy.layer.loader import Layer

    Record = dict[str, Any]

_FRONT = 4096  # a record's front matter lies within its first 4 KiB


def fact(which: str, /, **fields: Any) -> Record:
    return {"kind": "fact", "fact": which, **fields}


def gather(root: Path) -> Iterator[Record]:
    lay = layer_mod.load(root)
    scan = ledger.scan(ledger.path(lay.state))
    situation = taskstate.read(lay, scan)
    policy_file = layerfiles.section(lay.manifest, "policy", "repo/policy.yaml")
    yield fact("watch", root=str(root))
    yield fact(
        "files",
        entries={p: layerfiles.describe(root, p) for p in (layer_mod.MANIFEST, policy_file)},
    )
    yield fact("layer", loads=True, problem=None)
    yield Place.of(lay).fact()
    yield situation.fact()
    problems = [list(p) for p in scan.problems]
    yield fact("ledger", count=len(scan.rows), problems=problems, chain=scan.chain.fact())
    yield _task(root, lay, situation)
    yield targetfacts.gather(root, lay)
    complete = len(scan.rows) - (1 if scan.rows and not scan.rows[-1][2] else 0)
    yield retention.counts(root, complete, scan.values)
    from mj_state.records import questions

    text, problem = questions.read(lay.state)
    yield fact("questions", text=text, problem=problem)
    from mj_state.records import decisions

    logged = files.read_lenient(decisions.path(lay.state), f"state/{decisions.NAME}", limits.LOG)
    yield fact("decisions", text=logged, shown=lay.relative(decisions.path(lay.state)))
    yield prompts.fact(lay)
    yield _records(root, lay)
    yield _handover(lay, situation)
    from mj_core import clock
    from mj_state import mirror

    told = mirror.fact(lay, clock.now())  # other clones' claims as of the last sync
    if told is not None:
        yield told


def _task(root: Path, lay: Layer, situation: taskstate.Situation) -> Record:
    """Where HEAD is; for an active task its label, touched files and checkpoint interval."""
    now = identity.identity(root)
    record = situation.record()
    profile = str(record["profile"]) if record else ""
    try:
        interval = start_facts.interval(lay, profile)
    except MjError:
        interval = str(lay.policy.data["profiles"]["checkpoint_interval_default"])
    label, touched, writes = None, None, None
    active = situation.active_record()
    if active is not None:
        from mj_state.task import scope as claims

        label = identity.label(root, active, now)
        touched, writes = claims.touched_and_writes(lay, str(active["head"]))
    return fact("task", now=now, label=label, touched=touched, writes=writes, interval=interval)


def _records(root: Path, lay: Layer) -> Record:
    """The checkpoints and handovers not written here: their front matter (a record written
    here carries exactly the `worktree_id:` line the writer emits, so only the others are
    parsed — hundreds stay cheap)."""
    here = {"worktree": str(root), "worktree_id": identity.worktree_id(root)}
    own = yamlstrict.dump({"worktree_id": here["worktree_id"]}).encode()
    others = []
    for kind in records.KINDS:
        folder = records.directory(lay.state, kind)
        for name in records.names(lay.state, kind):
            path = folder / name
            try:
                raw = files.read_capped(path, str(path), limits.RECORD)
            except (OSError, MjError):
                continue  # unreadable records are the resolver's and doctor's to report
            timing.count("files read")
            if own in raw[:_FRONT]:
                continue
            try:
                front, _ = records.from_text(yamlstrict.decode(raw, str(path)), path)
            except MjError:
                continue
            worktree = {k: front.get(k) for k in ("worktree_id", "worktree")}
            others.append({"kind": kind, "shown": lay.relative(path), "front": worktree})
    return fact("records", here=here, others=others)


def _handover(lay: Layer, situation: taskstate.Situation) -> Record:
    """For a task handed over: the newest handover naming it (its path and body), if any."""
    record = situation.record()
    if record is None or record["outcome"] != "handed_over":
        return fact("handover", task=None, found=None)
    task = str(record["id"])
    folder = records.directory(lay.state, "handover")
    found = None
    for name in records.names(lay.state, "handover"):  # newest first
        try:
            front, body = records.load(folder / name)
        except MjError:
            continue
        if front.get("task_id") == task:
            found = {"path": lay.relative(folder / name), "body": body}
            break
    return fact("handover", task=task, found=found, folder=lay.relative(folder))
