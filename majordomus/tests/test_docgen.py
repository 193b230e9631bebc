from __future__ import annotations

from pathlib import Path

from mj_core.declaration import commands as declare
from mj_core.exit_codes import ExitCode

from majordomus import docgen

ROOT = Path(__file__).resolve().parents[2]


def test_command_reference_is_current() -> None:
    committed = (ROOT / docgen.TARGET).read_text(encoding="utf-8")
    assert committed == docgen.render(), "regenerate with `python -m majordomus.docgen`"


def test_reference_names_every_public_command_and_exit_code() -> None:
    text = docgen.render()
    for name in declare.public():
        assert f"\n### {name}" in text
    for name, spec in declare.commands().items():
        if spec.get("pipeline") or not spec.get(
            "actions"
        ):  # a parent without its own is its actions
            assert f"\n### {name}\n" in text, name
    for code in ExitCode:
        assert f"| {int(code)} | {code.name} |" in text
