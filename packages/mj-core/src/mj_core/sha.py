"""SHA-256 as hex, from CPython's own built-in module when it has one.

`hashlib` loads OpenSSL (about 5 ms here); the ledger's hash chain is checked by commands run
from git hooks, and CPython ships the same algorithm as a small built-in module (`_sha2` from
3.12, `_sha256` before). Its digests are hashlib's: a test holds them equal. The built-in is
slower per byte (about a tenth of OpenSSL's speed here), so many bytes at once — a long
ledger's every line — are hashed by OpenSSL when the interpreter has it: past `_BULK` bytes
loading it costs less than it saves.
"""

from __future__ import annotations

import sys

TYPE_CHECKING = False  # `typing` is not imported at run time on a start-up path
if TYPE_CHECKING:
    from typing import Any

try:  # a failed import searches every path entry first: ask only for the module this has
    if sys.version_info >= (3, 12):
        from _sha2 import sha256 as _sha256  # type: ignore[import-not-found,unused-ignore]
    else:  # pragma: no cover - depends on the interpreter
        from _sha256 import sha256 as _sha256  # type: ignore[import-not-found,unused-ignore]
except ImportError:  # pragma: no cover - an interpreter built without them
    from hashlib import sha256 as _sha256


def hexdigest(data: bytes) -> str:
    """The SHA-256 of `data` as 64 lowercase hex digits."""
    return str(_sha256(data).hexdigest())


_BULK = 512 * 1024


def hexdigests(items: list[bytes]) -> list[str]:
    """`hexdigest` of each item, in order."""
    new = _sha256
    if sum(map(len, items)) > _BULK:
        new = _openssl() or _sha256
    return [str(digest.hexdigest()) for digest in map(new, items)]


def _openssl() -> Any:
    try:
        from _hashlib import openssl_sha256  # type: ignore[import-not-found,unused-ignore]
    except ImportError:  # pragma: no cover - an interpreter built without OpenSSL
        return None
    return openssl_sha256
