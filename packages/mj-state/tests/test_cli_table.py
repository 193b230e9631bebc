from __future__ import annotations

import importlib
import json
import subprocess
import sys

from mj_state import cli


def test_the_lazy_table_names_exactly_each_modules_stages() -> None:
    modules = {module for module in cli.TABLE._where.values()}
    declared = {
        name: module for module in modules for name in importlib.import_module(module).STAGES
    }
    assert declared == dict(cli.TABLE._where)


def test_one_subcommand_imports_only_its_own_module() -> None:
    code = (
        "import sys; from mj_state import cli; cli.parse(['history']);"
        "import json; print(json.dumps([m for m in sys.modules if m.startswith('mj_state.')]))"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    loaded = json.loads(out.stdout)
    assert "mj_state.history" in loaded
    assert not {"mj_state.facts", "mj_state.handover", "mj_state.decisionlog"} & set(loaded)
