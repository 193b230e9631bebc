"""The network: one fetch of `refs/majordomus/*` into the store, one atomic push with a
compare-and-swap on every ref it moves, and the one-ref reads a lost swap needs.

Every call runs in the private store through `store.run` (the runner's scrubbed environment
and safe settings, no hooks, no terminal prompt) and is stopped after `remote.timeout`. A remote
that cannot be reached or does not answer in time is one line naming it and 12 (`Unreachable`):
the caller has written nothing yet.
"""

from __future__ import annotations

import re

from mj_core.errors import ContractUnmet
from mj_core.errors import MissingArtifact
from mj_core.errors import Refused
from mj_core.git import questions as git

from mj_state.remote import store

TYPE_CHECKING = False
if TYPE_CHECKING:
    from pathlib import Path

    from mj_policy.layer.loader import Layer

    from mj_state.remote.config import Settings

ALL = "+refs/majordomus/*:refs/majordomus/*"
_USERINFO = re.compile(r"([a-z][a-z0-9+.-]*://)[^/@\s'\"]*@", re.I)


class Unreachable(MissingArtifact):
    """The remote could not be reached or did not answer in time (12)."""


class Endpoint:
    """The remote as this checkout reaches it: its name, URLs, the store, the bound."""

    __slots__ = ("fetch_url", "name", "push_url", "shown", "store", "timeout")

    def __init__(self, name: str, fetch_url: str, push_url: str, where: Path, timeout: int) -> None:
        self.name = name
        self.fetch_url = fetch_url
        self.push_url = push_url
        self.store = where
        self.timeout = timeout
        self.shown = f"remote {name} ({bare(push_url)})"


def bare(url: str) -> str:
    """`url` without a user or password it may carry (never printed)."""
    return _USERINFO.sub(r"\1", url)


def endpoint(layer: Layer, settings: Settings, *, fetching: bool = True) -> Endpoint:
    """The remote `settings.name` as git resolves its URLs (`git remote get-url`); a name the
    repository does not know is 12."""
    calls: list[tuple[tuple[str, ...], Path | str]] = [
        (("remote", "get-url", "--push", settings.name), layer.root)
    ]
    if fetching:
        calls.append((("remote", "get-url", settings.name), layer.root))
    answers = git.run_many(calls)
    if any(code != 0 for code, _, _ in answers):
        raise MissingArtifact(
            f"remote {settings.name}: not a remote of this repository (policy remote.name) — "
            f"`git remote add {settings.name} <url>`, or name another"
        )
    push_url = answers[0][1].strip()
    fetch_url = answers[1][1].strip() if fetching else push_url
    return Endpoint(settings.name, fetch_url, push_url, store.ensure(layer), settings.timeout)


def _network(ep: Endpoint, *args: str) -> tuple[int, str, str]:
    env_args = ("-c", "credential.interactive=never", "-c", "gc.autoDetach=false")
    try:
        code, out, err = store.run(ep.store, *env_args, *args, timeout=ep.timeout)
    except ContractUnmet:
        raise Unreachable(
            f"{ep.shown}: no answer within {ep.timeout} s (remote.timeout); nothing was written"
        ) from None
    return code, out.decode("utf-8", "replace"), err.decode("utf-8", "replace")


def _unreachable(ep: Endpoint, err: str) -> Unreachable:
    lines = [line.strip() for line in err.splitlines() if line.strip()]
    said = bare(lines[0] if lines else "git gave no reason")
    for line in lines:
        if line.startswith("fatal:"):
            said = bare(line)
            break
    return Unreachable(f"{ep.shown}: unreachable — {said[:200]}; nothing was written")


def fetch(ep: Endpoint, refspecs: tuple[str, ...] = (ALL,), *, prune: bool = True) -> None:
    """Fetch into the store (pruning mirror refs the remote no longer has); 12 on failure."""
    args = ["fetch", "--quiet", "--no-tags", "--no-write-fetch-head"]
    if prune:
        args.append("--prune")
    code, _, err = _network(ep, *args, ep.fetch_url, *refspecs)
    if code != 0:
        raise _unreachable(ep, err)


def fetch_one(ep: Endpoint, ref: str) -> bool:
    """Fetch one ref into the store; False when the remote has no such ref (12 on failure)."""
    code, _, err = _network(
        ep, "fetch", "--quiet", "--no-tags", "--no-write-fetch-head", ep.fetch_url, f"+{ref}:{ref}"
    )
    if code == 0:
        return True
    if "couldn't find remote ref" in err:
        store.run(ep.store, "update-ref", "-d", ref)
        return False
    raise _unreachable(ep, err)


def highest(ep: Endpoint, pattern: str) -> list[str]:
    """The names of the remote's refs matching `pattern` (`git ls-remote`)."""
    code, out, err = _network(ep, "ls-remote", "--refs", ep.push_url, pattern)
    if code != 0:
        raise _unreachable(ep, err)
    return [line.split("\t", 1)[1] for line in out.splitlines() if "\t" in line]


class Update:
    """Move `ref` to `new`, only if the remote holds `expected` there ("" = no such ref)."""

    __slots__ = ("expected", "new", "ref")

    def __init__(self, ref: str, new: str, expected: str) -> None:
        self.ref = ref
        self.new = new
        self.expected = expected


def push(ep: Endpoint, updates: list[Update]) -> dict[str, str]:
    """One `git push --atomic`, each ref compare-and-swapped: every ref moves or none does.
    The status of each: `ok`, `stale` (the remote held something else) or the refusal."""
    args = ["push", "--porcelain", "--atomic", "--no-verify", ep.push_url]
    args += [f"{u.new}:{u.ref}" for u in updates]
    args += [f"--force-with-lease={u.ref}:{u.expected}" for u in updates]
    code, out, err = _network(ep, *args)
    status = _statuses(out)
    if not all(u.ref in status for u in updates):
        raise _unreachable(ep, err)
    if code == 0:
        return {u.ref: "ok" for u in updates}
    return status


# What a lost swap looks like: refused here (the lease saw another value), or by the remote
# while another push held the ref (its transaction could not lock or found another old value).
_LOST = ("stale info", "fetch first", "atomic transaction failed", "lock", "incorrect old value",
         "failed to update ref")  # fmt: skip


def _statuses(out: str) -> dict[str, str]:
    """ref → `ok`, `stale` (a swap lost), `atomic` (not moved because another ref of the same
    push was refused) or the refusal as git words it."""
    found: dict[str, str] = {}
    for line in out.splitlines():
        parts = line.split("\t")
        if len(parts) != 3 or ":" not in parts[1]:
            continue
        flag, ref, said = parts[0], parts[1].split(":", 1)[1], parts[2]
        if flag != "!":
            found[ref] = "ok"
        elif "atomic push failed" in said:
            found[ref] = "atomic"
        elif any(word in said for word in _LOST):
            found[ref] = "stale"
        else:
            found[ref] = said
    return found


def refused(ep: Endpoint, ref: str, said: str) -> Refused:
    return Refused(f"{ep.shown}: refused {ref} ({said}); nothing was written")
