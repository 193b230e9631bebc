"""`mj-state facts --for start`: what `mj-state start-judge` judges, as facts.

Whose state this is (`state-identity`), the place, and one `start` fact: the request as given,
the profile it names (or why there is none), the plan issue `--issue` names (its scope, file
and evidence tokens; or that no plan is kept here, or that the plan lacks it), the scope
resolved against the checkout (or why it cannot be), the other worktree of this clone holding
the issue, the task the ledger has active here, the ledger's end, HEAD, and — for the person,
never for the verdict — the overlap with other worktrees and the claims that name nothing on
disk. Everything read here; nothing judged. `decisive` is the part a verdict rests on, which
the writer gathers again under its lock.
"""

from __future__ import annotations

import os

from mj_core.errors import MjError
from mj_core.git import questions as git
from mj_policy.layer.loader import load

from mj_state.task import overlap
from mj_state.task.place import Place

TYPE_CHECKING = False  # `typing` is not imported at run time on a start-up path
if TYPE_CHECKING:
    import argparse
    from collections.abc import Iterator
    from pathlib import Path
    from typing import Any

    from mj_policy.layer.loader import Layer

    Record = dict[str, Any]

REQUEST = ("task", "scope", "profile", "owner", "requires", "issue", "take_over")


def request(options: argparse.Namespace) -> Record:
    """The options `start` was given, as they were given."""
    asked = {name: getattr(options, name, None) for name in REQUEST}
    asked["take_over"] = bool(asked["take_over"])
    return asked


def gather(root: Path, options: argparse.Namespace) -> Iterator[Record]:
    from mj_state import state_id as stateid

    layer = load(root)
    yield stateid.fact(root)
    yield Place.of(layer).fact()
    facts = decisive(layer, request(options))
    claims = facts["claims"] or []
    facts["overlap"] = _overlap(root, claims) if facts["claims"] is not None else []
    facts["absent"] = [claim for claim in claims if _absent(root, claim)]
    yield facts


def decisive(layer: Layer, asked: Record) -> Record:
    """The `start` fact without the overlap and the absent claims: what a verdict rests on."""
    from mj_state.task import record as tasks
    from mj_state.task import state as taskstate

    root = layer.root
    issue = _issue(layer, asked.get("issue"))
    seeded = issue.get("scope") if issue else None
    claims, problem = _claims(root, asked.get("scope"), seeded)
    name = str(asked.get("profile") or layer.policy.data["profiles"]["default"])
    active = taskstate.read_task(layer).active
    return {
        "kind": "fact",
        "fact": "start",
        "request": asked,
        "owner": asked.get("owner") or tasks.default_owner(),
        "profile": {"name": name, **_profile(layer, name)},
        "issue": issue,
        "claims": claims,
        "scope_problem": problem,
        "holder": _holder(root, asked.get("issue"), issue),
        "active": None if active is None else active.id,
        "tip": _tip(layer.state),
        "head": git.head(root),
        "path": layer.relative(tasks.current_path(layer)),
        "instructions": instructions(layer.policy.data),
    }


def _issue(layer: Layer, ident: str | None) -> Record | None:
    """The plan issue `ident` names: its scope, file and evidence tokens; `kept: false` when
    this repository keeps no plan; `missing` when its plan lacks it; None without `--issue`."""
    if ident is None or not ident.strip() or any(c in ident for c in "\n\r\t /"):
        return None  # no issue asked, or not one word: the judge says so
    from mj_core.errors import MissingArtifact
    from mj_policy.plan import model as planmodel

    try:
        model = planmodel.load(layer)
    except MissingArtifact:
        return {"kept": False}
    item = model.issues.get(ident.strip())
    if item is None:
        return {"kept": True, "missing": f"no such issue in {model.directory}"}
    return {
        "kept": True,
        "scope": [str(p) for p in item.data.get("scope") or []],
        "path": str(item.path),
        "evidence": [str(t) for t in item.data.get("evidence_required") or []],
    }


def _claims(root: Path, given: str | None, seeded: list[str] | None) -> tuple[Any, Any]:
    """The scope resolved (`--scope`, else the issue's), or why it cannot be (2 or 15)."""
    from mj_state.task import scope

    if not given and seeded is None:
        return None, None
    try:
        return scope.normalise(root, given or ",".join(seeded or [])), None
    except MjError as exc:
        return None, _problem(exc)


def _problem(exc: MjError) -> Record:
    """Why a fact could not be read, with the exit code it stops with."""
    return {"code": int(exc.code), "message": exc.message}


def _profile(layer: Layer, name: str) -> Record:
    """The profile's checkpoint interval, or why the profile cannot be read (and its code)."""
    try:
        return {"interval": interval(layer, name), "problem": None}
    except MjError as exc:
        return {"interval": None, "problem": _problem(exc)}


def _holder(root: Path, ident: str | None, issue: Record | None) -> Record | None:
    """Another worktree of this clone holding the issue's claim (read without its lock)."""
    if ident is None or not issue or not issue.get("path"):
        return None
    from mj_state.plan import lock as planlock

    return planlock.CloneLock(root).holder(ident.strip(), str(issue["path"]))


def _tip(state: Path) -> str:
    """The ledger's end: its size and its last line's digest (`0:` when there is none)."""
    from mj_state.ledger import write as ledgerwrite

    return ledgerwrite.end(state / ledgerwrite.NAME)


def interval(layer: Layer, profile: str) -> str:
    """The profile's checkpoint interval, else the policy default."""
    data = layer.profile(profile).data
    value = data.get("checkpoint_interval") if isinstance(data, dict) else None
    return str(value or layer.policy.data["profiles"]["checkpoint_interval_default"])


def instructions(policy: Record) -> str | None:
    """The always-loaded projection target: what a worker reads first."""
    for projection in policy.get("projections") or []:
        if projection.get("always_loaded"):
            return str(projection["target"])
    return None


def _overlap(root: Path, claims: list[str]) -> list[Record]:
    with overlap.Survey(root, claims) as survey:
        return [finding.record() for finding in survey.findings()]


def _absent(root: Path, claim: str) -> bool:
    """A claim neither on disk nor tracked (git is asked only about one not on disk)."""
    return not (os.path.lexists(root / claim) or git.ls_files(root, f":(literal){claim}"))
