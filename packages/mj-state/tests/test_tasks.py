from __future__ import annotations

from pathlib import Path
from types import SimpleNamespace

import pytest
from hypothesis import given
from hypothesis import settings
from hypothesis import strategies as st
from mj_core.errors import ContractUnmet
from mj_core.errors import Refused
from mj_state.task import record as tasks

RECORD = {
    "id": "t-20260903193012-a4f1",
    "task": "fix: OAuth callback — 'quoted' #1",
    "profile": "debugging",
    "owner": "alice",
    "scope": ["lib/auth", "docs"],
    "started_at": "2026-09-03T19:30:12Z",
    "checkpoint_at": "2026-09-03T20:02:41Z",
    "outcome": "completed",
    "repository_id": "/abs/path/.git",
    "worktree": "/abs/path",
    "branch": "main",
    "head": "3f2a9c1e" * 5,
    "working_tree": "dirty",
}


def layer(tmp_path: Path) -> SimpleNamespace:
    return SimpleNamespace(root=tmp_path, state=tmp_path / ".ai/local/state")


def test_written_record_reads_back_in_schema_order(tmp_path: Path) -> None:
    here = layer(tmp_path)
    tasks.write_current(here, RECORD, replace=False)
    assert tasks.read_current(here) == RECORD
    text = tasks.current_path(here).read_text()
    assert text.index("outcome:") < text.index("# computed from git") < text.index("repository_id")
    with pytest.raises(Refused):
        tasks.write_current(here, RECORD, replace=False)


def test_archive_refuses_active_and_existing(tmp_path: Path) -> None:
    here = layer(tmp_path)
    with pytest.raises(Refused):
        tasks.archive(here, {**RECORD, "outcome": "active"})
    assert tasks.archive(here, RECORD).name == f"{RECORD['id']}.yaml"
    with pytest.raises(Refused, match="already archived"):
        tasks.archive(here, RECORD)


@pytest.mark.parametrize(
    ("text", "where"),
    [
        ("id: t-1\n", "current.yaml:1:1"),
        ("outcome: done\n", "current.yaml:1:1"),
        ("- a\n", "current.yaml:1:1"),
    ],
)
def test_bad_records_name_file_and_line(tmp_path: Path, text: str, where: str) -> None:
    here = layer(tmp_path)
    tasks.current_path(here).parent.mkdir(parents=True)
    tasks.current_path(here).write_text(text)
    with pytest.raises(ContractUnmet, match=where):
        tasks.read_current(here)


@settings(deadline=None, max_examples=150)
@given(st.text(max_size=200))
def test_any_text_is_a_record_or_one_contract_error(
    tmp_path_factory: pytest.TempPathFactory, text: str
) -> None:
    here = layer(tmp_path_factory.mktemp("t"))
    tasks.current_path(here).parent.mkdir(parents=True)
    tasks.current_path(here).write_text(text, encoding="utf-8")
    try:
        tasks.read_current(here)
    except ContractUnmet as exc:
        assert "\n" not in exc.message and ".ai/local/state/current.yaml:" in exc.message


def test_the_default_owner_without_login_variables(monkeypatch: pytest.MonkeyPatch) -> None:
    import getpass

    for variable in ("USER", "LOGNAME", "LNAME", "USERNAME"):
        monkeypatch.delenv(variable, raising=False)
    assert tasks.default_owner() == getpass.getuser()
    monkeypatch.setenv("LOGNAME", "from-logname")
    assert tasks.default_owner() == "from-logname"
    monkeypatch.setenv("USER", "from-user")
    assert tasks.default_owner() == "from-user"
