"""Where things live on the remote: every ref under `refs/majordomus/`.

    refs/majordomus/claims/issue/<ID>     a plan issue's claim (`plan start`, `start --issue`)
    refs/majordomus/claims/task/<id>      a task's claim: its scope (`start`)
    refs/majordomus/adr/<n>               an ADR number, taken once (`adr propose`)
    refs/majordomus/ledger/<clone-id>     a clone's published ledger, a chain of commits

Every claim is a chain of commits too (taken, renewed, released, taken over: each update's
parent is the one before), so a remote that refuses non-fast-forward updates and deletions
accepts every update the tool makes. A ref under the prefix that fits none of these shapes is
not ours: it is reported, never read.
"""

from __future__ import annotations

import re

from mj_core.errors import UsageError

PREFIX = "refs/majordomus/"
KINDS = ("issue", "task", "adr", "ledger")
_ID = re.compile(r"^[A-Za-z0-9][A-Za-z0-9_-]*(\.[A-Za-z0-9_-]+)*$")
_NUMBER = re.compile(r"^[1-9][0-9]{0,8}$")
_CLONE = re.compile(r"^c-[0-9a-f]{16}$")


def ref(kind: str, ident: str) -> str:
    if kind in ("issue", "task"):
        return f"{PREFIX}claims/{kind}/{ident}"
    return f"{PREFIX}{kind}/{ident}"


def fits(kind: str, ident: str) -> bool:
    """Whether `ident` can name a ref of `kind` (and so was named by this layout)."""
    if kind == "adr":
        return bool(_NUMBER.match(ident))
    if kind == "ledger":
        return bool(_CLONE.match(ident))
    return len(ident) <= 100 and bool(_ID.match(ident)) and not ident.endswith(".lock")


def parse(name: str) -> tuple[str, str] | None:
    """(kind, id) of a ref this layout names; None for anything else under the prefix."""
    if not name.startswith(PREFIX):
        return None
    parts = name[len(PREFIX) :].split("/")
    if len(parts) == 3 and parts[0] == "claims" and parts[1] in ("issue", "task"):
        kind, ident = parts[1], parts[2]
    elif len(parts) == 2 and parts[0] in ("adr", "ledger"):
        kind, ident = parts
    else:
        return None
    return (kind, ident) if fits(kind, ident) else None


def checked(kind: str, ident: str, command: str) -> str:
    """`ident` when it can name its claim's ref; else 2 (a remote claim needs a ref name)."""
    if not fits(kind, ident):
        raise UsageError(
            f"{command}: {kind} id {ident!r} cannot name a claim on the remote "
            "(letters, digits, '.', '_' and '-')"
        )
    return ident


def clone_ok(ident: str) -> bool:
    return bool(_CLONE.match(ident))
