"""The last sync's mirror, read without the network: what `check`, `watch`, `doctor` and
`history --validate` know of the remote.

`majordomus sync` (`mj_state.remote`) fetches `refs/majordomus/*` into a private object store
(`.ai/local/remote/store.git`) and writes what it found, validated, to
`.ai/local/remote/mirror.json`: the claims every clone holds, and what the remote holds of this
clone's ledger (how many lines, the hash of the last). Hook-path commands read that one file
and never import the remote folder: no connection, no git process (except `published_lines`,
which reads the store only when the ledger no longer holds what was published, to name the
first line that differs).
"""

from __future__ import annotations

import os

from mj_core import clock
from mj_core import files
from mj_core import limits
from mj_core.errors import MjError
from mj_core.findings import Finding
from mj_core.stream import jsonl

TYPE_CHECKING = False  # `typing` is not imported at run time on a start-up path
if TYPE_CHECKING:
    from collections.abc import Iterator
    from pathlib import Path
    from typing import Any

    from mj_policy.layer.loader import Layer

    Record = dict[str, Any]

DIRECTORY = "remote"  # below .ai/local/
MIRROR = "mirror.json"
STORE = "store.git"
SYNC = "majordomus sync"


def directory(layer: Layer) -> Path:
    return layer.local / DIRECTORY


def configured(policy: Record) -> bool:
    """Whether the policy names a remote (`remote:`); without it nothing here is read."""
    return isinstance(policy.get("remote"), dict)


def read(layer: Layer) -> Record | None:
    """The last sync's mirror, or None when no sync wrote one (or it cannot be read: the next
    sync writes it again)."""
    target = directory(layer) / MIRROR
    try:
        value = jsonl.loads_line(files.read_capped(target, MIRROR, limits.LEDGER))
    except (OSError, ValueError, MjError):  # a capped read's refusal is unreadable too
        return None
    return value if type(value) is dict and value.get("format") == 1 else None


def age(snapshot: Record, now: int) -> str:
    """How long ago the mirror was written, as `12m`."""
    then = clock.parse_iso(str(snapshot.get("synced_at")))
    seconds = now - then if then is not None else 0
    for unit, size in (("d", 86400), ("h", 3600), ("m", 60)):
        if seconds >= size:
            return f"{seconds // size}{unit}"
    return f"{max(seconds, 0)}s"


def others(snapshot: Record, now: int) -> list[Record]:
    """The claims other clones hold, as of the mirror (released ones and lapsed leases not)."""
    mine = snapshot.get("clone")
    held = []
    for entry in snapshot.get("claims") or []:
        claim = entry.get("claim") if type(entry) is dict else None
        if type(claim) is not dict or claim.get("state") != "held":
            continue
        if (claim.get("who") or {}).get("clone") == mine:
            continue
        until = claim.get("lease_until")
        ends = clock.parse_iso(str(until)) if until else None
        if ends is not None and ends < now:
            continue
        held.append(entry)
    return held


def overlap(snapshot: Record | None, scope: list[str], now: int) -> Iterator[Finding]:
    """A WARN for each claim another clone holds (as of the last sync, whose age it names)
    whose scope meets `scope`: containment either way on path boundaries. No mirror, nothing."""
    if snapshot is None:
        return
    from mj_core import paths

    when = f"as of the sync {age(snapshot, now)} ago"
    for entry in others(snapshot, now):
        claim = entry["claim"]
        met = [p for p in claim.get("scope") or [] if any(paths.overlaps(p, s) for s in scope)]
        if not met:
            continue
        who = claim.get("who") or {}
        what = claim.get("what") or {}
        message = (
            f"{what.get('type')} {what.get('id')} claimed by clone {who.get('clone')} "
            f"(branch {who.get('branch')}, since {claim.get('since')}) on another machine "
            f"meets this scope at {', '.join(met)} — {when}"
        )
        yield Finding("WARN", "overlap", str(entry.get("ref")), message, "majordomus claims")


def fact(layer: Layer, now: int) -> Record | None:
    """What a judge of the task needs of the mirror: the claims other clones hold (None without
    a `remote:` block; no claims and no time without a sync yet)."""
    if not configured(layer.policy.data):
        return None
    snapshot = read(layer)
    block = layer.policy.data["remote"]
    return {
        "kind": "fact",
        "fact": "remote-mirror",
        "remote": str(block.get("name")),
        "synced_at": snapshot.get("synced_at") if snapshot else None,
        "clone": snapshot.get("clone") if snapshot else None,
        "claims": others(snapshot, now) if snapshot else [],
        "now": now,
    }


def overlap_findings(told: Record | None, scope: list[str]) -> Iterator[Finding]:
    """`overlap` over a `remote-mirror` fact; an INFO when the remote was never synced here."""
    if told is None:
        return
    if told.get("synced_at") is None:
        message = f"no sync here yet: other clones' claims on {told.get('remote')} are not known"
        yield Finding("INFO", "overlap", str(told.get("remote")), message)
        return
    yield from overlap(told, scope, int(told.get("now") or 0))


def _position(hashes: list[str], last: str) -> int | None:
    try:
        return hashes.index(last)
    except ValueError:
        return None


def sequence(state: Path, rows: list[tuple[int, bytes, bool]]) -> list[tuple[str, int, bytes]]:
    """This checkout's ledger in the order it was written: each archive `history --rotate`
    made (by name, oldest first), then the ledger without its seal line; (file, line, bytes)."""
    found: list[tuple[str, int, bytes]] = []
    listed = os.listdir(state) if os.path.isdir(state) else []
    names = sorted(n for n in listed if n.startswith("ledger.") and n.endswith(".jsonl.archived"))
    for name in names:
        data = files.read_bytes(state / name)
        found.extend((name, n, raw) for n, raw in enumerate(data.splitlines(), 1))
    for number, raw, complete in rows:
        if number == 1 and b'"event":"ledger.sealed"' in raw:
            continue
        if complete:
            found.append(("ledger.jsonl", number, raw))
    return found


def witness(layer: Layer, rows: list[tuple[int, bytes, bool]], hashes: list[str]) -> Record | None:
    """What the mirror says of this clone's published ledger against the ledger now: None
    without a mirror or a publish; else whether the ledger still holds every published line,
    and when it does not, the first line that differs (read from the store)."""
    snapshot = read(layer)
    published = snapshot.get("ledger") if snapshot is not None else None
    if snapshot is None or type(published) is not dict or not published.get("count"):
        return None
    count, last = int(published["count"]), str(published.get("last"))
    fact: Record = {
        "remote": snapshot.get("remote"),
        "ref": published.get("ref"),
        "synced_at": snapshot.get("synced_at"),
        "published": count,
        "holds": True,
        "differs": None,
    }
    if _position(hashes, last) is not None:
        return fact
    from mj_core import line_hash as linehash

    local = sequence(layer.state, rows)
    digests = linehash.hexdigests([raw for _, _, raw in local])
    at = _position(digests, last)
    if at is not None and at == count - 1:
        return fact
    fact["holds"] = False
    lines = published_lines(directory(layer) / STORE, str(published.get("commit")))
    fact["differs"] = first_difference(lines, local, count)
    return fact


def first_difference(
    published: list[bytes] | None, local: list[tuple[str, int, bytes]], count: int
) -> Record:
    """Where the local sequence first differs from the published lines: {file, line, index}
    (index: 1-based among the published lines; file None when the local ledger ends first)."""
    if published is None:
        return {"file": None, "line": None, "index": None}
    for index, line in enumerate(published):
        if index >= len(local):
            return {"file": None, "line": None, "index": index + 1}
        name, number, raw = local[index]
        if raw != line:
            return {"file": name, "line": number, "index": index + 1}
    return {"file": None, "line": None, "index": min(len(published), count) + 1}


def published_lines(store: Path, commit: str) -> list[bytes] | None:
    """Every line the published ledger commit `commit` and its ancestors hold, oldest first;
    None when the store cannot give them (a damaged store is no evidence either way)."""
    from mj_core.git import questions as git

    if not commit or not (store / "HEAD").exists():
        return None
    code, out, _ = git.run_bounded(
        ("--git-dir", str(store), "rev-list", "--reverse", commit), store
    )
    commits = out.decode("ascii", "replace").split()
    if code != 0 or not commits:
        return None
    wanted = "".join(f"{c}:lines.jsonl\n" for c in commits).encode()
    code, out, _ = git.run_bounded(
        ("--git-dir", str(store), "cat-file", "--batch"), store, data=wanted
    )
    if code != 0:
        return None
    lines: list[bytes] = []
    at = 0
    for _ in commits:
        header_end = out.index(b"\n", at)
        parts = out[at:header_end].split()
        if len(parts) != 3 or parts[1] != b"blob":
            return None
        size = int(parts[2])
        lines.extend(out[header_end + 1 : header_end + 1 + size].splitlines())
        at = header_end + 1 + size + 1
    return lines


def witness_findings(fact: Record | None, ledger_shown: str) -> Iterator[Finding]:
    """FAIL when the ledger no longer holds what the remote holds of it (a rewritten chain),
    naming the first line that differs; nothing without a published ledger."""
    if fact is None:
        return
    where = f"{fact.get('remote')} {fact.get('ref')}"
    if fact.get("holds"):
        said = f"(sync {fact.get('synced_at')})"
        message = f"holds the {fact['published']} line(s) published on {where} {said}"
        yield Finding("OK", "witness", ledger_shown, message)
        return
    differs = fact.get("differs") or {}
    state = ledger_shown.rsplit("/", 1)[0]
    if differs.get("file"):
        subject = f"{state}/{differs['file']}:{differs['line']}"
        said = f"line {differs['index']} of what {where} holds differs from {subject}"
    elif differs.get("index"):
        subject = ledger_shown
        said = f"line {differs['index']} of what {where} holds is missing here"
    else:
        subject, said = ledger_shown, f"the last line published on {where} is not here"
    message = (
        f"the ledger no longer holds what the remote witnessed — {said}: the chain was "
        "rewritten; the remote only moves forward, so sync refuses to publish it"
    )
    yield Finding("FAIL", "witness", subject, message, reproduce(fact, ledger_shown))


def reproduce(fact: Record, ledger_shown: str) -> str:
    """The published lines from the store, then the local line that differs."""
    store = f"{ledger_shown.rsplit('/', 2)[0]}/{DIRECTORY}/{STORE}"
    differs = fact.get("differs") or {}
    index = differs.get("index") or fact.get("published")
    shown = f"git --git-dir={store} log -p --reverse --format= {fact.get('ref')} -- lines.jsonl"
    published = f"{shown} | grep '^+{{' | sed -n '{index}p'"
    if differs.get("file"):
        state = ledger_shown.rsplit("/", 1)[0]
        return f"{published}; sed -n '{differs['line']}p' {state}/{differs['file']}"
    return f"{published}; wc -l {ledger_shown}"
