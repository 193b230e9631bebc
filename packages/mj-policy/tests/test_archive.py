"""mj_policy.archive: blob ids as git computes them, and a read-back that disagrees with the
plan removes the archive and is 13."""

from __future__ import annotations

import argparse
import os
import subprocess
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import settings
from hypothesis import strategies as st
from mj_core.errors import InternalError
from mj_policy.archive import facts as archivefacts
from mj_policy.archive import file as archivefile
from mj_policy.archive import judge as archivejudge
from mj_policy.archive import write as archive

ENV = {
    **os.environ,
    "GIT_AUTHOR_NAME": "t",
    "GIT_AUTHOR_EMAIL": "t@example.invalid",
    "GIT_COMMITTER_NAME": "t",
    "GIT_COMMITTER_EMAIL": "t@example.invalid",
    "GIT_CONFIG_GLOBAL": "/dev/null",
    "GIT_CONFIG_NOSYSTEM": "1",
}


@settings(max_examples=40, deadline=None)
@given(st.binary(max_size=300))
def test_a_blob_id_is_the_one_git_gives(data: bytes) -> None:
    done = subprocess.run(["git", "hash-object", "--stdin"], input=data, capture_output=True,
                          check=True)  # fmt: skip
    assert archivefile.git_blob_id(data) == done.stdout.decode().strip()


def _repo(tmp_path: Path) -> Path:
    root = tmp_path / "r"
    root.mkdir()
    subprocess.run(["git", "init", "-q"], cwd=root, env=ENV, check=True)
    (root / "a.txt").write_text("a\n", encoding="utf-8")
    (root / "b.txt").write_text("b\n", encoding="utf-8")
    subprocess.run(["git", "add", "-A"], cwd=root, env=ENV, check=True)
    return root


def _options(out: Path) -> argparse.Namespace:
    return argparse.Namespace(profile="audit", list=False, out=str(out), format=None,
                              dry_run=False, force=False)  # fmt: skip


@pytest.mark.parametrize("fmt", ["zip", "tar.gz"])
def test_a_read_back_unlike_the_plan_removes_the_archive(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, fmt: str
) -> None:
    root = _repo(tmp_path)
    out = tmp_path / f"x.{fmt}"
    (plan,) = archivejudge.judge(archivefacts.gather(root, _options(out), root))
    assert [m[2] for m in plan["members"]] == ["a.txt", "b.txt"]
    real = archivefile.build

    def lossy(record: dict, content: dict[str, bytes], moment: int) -> bytes:
        first = record["members"][0][1]
        return real(record, {**content, first: b"changed on the way\n"}, moment)

    monkeypatch.setattr(archivefile, "build", lossy)
    with pytest.raises(InternalError, match="read back unlike the index"):
        archive.write(root, plan)
    assert not out.exists()
    monkeypatch.setattr(archivefile, "build", real)
    written = archive.write(root, plan)
    assert out.is_file() and written["members"] == 2
