from __future__ import annotations

import os
import shutil
from pathlib import Path

import pytest
from mj_watch.wiring import path_lookup as pathlookup


def tool(directory: Path, name: str, mode: int = 0o755) -> Path:
    directory.mkdir(parents=True, exist_ok=True)
    path = directory / name
    path.write_text("#!/bin/sh\n")
    path.chmod(mode)
    return path


@pytest.mark.parametrize("name", ["sh", "git", "no-such-tool-here", "x", "dir", "plain", "./x"])
def test_which_answers_as_shutil_which(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, name: str
) -> None:
    first, second = tmp_path / "a", tmp_path / "b"
    tool(first, "plain", mode=0o644)  # not executable: skipped for the next directory's
    tool(second, "plain")
    tool(second, "x")
    (first / "dir").mkdir()  # a directory is never the answer
    path = os.pathsep.join([str(first), str(second), str(first), os.environ.get("PATH", "")])
    monkeypatch.setenv("PATH", path)
    monkeypatch.chdir(second)
    assert pathlookup.which(name) == shutil.which(name)


def test_which_with_an_empty_or_unset_path(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("PATH", "")
    assert pathlookup.which("sh") is None is shutil.which("sh")
    monkeypatch.delenv("PATH")
    assert pathlookup.which("sh") == shutil.which("sh")


def test_resolves_on_path_relative_and_on_the_hook_line(tmp_path: Path) -> None:
    name = "mj-test-tool-not-on-path"
    tool(tmp_path / ".venv/bin", name)
    assert shutil.which(name) is None
    assert pathlookup.resolves(tmp_path, "sh")
    assert pathlookup.resolves(tmp_path, f".venv/bin/{name}")
    assert not pathlookup.resolves(tmp_path, name)
    assert pathlookup.resolves(tmp_path, name, f".venv/bin/{name} doctor || exit $?")
