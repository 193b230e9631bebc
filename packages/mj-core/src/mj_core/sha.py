"""SHA-256 as hex, from CPython's own built-in module when it has one.

`hashlib` loads OpenSSL (about 7 ms here); the ledger's hash chain is checked by commands run
from git hooks, and CPython ships the same algorithm as a small built-in module (`_sha2` from
3.12, `_sha256` before). Its digests are hashlib's: a test holds them equal.
"""

from __future__ import annotations

try:  # Python 3.12 and later
    from _sha2 import sha256 as _sha256  # type: ignore[import-not-found,unused-ignore]
except ImportError:  # pragma: no cover - depends on the interpreter
    try:
        from _sha256 import sha256 as _sha256  # type: ignore[import-not-found,unused-ignore]
    except ImportError:
        from hashlib import sha256 as _sha256


def hexdigest(data: bytes) -> str:
    """The SHA-256 of `data` as 64 lowercase hex digits."""
    return str(_sha256(data).hexdigest())


def hexdigests(items: list[bytes]) -> list[str]:
    """`hexdigest` of each item, in order."""
    return [str(digest.hexdigest()) for digest in map(_sha256, items)]
