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
