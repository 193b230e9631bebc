"""One command or stage read from `share/commands.json` alone is what the whole file says."""

from __future__ import annotations

import pytest
from mj_core.declaration import commands as declare
from mj_core.declaration import one as declread
from mj_core.errors import InternalError


def test_each_command_read_alone_is_the_whole_declarations() -> None:
    whole = declare.declaration()
    assert list(declread.names()) == [c["name"] for c in whole["commands"]]
    for entry in whole["commands"]:
        assert declread.command(entry["name"]) == entry
        assert declare.command(entry["name"]) == entry
    assert declread.command("no such command") is None
    with pytest.raises(InternalError):
        declare.command("no such command")


def test_the_head_is_the_whole_declarations_head() -> None:
    whole = declare.declaration()
    assert declare.public() == [n for g in whole["groups"] for n in g["commands"]]
    assert declare.outcomes() == tuple(whole["outcomes"])
    flags = {
        option["flag"]
        for spec in whole["commands"]
        for option in spec.get("options") or []
        if option.get("flag") and option.get("kind", "flag") != "flag"
    }
    assert set(declare.value_flags()) == flags


def test_each_stage_read_alone_is_the_tools_table_entry() -> None:
    tools = {entry["tool"] for entry in declare.declaration()["stages"]}
    assert {"mj-state", "mj-knowledge", "mj-policy", "mj-context", "mj-watch"} <= tools
    for tool in tools:
        for name, entry in declare.stages(tool).items():
            assert declare.stage(tool, name) == entry, (tool, name)
    assert declare.stage("mj-state", "no-such-stage") is None


def test_a_file_in_another_layout_is_a_broken_install(monkeypatch: pytest.MonkeyPatch) -> None:
    whole = b'{"version":2,"groups":[],"outcomes":[],"commands":[],"stages":[]}\n'
    monkeypatch.setattr(declread, "_lines", lambda: whole.split(b"\n"))
    declread.head.cache_clear()
    try:
        with pytest.raises(InternalError, match="one entry a line"):
            declread.head()
    finally:
        declread.head.cache_clear()
