"""`mj-watch facts --for doctor`: the layer's facts passed on, and the rest doctor judges.

Upstream, `mj-policy facts` gives the layer's own files (manifest, policy, profiles, the rule
packages with their hashes), whether the layer loads and the projection targets. Added here:
what git says (the local directory ignored, tracked state, the position and divergence label
of the active task); this checkout's state (what each state path is, the ledger's malformed
lines and chain, the task's situation, the question file, the decision log, the stores'
sizes); the hooks (with `--prove`, what running them did); the environment; the ratchet's
counts, when the repository declares one. Nothing is judged
here: `mj-watch doctor` does that from these records alone.
"""

from __future__ import annotations

from mj_core import files
from mj_core import limits
from mj_core.errors import MissingArtifact
from mj_core.git import questions as git
from mj_core.git import where as gitwhere
from mj_policy.layer import facts as layerfacts
from mj_policy.layer import loader as layer_mod

from mj_watch.doctor import confinement
from mj_watch.doctor import probes
from mj_watch.doctrine import retention
from mj_watch.doctrine.finish_rules import DECISIONS
from mj_watch.doctrine.layer import local_dir
from mj_watch.wiring import check as wiring
from mj_watch.wiring import facts as hookfacts
from mj_watch.wiring import files as hookfiles

TYPE_CHECKING = False  # `typing` is not imported at run time on a start-up path
if TYPE_CHECKING:
    from collections.abc import Iterable
    from collections.abc import Iterator
    from pathlib import Path
    from typing import Any

    from mj_core.yaml.strict import Document
    from mj_policy.layer.loader import Layer
    from mj_state.ledger.scan import Scan
    from mj_state.task.state import Situation

    Record = dict[str, Any]

LAYER_FACTS = ("files", "layer", "targets")  # what `mj-policy facts` gives
CAPTURE_FAILURES = ".ai/local/prompts/failures.log"  # mj_state.capture.archive writes it


def fact(which: str, /, **fields: Any) -> Record:
    return {"kind": "fact", "fact": which, **fields}


def gather(
    root: Path, *, prove: bool = False, layer_facts: Iterable[Record] | None = None
) -> Iterator[Record]:
    """Doctor's facts: `layer_facts` (the `mj-policy facts` stream; gathered here when None)
    passed on, then the rest. A layer fact missing from that stream is 12."""
    if not (root / layer_mod.MANIFEST).exists():
        raise layer_mod.absent(root)
    upstream = list(layerfacts.gather(root) if layer_facts is None else layer_facts)
    named = {r.get("fact"): r for r in upstream if r.get("kind") == "fact"}
    missing = [name for name in LAYER_FACTS if name not in named]
    if missing:
        raise MissingArtifact(
            f"mj-watch facts --for doctor: no {', '.join(missing)} fact upstream — "
            "run it after `mj-policy facts`"
        )
    manifest = layerfacts.manifest_of(named["files"].get("entries") or {})
    _ask_git_ahead(root, manifest)
    try:
        lay = layerfacts.handed_on(root)
        if not named["layer"].get("loads"):
            lay = None  # the upstream's word: the layer does not load
        yield fact("doctor", root=str(root), prove=prove)
        yield from upstream
        yield from _gathered(root, lay, manifest, prove=prove)
    finally:
        git.settle()


def _gathered(
    root: Path, lay: Layer | None, manifest: Document | None, *, prove: bool
) -> Iterator[Record]:
    scan = _scan(lay)
    situation = _situation(lay, scan)
    yield _git(root, manifest, lay, situation)
    yield fact("state", kinds=confinement.state_kinds(root))
    from mj_state import state_id as stateid

    yield stateid.fact(root)
    decided = files.read_lenient(root / DECISIONS, DECISIONS, limits.LOG)
    if lay is not None and situation is not None and scan is not None:
        yield situation.fact()
        yield from _state(lay, scan, decided)
    yield fact("decisions", text=decided)
    complete = None
    if scan is not None:  # newline-ended lines, as `wc -l` counts them: a torn one is last
        complete = len(scan.rows) - (1 if scan.rows and not scan.rows[-1][2] else 0)
    yield retention.counts(root, complete, scan.values if scan is not None else [])
    policy = lay.policy.data if lay is not None else {}
    yield hookfacts.gather(root, wiring.entries(policy), prove=prove and lay is not None)
    yield probes.probe(root)
    yield from _ratchet(root)
    yield _prompts(lay)
    yield _capture(root)
    from mj_policy.layer import declarations

    yield declarations.fact(root)
    from mj_watch.doctor import knowledge as knowledgecheck
    from mj_watch.doctor import plan as plancheck
    from mj_watch.doctor import records as recordcheck

    yield plancheck.fact(lay)
    base = "HEAD"  # verified records new since the active task's start, else since HEAD
    if situation is not None and situation.active is not None and situation.active_record():
        base = situation.active.start_head or "HEAD"
    yield knowledgecheck.fact(root, lay, scan.values if scan is not None else None, base)
    yield from recordcheck.facts(lay)


def _prompts(lay: Layer | None) -> Record:
    """The prompt assets as read (none when the layer does not load: its finding is the
    layer check's)."""
    from mj_policy.prompts import assets as prompts

    if lay is None:
        return fact("prompts", directory=".ai/repo/prompts", assets=[])
    return prompts.fact(lay)


def _capture(root: Path) -> Record:
    """The provider hooks' failure log: how many lines, and the first (they exit 0 on failure,
    so this is where a failure shows)."""
    text = files.read_lenient(root / CAPTURE_FAILURES, CAPTURE_FAILURES, limits.LOG) or ""
    lines = [line for line in text.split("\n") if line.strip()]
    from mj_policy.hooks import adapters as hookadapters

    known = hookadapters.states(root, lambda provider: _probe(root, provider))
    _programs(root, known)
    first = lines[0] if lines else None
    return fact("capture", failures=len(lines), first=first, providers=known)


def _probe(root: Path, provider: str) -> Path:
    """Where a wired provider's probe left its record (`mj_state.capture.archive`, imported only
    for a provider whose hooks are wired)."""
    from mj_state.capture import archive as capture

    return capture.probe_path(root, provider)


def _programs(root: Path, known: dict[str, Record]) -> None:
    """Each installed adapter's shims' executable, and whether it is the file this doctor runs
    as (`same`; None when it cannot be told: no path named, or doctor's own unknown)."""
    from mj_core import self_exe as selfexe
    from mj_policy.hooks import adapters as hookadapters

    own = selfexe.program()
    for provider, found in known.items():
        if found["state"] in ("unsupported", "unconfigured"):
            continue
        named = hookadapters.programs(root, provider)
        if named:
            there = selfexe.runnable(named[0])
            found["program"] = named[0]
            found["there"] = there
            found["same"] = selfexe.same(named[0], own) if there and own else None


def _ratchet(root: Path) -> Iterator[Record]:
    """The ratchet's fact when the repository declares one (doctor then judges it as
    `ratchet check` does); else a fact that says it is not declared, nothing counted."""
    from mj_watch.ratchet import facts as ratchetfacts

    if (root / ratchetfacts.DECLARATION).is_file():
        yield from ratchetfacts.gather(root)
        return
    yield fact("ratchet", declared=False, metrics=[], baseline=None, recorded=None, secrets=[])


def _ask_git_ahead(root: Path, manifest: Document | None) -> None:
    """The questions the facts below ask git one by one, begun together (`git.ahead`)."""
    calls: list[tuple[tuple[str, ...], Path | str]] = [
        (gitwhere.WHERE_ARGS, root),
        (hookfiles.HOOKS_PATH_ARGS, root),
        (probes.VERSION_ARGS, root),
    ]
    relative = local_dir(manifest.data.get("local")) if manifest is not None else None
    if relative is not None:
        calls.append((git.ignored_args(relative), root))
        calls.append((git.ls_files_args(relative.rstrip("/")), root))
    git.ahead(calls)


def _scan(lay: Layer | None) -> Scan | None:
    """The ledger read whole, once: its own fact and the task's situation both come from it."""
    if lay is None:
        return None
    from mj_state.ledger import store as ledger

    return ledger.scan(ledger.path(lay.state))


def _situation(lay: Layer | None, scan: Scan | None) -> Situation | None:
    if lay is None or scan is None:
        return None
    from mj_state.ledger import scan as ledgerscan
    from mj_state.task import state as taskstate

    return taskstate.read(lay, ledgerscan.tail_of(scan))


def _git(
    root: Path, manifest: Document | None, lay: Layer | None, situation: Situation | None
) -> Record:
    """What git says: the local directory ignored, its tracked files, where HEAD is and the
    active task's divergence label."""
    ignored: dict[str, bool] = {}
    tracked: dict[str, list[str]] = {}
    relative = local_dir(manifest.data.get("local")) if manifest is not None else None
    if relative is not None:
        ignored[relative] = git.check_ignored(root, relative)
        tracked[relative.rstrip("/")] = git.ls_files(root, relative.rstrip("/"))
    here, label = None, None
    record = situation.active_record() if situation is not None else None
    if lay is not None and record is not None:
        from mj_state import identity

        here = identity.position(root)
        label = identity.label(root, record, here)
    worktree = situation.here_id if situation is not None else None
    return fact(
        "git", ignored=ignored, tracked=tracked, here=here, label=label, worktree_id=worktree
    )


def _state(lay: Layer, scan: Scan, decided: str | None) -> Iterator[Record]:
    """The ledger, read whole, the question file, and the two logs' entries paired with their
    ledger lines (`mj_state.records.pairs`)."""
    from mj_state.records import questions

    problems = [list(p) for p in scan.problems]
    yield fact("ledger", count=len(scan.rows), problems=problems, chain=scan.chain.fact())
    policy = lay.policy.data
    if isinstance(policy.get("remote"), dict):  # the last sync's mirror: no connection
        from mj_state import mirror

        from mj_watch.doctor import remote as remotecheck

        hashes = scan.hashes or []
        yield fact("remote-witness", witness=mirror.witness(lay, scan.rows, hashes),
                   remote=str(policy["remote"].get("name")),
                   wired=remotecheck.wired(policy.get("enforcement") or []))  # fmt: skip
    text, problem = questions.read(lay.state)
    yield fact("questions", text=text, problem=problem)
    from mj_state.records import pairs as recordpairs

    lines = recordpairs.events(scan.values, scan.events)
    found = recordpairs.gaps(decided, text if problem is None else None, scan.values, lines)
    shown = [{"where": g.where, "message": g.message, "action": g.action} for g in found]
    paired = sum(1 for _, value in lines if value.get("event") != "task.started")
    yield fact("record-pairs", records=paired, gaps=shown)
