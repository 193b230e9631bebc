"""SHA-256 as hex, from CPython's own built-in module when it has one.

`hashlib` loads OpenSSL (about 5 ms here); projection stamps, vendored rule files and the
policy are hashed by commands run from git hooks, and CPython ships the same algorithm as a
small built-in module (`_sha2` from 3.12, `_sha256` before). Its digests are hashlib's: a test
holds them equal. (The ledger's chain hashes with `line_hash`.)
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


def new() -> Any:
    """An incremental SHA-256 (`update`, then `hexdigest`), as `hashlib.sha256()` gives."""
    return _sha256()
