"""Taking a claim on the remote: git's compare-and-swap, retried while it is lost.

Each claim is pushed with `--force-with-lease=<ref>:<expected>`, `expected` being the commit
this checkout last saw there ("" when it saw none: the ref must not exist), all of one command's
claims in one `git push --atomic`. A lost swap means another clone moved the ref meanwhile:
that one ref is fetched and judged again — free (released, or this clone's own) is taken on top
of what is there, held by another clone is refused (15) naming the holder, a lapsed lease is
taken only with `--take-over` (the new claim names the one it replaced). Of N clones racing for
one ref exactly one push lands; every other finds it held.
"""

from __future__ import annotations

from mj_core import clock
from mj_core.errors import Refused

from mj_state import mirror
from mj_state.remote import claim_doc as claimdoc
from mj_state.remote import held
from mj_state.remote import layout
from mj_state.remote import store
from mj_state.remote import transport

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

    from mj_policy.layer.loader import Layer

    from mj_state.remote.config import Settings

    Record = dict[str, Any]

ATTEMPTS = 6


class Want:
    """One claim to take: its ref and the document to publish there."""

    __slots__ = ("doc", "ref", "take_over")

    def __init__(self, doc: Record, take_over: bool = False) -> None:
        what = doc["what"]
        self.doc = doc
        self.ref = layout.ref(str(what["type"]), str(what["id"]))
        self.take_over = take_over


class Taking:
    """One command's taking: the remote, this clone, the moment, the command's name."""

    __slots__ = ("clone", "command", "ep", "now")

    def __init__(self, ep: transport.Endpoint, clone: str, command: str) -> None:
        self.ep = ep
        self.clone = clone
        self.command = command
        self.now = clock.now()

    def judge(self, want: Want, doc: Record | None, problem: str | None) -> Record | None:
        """What taking `want` over what the remote holds (`doc`) means: None (free to take)
        or the claim it takes over; refused (15) when another clone holds it."""
        if doc is None and problem is None:
            return None
        if doc is None:
            if want.take_over:
                return {"clone": "unknown", "branch": None, "since": None, "lease_until": None}
            raise Refused(
                f"{self.command}: {want.ref} on the remote is not a claim ({problem}) — "
                "--take-over replaces it"
            )
        who = doc.get("who") or {}
        if doc.get("state") == "released" or who.get("clone") == self.clone:
            return None
        return _lapsed(want, doc, self.now, self.command)

    def over(self, want: Want, commit: str, doc: Record | None) -> tuple[str, Record]:
        """(the commit to swap from, the document to push) over `doc` as last seen at
        `commit`: a claim another clone held when last seen is asked again first (the mirror
        may be old), never refused on its word."""
        try:
            took = self.judge(want, doc, None)
        except Refused:
            return self.again(want)
        return commit, _with(want.doc, took)

    def again(self, want: Want) -> tuple[str, Record]:
        """Fetch the one ref, judge it again: (the commit to swap from, the document)."""
        from mj_state.remote import reading  # a lost swap only

        transport.fetch_one(self.ep, want.ref)
        commit, doc, problem = reading.one(self.ep.store, want.ref)
        return commit or "", _with(want.doc, self.judge(want, doc, problem))

    def push(
        self, wants: list[Want], docs: dict[str, Record], expected: dict[str, str]
    ) -> tuple[dict[str, str], dict[str, str]]:
        mail = f"{self.clone}@majordomus.invalid"
        commits = [
            store.Commit(
                {claimdoc.NAME: claimdoc.encode(docs[w.ref])},
                expected[w.ref] or None,
                f"claim {w.ref.removeprefix(layout.PREFIX)}",
                mail,
                self.now,
            )
            for w in wants
        ]
        made = dict(zip([w.ref for w in wants], store.build(self.ep.store, commits), strict=True))
        updates = [transport.Update(w.ref, made[w.ref], expected[w.ref]) for w in wants]
        return transport.push(self.ep, updates), made


def _lapsed(want: Want, doc: Record, now: int, command: str) -> Record:
    """Another clone's claim: refused while its lease runs, or without `--take-over`; else
    the claim it takes over."""
    holder = claimdoc.holder(doc)
    until = doc.get("lease_until")
    if not claimdoc.lapsed(doc, now):
        lasting = f", lease until {until}" if until else ", never released"
        raise Refused(f"{command}: {want.ref} is held by {holder}{lasting}")
    if not want.take_over:
        raise Refused(
            f"{command}: {want.ref} is held by {holder}; its lease ended at {until} — "
            "run it again with --take-over to take it"
        )
    who = doc.get("who") or {}
    return {
        "clone": who.get("clone"),
        "branch": who.get("branch"),
        "since": doc.get("since"),
        "lease_until": until,
    }


def take(
    layer: Layer, settings: Settings, wants: list[Want], clone: str, command: str
) -> list[Record]:
    """Take every claim of `wants` at once; the entries now held (with `took_over` set on a
    claim taken over). Refused (15) naming the holder; unreachable (12): nothing taken."""
    taking = Taking(transport.endpoint(layer, settings, fetching=False), clone, command)
    with held.lock(layer):
        mine = {c["ref"]: c for c in held.read(layer) if c.get("commit")}
        seen = {c["ref"]: c for c in (mirror.read(layer) or {}).get("claims") or []}
        expected: dict[str, str] = {}
        docs: dict[str, Record] = {}
        for want in wants:
            known = mine.get(want.ref) or seen.get(want.ref)
            commit = str(known["commit"]) if known else ""
            doc = known.get("claim") if known else None
            expected[want.ref], docs[want.ref] = taking.over(want, commit, doc)
        for _ in range(ATTEMPTS):
            status, made = taking.push(wants, docs, expected)
            if all(s == "ok" for s in status.values()):
                return _keep(layer, wants, docs, made)
            for want in wants:
                said = status.get(want.ref, "stale")
                if said not in ("ok", "stale", "atomic"):
                    raise transport.refused(taking.ep, want.ref, said)
                if said == "stale":
                    expected[want.ref], docs[want.ref] = taking.again(want)
    raise Refused(f"{command}: the remote kept moving under {ATTEMPTS} attempts; nothing taken")


def _with(doc: Record, took: Record | None) -> Record:
    return {**doc, "took_over": took} if took is not None else dict(doc)


def _keep(
    layer: Layer, wants: list[Want], docs: dict[str, Record], made: dict[str, str]
) -> list[Record]:
    """Record the claims now held (the caller holds the lock)."""
    claims = held.read(layer)
    taken = []
    for want in wants:
        entry = held.entry(want.ref, docs[want.ref], "held", made[want.ref])
        claims = held.put(claims, entry)
        taken.append(entry)
    held.write(layer, claims)  # the store keeps the commits under refs/pending/ until a fetch
    return taken


def take_number(layer: Layer, settings: Settings, first: int, make: Any, clone: str) -> int:
    """The lowest ADR number from `first` up that no clone has taken on the remote, taken
    (`refs/majordomus/adr/<n>`, created only where none exists); its document `make(n)`."""
    taking = Taking(transport.endpoint(layer, settings, fetching=False), clone, "adr propose")
    number = first
    with held.lock(layer):
        for attempt in range(4 * ATTEMPTS):
            want = Want(make(number))
            said, _ = taking.push([want], {want.ref: want.doc}, {want.ref: ""})
            if said[want.ref] == "ok":
                return number
            if said[want.ref] != "stale":
                raise transport.refused(taking.ep, want.ref, said[want.ref])
            seen = transport.highest(taking.ep, f"{layout.PREFIX}adr/*") if attempt == 0 else []
            taken = [int(p[1]) for p in map(layout.parse, seen) if p is not None]
            number = max([number + 1, *(n + 1 for n in taken)])
    raise Refused(f"adr propose: no free number on the remote after {4 * ATTEMPTS} attempts")
