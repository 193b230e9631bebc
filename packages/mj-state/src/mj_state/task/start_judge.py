"""`mj-state start-judge`: whether a task may start, over `mj-state facts --for start`.

A judge: it reads the facts on stdin (or a file) and never the repository. The request is
judged in the order a person meets its faults: the task as one line, the obligation tokens,
the issue id as one word (2), the plan lacking the issue (12), the scope missing or leading
outside (2, 15), the issue held by another worktree of this clone (15, unless `--take-over`),
the profile (12), a state that is not this checkout's (15), a task active here (15), a
repository with no commit (12). A task that may start becomes one `verdict` record naming
what `mj-state start-write` writes, followed by the overlap and the claims that name nothing
(INFO, WARN: never blocking). `decide` is the judgement itself, which the writer runs again.
"""

from __future__ import annotations

from mj_core.errors import MissingArtifact
from mj_core.errors import MjError
from mj_core.errors import Refused
from mj_core.errors import UsageError
from mj_core.exit_codes import ExitCode
from mj_core.findings import Finding
from mj_core.stream.stage import Stage

from mj_state import state_id as stateid
from mj_state.task.place import Place

TYPE_CHECKING = False  # `typing` is not imported at run time on a start-up path
if TYPE_CHECKING:
    import argparse
    from collections.abc import Iterator
    from typing import Any

    from mj_core.stream.stage import Context

    Record = dict[str, Any]

# the verdict's fields the writer holds equal to its own judgement, made again under its lock
DECIDED = ("task", "profile", "owner", "scope", "promised", "issue_path", "take_over", "tip")


def run(options: argparse.Namespace, context: Context) -> Iterator[Record]:
    records = list(context.records(options.input))
    told, place, fact = (_one(records, name) for name in ("state-identity", "place", "start"))
    yield decide(told, place, fact)
    yield from fact.get("overlap") or []
    for claim in fact.get("absent") or []:
        yield _claims_nothing(str(claim)).record()


def decide(told: Record, place: Record, fact: Record) -> Record:
    """The verdict of a task that may start; a refusal raised with its exit code."""
    asked = fact["request"]
    text = task_line(asked.get("task"))
    promised = _promised(asked)
    issue = fact.get("issue") or {}
    if issue.get("missing"):
        raise MissingArtifact(f"start: --issue {promised['issue']}: {issue['missing']}")
    tokens = [t for t in issue.get("evidence") or [] if t in _vocabulary()]
    if tokens:
        promised["requires"] = list(dict.fromkeys([*(promised.get("requires") or []), *tokens]))
    if fact.get("claims") is None:
        _raise(fact.get("scope_problem"))
        raise UsageError("start: --scope is required (or --issue, whose scope seeds it)")
    _held(promised.get("issue"), fact.get("holder"), bool(asked.get("take_over")))
    profile = fact["profile"]
    _raise(profile.get("problem"))
    bad = [f for f in stateid.findings(told) if f.level == "FAIL"]
    if bad:
        raise Refused(f"start: {bad[0].message} — see `{bad[0].reproduce}`")
    if fact.get("active") is not None:
        raise Refused(
            f"{Place.from_fact(place).ledger}: task {fact['active']} is active (finish it with "
            "`majordomus finish` or `majordomus handover --close`; no flag discards it)"
        )
    if not fact.get("head"):
        raise MissingArtifact(
            "start: this repository has no commit yet — a task is anchored to a commit; "
            "commit once (e.g. the adopted .ai/ layer), then start"
        )
    return {
        "kind": "verdict",
        "action": "start",
        "request": asked,
        "task": text,
        "profile": profile["name"],
        "owner": fact["owner"],
        "scope": list(fact["claims"]),
        "promised": promised,
        "issue_path": issue.get("path"),
        "take_over": bool(asked.get("take_over")),
        "tip": fact["tip"],
        "path": fact["path"],
        "checkpoint_interval": profile["interval"],
        "instructions": fact.get("instructions"),
    }


def task_line(task: object) -> str:
    """The task as one non-empty line; anything else → 2."""
    text = task.strip() if isinstance(task, str) else ""
    if not text or "\n" in text or "\r" in text:
        raise UsageError("start: the task is one non-empty line")
    return text


def _promised(asked: Record) -> Record:
    """`requires` (tokens of share/obligations.yaml; unknown → 2) and `issue`, when given."""
    out: Record = {}
    if asked.get("requires"):
        from mj_state.task import obligations

        out["requires"] = obligations.checked(str(asked["requires"]), "start: --requires")
    issue = asked.get("issue")
    if issue is not None:
        issue = str(issue)
        if not issue.strip() or any(c in issue for c in "\n\r\t /"):
            raise UsageError(f"start: --issue {issue!r}: an issue id is one word")
        out["issue"] = issue.strip()
    return out


def _vocabulary() -> dict[str, Any]:
    from mj_state.task import obligations

    return obligations.vocabulary()


def _held(ident: str | None, holder: Record | None, take_over: bool) -> None:
    """Another worktree of this clone holds the issue → 15 naming it, unless `take_over`."""
    if ident is None or holder is None or take_over:
        return
    raise Refused(
        f"start --issue {ident}: held by the worktree {holder.get('worktree')} of this "
        f"clone (branch {holder.get('branch')}, since {holder.get('since')}) — finish it "
        "there, or take it with --take-over"
    )


def _raise(problem: Record | None) -> None:
    """A fact that could not be read stops the judgement with its own code and message."""
    if problem:
        raise MjError(str(problem["message"]), ExitCode(int(problem["code"])))


def _claims_nothing(claim: str) -> Finding:
    """A WARN for a scope path that is neither on disk nor tracked (a typo claims nothing)."""
    import shlex

    quoted = shlex.quote(claim)
    return Finding(
        "WARN",
        "scope",
        claim,
        "neither tracked nor present: this scope claims nothing that exists (a typo?)",
        f"git ls-files -- {quoted} | head -n 1; ls -d {quoted}",
    )


def _one(records: list[Record], name: str) -> Record:
    found = [r for r in records if r.get("kind") == "fact" and r.get("fact") == name]
    if len(found) != 1:
        raise MissingArtifact(
            f"start: the facts carry no {name} fact — `mj-state facts --for start`"
        )
    fact: Record = found[0]
    return fact


STAGES = {"start-judge": Stage(run)}
