"""`files.read_bytes` reads what `Path.read_bytes` reads and raises what it raises."""

from __future__ import annotations

from pathlib import Path

import pytest
from mj_core import files


@pytest.mark.parametrize("size", [0, 1, 16383, 16384, 16385, 100_000])
def test_every_size_reads_whole(tmp_path: Path, size: int) -> None:
    target = tmp_path / "f"
    data = bytes(range(256)) * (size // 256) + bytes(size % 256)
    target.write_bytes(data)
    assert files.read_bytes(target) == target.read_bytes() == data
    assert files.read_bytes(str(target)) == data


def test_errors_are_those_of_path_read_bytes(tmp_path: Path) -> None:
    with pytest.raises(FileNotFoundError):
        files.read_bytes(tmp_path / "missing")
    with pytest.raises(IsADirectoryError):
        files.read_bytes(tmp_path)


def test_a_capped_read_takes_the_cap_and_refuses_one_byte_more(tmp_path: Path) -> None:
    from mj_core.errors import ContractUnmet

    target = tmp_path / "f"
    target.write_bytes(b"a\n" * 50)
    assert files.read_capped(target, "f", (100, 10)) == b"a\n" * 50
    target.write_bytes(b"a\n" * 50 + b"b")
    with pytest.raises(ContractUnmet, match=r"^f:51:1: over 100 bytes"):
        files.read_capped(target, "f", (100, 10))


def test_a_capped_read_refuses_a_long_line_naming_it(tmp_path: Path) -> None:
    from mj_core.errors import ContractUnmet

    target = tmp_path / "f"
    target.write_bytes(b"short\n" * 3 + b"x" * 11 + b"\nshort\n")
    with pytest.raises(ContractUnmet, match=r"^f:4:11: line over 10 bytes"):
        files.read_capped(target, "f", (1000, 10))
    assert files.read_most(target, "f", 1000).count(b"\n") == 5  # no line cap


def test_a_capped_read_never_opens_a_fifo_for_long(tmp_path: Path) -> None:
    import os

    from mj_core.errors import ContractUnmet

    fifo = tmp_path / "fifo"
    os.mkfifo(fifo)
    with pytest.raises(ContractUnmet, match="not a regular file"):
        files.read_capped(fifo, "fifo", (100, 100))  # no writer: a blocking open would hang
    with pytest.raises(ContractUnmet, match="not a regular file"):
        files.read_capped("/dev/zero", "zero", (100, 100))
    with pytest.raises(IsADirectoryError):
        files.read_capped(tmp_path, "dir", (100, 100))
    with pytest.raises(FileNotFoundError):
        files.read_capped(tmp_path / "missing", "missing", (100, 100))


def test_a_lenient_read_replaces_bad_bytes_and_gives_none_when_absent(tmp_path: Path) -> None:
    from mj_core.errors import ContractUnmet

    target = tmp_path / "log.md"
    assert files.read_lenient(target, "log.md", (100, 100)) is None
    target.write_bytes(b"caf\xe9\n")
    assert files.read_lenient(target, "log.md", (100, 100)) == "caf\ufffd\n"
    with pytest.raises(ContractUnmet, match="is a directory"):
        files.read_lenient(tmp_path, "dir", (100, 100))
