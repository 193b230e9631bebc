from __future__ import annotations

import hashlib

import pytest
from hypothesis import given
from hypothesis import strategies as st
from mj_core import line_hash as linehash
from mj_core import sha


@given(st.binary(max_size=4096))
def test_hexdigest_equals_hashlib(data: bytes) -> None:
    assert sha.hexdigest(data) == hashlib.sha256(data).hexdigest()


@given(st.binary(max_size=4096))
def test_linehash_is_blake2b_256(data: bytes) -> None:
    assert linehash.hexdigest(data) == hashlib.blake2b(data, digest_size=32).hexdigest()


@given(st.lists(st.binary(max_size=300), max_size=20))
def test_linehashes_in_order(items: list[bytes]) -> None:
    expected = [hashlib.blake2b(item, digest_size=32).hexdigest() for item in items]
    assert linehash.hexdigests(items) == expected


def test_linehash_is_what_b2sum_prints() -> None:
    import shutil
    import subprocess

    if shutil.which("b2sum") is None:  # the reproduce commands name it; coreutils ships it
        pytest.skip("b2sum is not installed here")
    out = subprocess.run(["b2sum", "-l", "256"], input=b"abc", capture_output=True, check=True)
    assert out.stdout.split()[0].decode() == linehash.hexdigest(b"abc")
