from __future__ import annotations

import importlib
import json
import subprocess
import sys

import pytest
from mj_core.declaration import commands as declare
from mj_state import cli


def test_the_lazy_table_names_exactly_each_modules_stages() -> None:
    modules = {module for module in cli.TABLE._where.values()}
    declared = {
        name: module for module in modules for name in importlib.import_module(module).STAGES
    }
    assert declared == dict(cli.TABLE._where)


@pytest.mark.parametrize("tool", ["mj-policy", "mj-state", "mj-context", "mj-watch"])
def test_every_tool_runs_exactly_the_stages_the_declaration_names(tool: str) -> None:
    table = importlib.import_module(tool.replace("-", "_") + ".cli").TABLE
    assert sorted(table) == sorted(declare.stages(tool))


def test_parsing_imports_no_stage_and_running_one_imports_only_its_own_module() -> None:
    code = (
        "import sys, json; from mj_state import cli; cli.parse(['history']);"
        "before = [m for m in sys.modules if m.startswith('mj_state.')];"
        "cli.TABLE['history'];"
        "after = [m for m in sys.modules if m.startswith('mj_state.')];"
        "print(json.dumps([before, after]))"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    before, after = json.loads(out.stdout)
    assert "mj_state.history" not in before and "mj_state.history" in after
    assert not {
        "mj_state.facts",
        "mj_state.handover.facts",
        "mj_state.records.decision_log",
    } & set(after)
