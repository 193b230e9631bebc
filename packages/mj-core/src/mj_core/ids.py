"""Identifier allocation: random suffixes from the OS, stamps from the clock."""

from __future__ import annotations

import os

from mj_core import clock


def random_hex(length: int) -> str:
    # What `secrets.token_hex` returns, without `secrets` (it imports random, hmac, hashlib).
    return os.urandom((length + 1) // 2).hex()[:length]


def task_id(moment: int | None = None) -> str:
    """`t-<YYYYMMDDHHMMSS>-<4 hex>` (Decision 1)."""
    return f"t-{clock.digits(clock.now() if moment is None else moment)}-{random_hex(4)}"


def session_id(moment: int | None = None) -> str:
    """`s-<YYYYMMDDHHMMSS>-<4 hex>`."""
    return f"s-{clock.digits(clock.now() if moment is None else moment)}-{random_hex(4)}"


def branch_key(branch: str | None) -> str:
    """A branch name made safe for a file name; `DETACHED` without one."""
    if not branch:
        return "DETACHED"
    return "".join(c if (c.isalnum() and c.isascii()) or c in "._-" else "-" for c in branch)


def record_name(moment: int, branch: str | None, head: str | None) -> str:
    """`<YYYYMMDDTHHMMSSZ>--<branch-key>--<short-head>--<16 hex>.md`."""
    short = (head or "0000000")[:7]
    return f"{clock.compact(moment)}--{branch_key(branch)}--{short}--{random_hex(16)}.md"


def session_record(name: str) -> tuple[str, str] | None:
    """(session id, branch key) the name of a closed session record states —
    `<stamp>--<session id>--<branch-key>--<short-head>--<16 hex>.md` — or None for another."""
    parts = name.removesuffix(".md").split("--")
    ident = parts[1] if len(parts) >= 2 else ""
    if len(ident) != 21 or not ident.startswith("s-") or ident[16] != "-":
        return None
    if not (ident[2:16].isdigit() and all(c in "0123456789abcdef" for c in ident[17:])):
        return None
    return ident, "--".join(parts[2:-2])  # a branch key may hold `--` itself
