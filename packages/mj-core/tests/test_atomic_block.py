from __future__ import annotations

import stat
from pathlib import Path

import pytest
from mj_core.write import atomic


def test_append_block_creates_0600_and_appends_whole_blocks(tmp_path: Path) -> None:
    target = tmp_path / "log.md"
    atomic.append_block(target, b"a\nb\n", root=tmp_path)
    atomic.append_block(target, b"c\n", root=tmp_path)
    assert target.read_bytes() == b"a\nb\nc\n"
    assert stat.S_IMODE(target.stat().st_mode) == 0o600


def test_append_block_adds_a_missing_final_newline(tmp_path: Path) -> None:
    target = tmp_path / "log.md"
    target.write_bytes(b"hand edited")
    atomic.append_block(target, b"x\n", root=tmp_path)
    assert target.read_bytes() == b"hand edited\nx\n"


def test_append_block_refuses_an_unterminated_block(tmp_path: Path) -> None:
    with pytest.raises(ValueError):
        atomic.append_block(tmp_path / "log.md", b"x", root=tmp_path)
