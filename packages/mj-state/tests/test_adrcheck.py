"""`mj-state adrs --view check` over a layer in a scratch repository: a broken install whose
allow list is missing is 13, never a pass."""

from __future__ import annotations

import io
import shutil
import subprocess
from pathlib import Path

import pytest
from mj_core import share
from mj_core.schema import keys
from mj_policy.layer import init_write
from mj_state import cli

ENV = {
    "GIT_CONFIG_GLOBAL": "/dev/null",
    "GIT_CONFIG_NOSYSTEM": "1",
    "PATH": "/usr/bin:/bin",
}
ADR = (
    "---\nschema: adr/v1\nid: adr-0001\nkind: adr\ntitle: One\nstatus: accepted\n"
    'date: "2026-09-05"\n---\n'
    "## Context\nWhy.\n## Decision\nWhat.\n## Consequences\nCost.\n"
)


@pytest.fixture
def root(tmp_path: Path) -> Path:
    subprocess.run(["git", "init", "-q", "-b", "main"], cwd=tmp_path, env=ENV, check=True)
    list(init_write.create(tmp_path, extend=False))
    return tmp_path


def _check(root: Path) -> tuple[int, str]:
    out = io.BytesIO()
    code = cli.main(["adrs", "--view", "check", "--repo", str(root)], stdout=out,
                    stderr=io.StringIO())  # fmt: skip
    return code, out.getvalue().decode()


@pytest.mark.parametrize("with_record", [False, True])
def test_a_missing_allow_list_is_13(
    root: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, with_record: bool
) -> None:
    if with_record:
        (root / ".ai/repo/adrs/0001-one.md").write_text(ADR)
    code, out = _check(root)
    assert code == 0 and f"{int(with_record)} record(s), {int(with_record)} valid" in out, out
    broken = tmp_path / "broken-share"
    shutil.copytree(share.root(), broken)
    (broken / "allow" / "adr.txt").unlink()
    monkeypatch.setattr(share, "root", lambda: broken)
    keys.allowed.cache_clear()
    try:
        code, out = _check(root)
    finally:
        keys.allowed.cache_clear()
    assert code == 13 and '"exit":13' in out and "adr.txt" in out
