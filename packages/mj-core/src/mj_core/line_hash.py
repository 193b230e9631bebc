"""The hash of the ledger's chain: BLAKE2b with a 256-bit digest, as `b2sum -l 256` prints it.

Every command that judges the whole ledger (`doctor`, `watch`, `history --validate`) hashes
each of its lines, so the chain's hash is picked for that work on a start-up path: CPython ships
BLAKE2 as a small built-in module (`_blake2`), where SHA-256 is fast only through OpenSSL, whose
loading costs more than hashing a long ledger with BLAKE2. Both are cryptographic hashes; the
chain asks of its hash only that a changed line cannot keep its digest. A test holds these
digests equal to `hashlib.blake2b(digest_size=32)`'s.
"""

from __future__ import annotations

try:
    from _blake2 import blake2b as _blake2b  # type: ignore[import-not-found,unused-ignore]
except ImportError:  # pragma: no cover - an interpreter built without it
    from hashlib import blake2b as _blake2b


def hexdigest(data: bytes) -> str:
    """The BLAKE2b-256 of `data` as 64 lowercase hex digits."""
    return str(_blake2b(data, digest_size=32).hexdigest())


def hexdigests(items: list[bytes]) -> list[str]:
    """`hexdigest` of each item, in order."""
    new = _blake2b
    return [str(new(item, digest_size=32).hexdigest()) for item in items]
