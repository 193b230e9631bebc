from __future__ import annotations

import hashlib

from hypothesis import given
from hypothesis import strategies as st
from mj_core import sha


@given(st.binary(max_size=4096))
def test_hexdigest_equals_hashlib(data: bytes) -> None:
    assert sha.hexdigest(data) == hashlib.sha256(data).hexdigest()


@given(st.lists(st.binary(max_size=300), max_size=20))
def test_hexdigests_equal_hashlib_in_order(items: list[bytes]) -> None:
    assert sha.hexdigests(items) == [hashlib.sha256(item).hexdigest() for item in items]


def test_a_bulk_past_the_threshold_hashes_the_same() -> None:
    items = [bytes([n % 251]) * 700 for n in range(1000)]  # past _BULK: OpenSSL's digests
    assert sum(map(len, items)) > sha._BULK
    assert sha.hexdigests(items) == [hashlib.sha256(item).hexdigest() for item in items]
