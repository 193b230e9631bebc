"""What the store mirrors of the remote, read and judged: every claim (its document checked,
`remote.claim_doc.parse`), this clone's published ledger (its `tip.json`), and a problem for every
ref
that is not ours or not well formed — each a finding for the caller, never an error. Objects are
sized before they are read: nothing over its limit is read at all."""

from __future__ import annotations

from mj_core.stream import jsonl

from mj_state.remote import claim_doc as claimdoc
from mj_state.remote import layout
from mj_state.remote import store

TYPE_CHECKING = False
if TYPE_CHECKING:
    from pathlib import Path
    from typing import Any

    Record = dict[str, Any]

TIP = "tip.json"
LINES = "lines.jsonl"
TIP_LIMIT = 64 * 1024


class Known:
    """The mirror read: claims [{ref, commit, claim}], problems [{ref, why}], this clone's
    published ledger {ref, commit, count, last} (None when it published nothing yet)."""

    __slots__ = ("claims", "ledger", "problems")

    def __init__(self) -> None:
        self.claims: list[Record] = []
        self.problems: list[Record] = []
        self.ledger: Record | None = None


def read(where: Path, clone: str) -> Known:
    known = Known()
    wanted: list[tuple[str, str, str, str]] = []  # (ref, commit, kind, id)
    for name, oid, kind in store.refs(where):
        parsed = layout.parse(name)
        if parsed is None:
            known.problems.append({"ref": name, "why": "not a ref of the layout (docs/FORMATS.md)"})
        elif kind != "commit":
            known.problems.append({"ref": name, "why": f"points at a {kind}, not a commit"})
        elif parsed[0] != "ledger" or parsed[1] == clone:
            wanted.append((name, oid, *parsed))
    hashlen = len(wanted[0][1]) // 2 if wanted else 20
    specs = [f"{oid}^{{tree}}" for _, oid, _, _ in wanted]
    specs += [f"{oid}:{TIP if kind == 'ledger' else claimdoc.NAME}" for _, oid, kind, _ in wanted]
    sized = store.sizes(where, specs)
    trees, files = sized[: len(wanted)], sized[len(wanted) :]
    readable = []
    for (ref, oid, kind, ident), tree, blob in zip(wanted, trees, files, strict=True):
        why = _shape(kind, tree, blob, hashlen)
        if why:
            known.problems.append({"ref": ref, "why": why})
        else:
            readable.append((ref, oid, kind, ident))
    names = [f"{oid}:{TIP if k == 'ledger' else claimdoc.NAME}" for _, oid, k, _ in readable]
    for named, data in zip(readable, store.contents(where, names), strict=True):
        _take(known, named, data or b"")
    return known


def _shape(
    kind: str, tree: tuple[str, int] | None, blob: tuple[str, int] | None, hashlen: int
) -> str | None:
    name = TIP if kind == "ledger" else claimdoc.NAME
    if blob is None or blob[0] != "blob":
        return f"its tree holds no {name}"
    limit = TIP_LIMIT if kind == "ledger" else claimdoc.LIMIT
    if blob[1] > limit:
        return f"{name} is {blob[1]} bytes (over {limit}): not read"
    if kind != "ledger" and (tree is None or tree[1] != len("100644 claim.json") + 1 + hashlen):
        return f"its tree holds more than {claimdoc.NAME}"
    return None


def _take(known: Known, named: tuple[str, str, str, str], data: bytes) -> None:
    ref, oid, kind, ident = named
    if kind == "ledger":
        tip = parse_tip(data)
        if tip is None:
            known.problems.append({"ref": ref, "why": f"{TIP} is not a published ledger's tip"})
        else:
            known.ledger = {"ref": ref, "commit": oid, "count": tip["count"], "last": tip["last"]}
        return
    doc, why = claimdoc.parse(data, kind, ident)
    if doc is None:
        known.problems.append({"ref": ref, "why": str(why)})
    else:
        known.claims.append({"ref": ref, "commit": oid, "claim": doc})


def parse_tip(data: bytes) -> Record | None:
    """A published segment's tip: {count, last, …} with count ≥ 0 and last a line hash."""
    try:
        value = jsonl.loads_line(data.rstrip(b"\n"))
    except ValueError:
        return None
    if type(value) is not dict or type(value.get("count")) is not int or value["count"] < 0:
        return None
    last = value.get("last")
    if type(last) is not str or (value["count"] and len(last) != 64):
        return None
    return value


def one(where: Path, ref: str) -> tuple[str | None, Record | None, str | None]:
    """(commit, claim document, problem) of one claim ref as the store holds it now; (None,
    None, None) when it holds no such ref."""
    parsed = layout.parse(ref)
    assert parsed is not None and parsed[0] != "ledger"
    sized = store.sizes(where, [ref, f"{ref}^{{tree}}", f"{ref}:{claimdoc.NAME}"])
    if sized[0] is None:
        return None, None, None
    code, out, _ = store.run(where, "rev-parse", "--verify", "-q", f"{ref}^{{commit}}")
    commit = out.decode("ascii", "replace").strip() if code == 0 else None
    if commit is None or sized[0][0] != "commit":
        return commit, None, "points at something other than a commit"
    why = _shape(parsed[0], sized[1], sized[2], len(commit) // 2)
    if why:
        return commit, None, why
    data = store.contents(where, [f"{commit}:{claimdoc.NAME}"])[0] or b""
    doc, problem = claimdoc.parse(data, *parsed)
    return commit, doc, problem
