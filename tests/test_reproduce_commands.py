"""Reproduce commands run as printed: a finding's `[reproduce: …]` is pasted into a shell and
starts (the suite-wide check is `reprocheck`, run over every finding the behavioural suite
saw; these are its judgement on known cases, and one command a hostile file name used to
break)."""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest
import reprocheck
from conftest import Repo
from conftest import failures

KEY = "-----BEGIN " + "RSA PRIVATE KEY-----\n" + "A" * 40 + "\n"
KEY += "-----END " + "RSA PRIVATE KEY-----\n"  # built here, so no key is in this file


def _judged(script: str, cwd: Path) -> str | None:
    proc = subprocess.run(
        ["sh", "-c", script], cwd=cwd, capture_output=True, text=True, check=False
    )
    return reprocheck.problem(script, proc.returncode, proc.stderr)


@pytest.mark.parametrize(
    "script",
    [
        "grep -nE '-----BEGIN RSA' key.pem",  # grep reads the pattern as options
        "grep -n -Q x key.pem",
        "no-such-program-here key.pem",
        "git diff --no-such-option",
        "echo 'unbalanced",
    ],
)
def test_a_command_that_does_not_start_is_named(tmp_path: Path, script: str) -> None:
    (tmp_path / "key.pem").write_text(KEY)
    subprocess.run(["git", "init", "-q"], cwd=tmp_path, check=True)
    assert _judged(script, tmp_path) is not None


@pytest.mark.parametrize(
    "script",
    [
        "grep -nE -e '-----BEGIN RSA' key.pem",  # found: 0
        "grep -n -e absent key.pem",  # not found: 1
        "grep -n -e x gone.pem",  # the file is gone since: 2, and only that said
        "git status --short",
        "command -v no-such-program-here",  # not found is its answer (127, nothing said)
    ],
)
def test_a_command_that_starts_passes(tmp_path: Path, script: str) -> None:
    (tmp_path / "key.pem").write_text(KEY)
    subprocess.run(["git", "init", "-q"], cwd=tmp_path, check=True)
    assert _judged(script, tmp_path) is None


def test_a_secret_in_a_file_named_like_an_option_is_reproduced(layer_repo: Repo) -> None:
    layer_repo.write("-key.pem", KEY)
    layer_repo.commit("a key under a hostile name")
    found = layer_repo.mj("ratchet", "check")
    assert found.code == 10, found
    [(_, subject, _, reproduce)] = [f for f in failures(found.out) if "Private Key" in f[2]]
    assert subject == "-key.pem:1"
    shown = layer_repo.shell(reproduce)
    assert shown.code == 0, (reproduce, shown)
    assert '"subject": "-key.pem:1"' in shown.out or '"subject":"-key.pem:1"' in shown.out
