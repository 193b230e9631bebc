from __future__ import annotations

from pathlib import Path

from mj_core.exitcodes import ExitCode

from majordomus import commands
from majordomus import docgen

ROOT = Path(__file__).resolve().parents[2]


def test_command_reference_is_current() -> None:
    committed = (ROOT / docgen.TARGET).read_text(encoding="utf-8")
    assert committed == docgen.render(), "regenerate with `python -m majordomus.docgen`"


def test_reference_names_every_public_command_and_exit_code() -> None:
    text = docgen.render()
    for name in commands.public():
        assert f"\n### {name}\n" in text
    for code in ExitCode:
        assert f"| {int(code)} | {code.name} |" in text
