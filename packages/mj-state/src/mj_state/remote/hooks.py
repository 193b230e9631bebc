"""What `start`, `plan start`, `plan done`, `adr propose` and `finish` ask of the remote, each
one call placed in their code. Every function here returns at once (None, or nothing) when the
policy names no remote: without `remote:` no command opens a connection.

- `plan start <ID>` claims the issue before its marker is written (15 naming the holder).
- `start` claims its task (its scope) and, with `--issue`, the issue, in one push; when the
  remote cannot be reached and `remote.required` is false, the claims are kept here unshared
  (a WARN; the next sync publishes them), else 12 with nothing written.
- `adr propose` takes its number on the remote: the lowest free one from the local next up.
- `finish` releases the task's claims and publishes (a sync); `plan done` releases the issue's
  claim at the next sync.
- `checkpoint` renews: a sync when a claim this clone holds is half through its lease (else no
  connection); the checkpoint is written first and stays whatever the remote says.
The ledger line each writer appends carries what was claimed (`claim`).
"""

from __future__ import annotations

from mj_core import clock
from mj_core.findings import Finding
from mj_core.git import where as gitwhere

from mj_state import mirror
from mj_state.remote import claim_doc as claimdoc
from mj_state.remote import claims
from mj_state.remote import clone
from mj_state.remote import config as remoteconf
from mj_state.remote import held
from mj_state.remote import layout
from mj_state.remote import transport

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Iterator
    from typing import Any

    from mj_policy.layer.loader import Layer

    Record = dict[str, Any]


def _ask_ahead(layer: Layer, name: str) -> None:
    """The push URL and where HEAD is, asked of git at once (`git.ahead`): the claim's
    document needs the one, its push the other."""
    from mj_core.git import questions as git

    calls: list[tuple[tuple[str, ...], Any]] = [
        (("remote", "get-url", "--push", name), layer.root),
        (gitwhere.WHERE_ARGS, layer.root),
    ]
    git.ahead(calls)


def _who(layer: Layer, ident: str, where: Record | None = None) -> Record:
    if where is None:
        _, head, branch = gitwhere.where(layer.root)
        where = {"head": head, "branch": branch}
    return {
        "clone": ident,
        "worktree": str(layer.root),
        "branch": where.get("branch") or "DETACHED",
        "head": where.get("head") or "",
    }


def _said(taken: list[Record], *, shared: bool) -> Record:
    said: Record = {"refs": [t["ref"] for t in taken], "shared": shared}
    took = [t["claim"]["took_over"] for t in taken if t["claim"].get("took_over")]
    if took:
        said["took_over"] = took
    return said


def claim_issue(layer: Layer, ident: str, scope: list[str], *, take_over: bool) -> Record | None:
    """`plan start`: the issue's claim, taken on the remote (None without a remote)."""
    found = remoteconf.of(layer.policy.data)
    if found is None:
        return None
    layout.checked("issue", ident, "plan start")
    _ask_ahead(layer, found.name)
    me = clone.clone_id(layer)
    doc = claimdoc.make(
        "issue",
        ident,
        _who(layer, me),
        task=None,
        scope=scope,
        since=clock.now(),
        lease=found.lease,
    )
    taken = claims.take(layer, found, [claims.Want(doc, take_over)], me, f"plan start {ident}")
    return _said(taken, shared=True)


def claim_task(
    layer: Layer, task: Record, *, take_over: bool
) -> tuple[Record | None, list[Finding]]:
    """`start`: the task's claim (and its issue's, with `--issue`) in one push; unshared (a
    WARN) when the remote cannot be reached and it is not required. (None, []) without a
    remote."""
    found = remoteconf.of(layer.policy.data)
    if found is None:
        return None, []
    me = clone.clone_id(layer)
    who = _who(layer, me, task)
    now = clock.now()
    ident, scope = str(task["id"]), list(task["scope"])

    def doc(kind: str, name: str) -> Record:
        return claimdoc.make(kind, name, who, task=ident, scope=scope, since=now, lease=found.lease)

    docs = [doc("task", layout.checked("task", ident, "start"))]
    issue = task.get("issue")
    if issue:
        mine = {c["ref"]: c for c in held.read(layer)}
        ref = layout.ref("issue", layout.checked("issue", str(issue), "start --issue"))
        if (mine.get(ref) or {}).get("state") != "held":
            docs.append(doc("issue", str(issue)))
    wants = [claims.Want(made, take_over) for made in docs]
    try:
        taken = claims.take(layer, found, wants, me, "start")
    except transport.Unreachable as exc:
        if found.required:
            raise
        return _unshared(layer, wants, exc.message)
    return _said(taken, shared=True), []


def _unshared(layer: Layer, wants: list[claims.Want], why: str) -> tuple[Record, list[Finding]]:
    with held.lock(layer):
        kept = held.read(layer)
        for want in wants:
            kept = held.put(kept, held.entry(want.ref, want.doc, "unshared", None))
        held.write(layer, kept)
    refs = ", ".join(w.ref for w in wants)
    message = (
        f"{why.removesuffix('; nothing was written')} — the claim is kept here unshared "
        f"({refs}); the next `majordomus sync` publishes it"
    )
    return {"refs": [w.ref for w in wants], "shared": False}, [
        Finding("WARN", "claim", refs, message, "majordomus claims")
    ]


def release_task(layer: Layer, task_id: str) -> bool:
    """Mark the claims `task_id` holds for release (an unshared one is simply dropped); True
    when there is anything to publish."""
    if remoteconf.of(layer.policy.data) is None:
        return False
    return _release(layer, lambda c: (c.get("claim") or {}).get("task") == task_id)


def release_issue(layer: Layer, ident: str) -> None:
    """`plan done`: the issue's claim is released at the next sync (no connection here)."""
    if remoteconf.of(layer.policy.data) is not None:
        _release(layer, lambda c: c["ref"] == layout.ref("issue", ident))


def _release(layer: Layer, mine: Any) -> bool:
    with held.lock(layer):
        kept, changed = [], False
        for entry in held.read(layer):
            state = entry.get("state") if mine(entry) else None
            changed = changed or state in ("unshared", "held")
            if state != "unshared":
                kept.append({**entry, "state": "releasing"} if state == "held" else entry)
        if changed:
            held.write(layer, kept)
    return changed


def take_adr(layer: Layer, first: int, title: str) -> tuple[int, Record] | None:
    """`adr propose`: the number, taken on the remote from `first` (or the mirror's highest
    taken + 1) up; None without a remote."""
    found = remoteconf.of(layer.policy.data)
    if found is None:
        return None
    me = clone.clone_id(layer)
    who = _who(layer, me)
    seen = [layout.parse(str(c.get("ref"))) for c in (mirror.read(layer) or {}).get("claims") or []]
    numbers = [int(p[1]) for p in seen if p is not None and p[0] == "adr"]
    start = max([first, *(n + 1 for n in numbers)])

    def make(number: int) -> Record:
        doc = claimdoc.make(
            "adr", str(number), who, task=None, scope=[], since=clock.now(), lease=None
        )
        return doc

    number = claims.take_number(layer, found, start, make, me)
    return number, {"refs": [layout.ref("adr", str(number))], "shared": True}


def publish(layer: Layer) -> Iterator[Record]:
    """`finish`: a sync, in this process (`remote-facts | remote-judge | remote-publish`)."""
    from mj_state.remote import sync_facts as syncfacts
    from mj_state.remote import sync_judge as syncjudge
    from mj_state.remote import sync_write as syncwrite

    judged = list(syncjudge.judge(list(syncfacts.gather(layer))))
    yield from syncwrite.write(layer, judged)


def renew(layer: Layer) -> Iterator[Record]:
    """`checkpoint`: a sync when a lease this clone holds is half run (as this clone last
    published it); otherwise nothing, and no connection. The checkpoint is already written: a
    remote that cannot be reached, or a sync that would not publish, is a WARN."""
    found = remoteconf.of(layer.policy.data)
    if found is None:
        return
    now = clock.now()
    due = [c["ref"] for c in held.read(layer) if c.get("state") == "held" and _due(c, now, found)]
    if not due:
        return
    from mj_core.errors import MjError

    try:
        records = list(publish(layer))
    except MjError as exc:
        why = str(exc).removesuffix("; nothing was written")
        message = f"the checkpoint is recorded; {why} — the leases of {', '.join(due)} run on"
        yield Finding("WARN", "remote", found.name, message, "majordomus sync").record()
        return
    for record in records:
        if record.get("kind") == "finding" and record.get("level") == "FAIL":
            said = f"not renewed: {record['subject']} — {record['message']}"
            yield Finding("WARN", "remote", found.name, said, "majordomus sync").record()
        else:
            yield record


def _due(entry: Record, now: int, found: remoteconf.Settings) -> bool:
    until = (entry.get("claim") or {}).get("lease_until")
    moment = clock.parse_iso(str(until)) if until else None
    return moment is not None and moment - now < found.lease // 2
