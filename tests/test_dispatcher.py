"""The dispatcher's usage and exit rules (CLI-REFERENCE §0, §2.30)."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

from conftest import Repo
from conftest import exe
from conftest import make_env


def _run(*args: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [exe("majordomus"), *args],
        cwd=cwd,
        env=make_env(cwd),
        capture_output=True,
        text=True,
        check=False,
    )


def test_no_arguments_prints_usage_and_exits_2(tmp_path: Path) -> None:
    result = _run(cwd=tmp_path)
    assert result.returncode == 2
    assert result.stdout.startswith("usage: majordomus")
    assert "exit codes: 0 ok, 2 usage, 10 contract unmet" in result.stdout


def test_help_forms_exit_0(tmp_path: Path) -> None:
    for form in ("-h", "--help", "help"):
        result = _run(form, cwd=tmp_path)
        assert result.returncode == 0, form
        assert result.stdout.startswith("usage: majordomus")
    assert "  help " not in _run("--help", cwd=tmp_path).stdout  # internal: dispatched, not listed


def test_unknown_command(tmp_path: Path) -> None:
    result = _run("frobnicate", cwd=tmp_path)
    assert result.returncode == 2
    said = "majordomus: unknown command: frobnicate (majordomus --help lists them)\n"
    assert result.stderr == said  # one line, no wall of usage


def test_version_needs_no_repository(tmp_path: Path) -> None:
    for form in ("version", "--version"):
        result = _run(form, cwd=tmp_path)
        assert result.returncode == 0
        assert re.fullmatch(r"majordomus \d+\.\d+\.\d+\n", result.stdout)
    result = _run("version", "--extra", cwd=tmp_path)
    assert result.returncode == 2
    assert result.stderr == "majordomus: version: unknown option --extra\n"


def test_every_listed_command_has_help(git_repo: Repo) -> None:
    usage = git_repo.mj("--help").out
    listed = re.findall(r"^  ([a-z-]+) ", usage.split("global options:")[0], flags=re.M)
    assert "version" in listed
    for name in listed:
        if name == "version":
            continue
        result = git_repo.mj(name, "--help")
        assert result.code == 0, (name, result)
        assert result.out.startswith(f"usage: majordomus {name}"), name


def test_unknown_option_is_a_usage_error(git_repo: Repo) -> None:
    usage = git_repo.mj("--help").out
    listed = re.findall(r"^  ([a-z-]+) ", usage.split("global options:")[0], flags=re.M)
    for name in listed:
        if name in ("version", "tour"):
            continue
        result = git_repo.mj(name, "--no-such-option")
        assert result.code == 2, (name, result)
        assert result.err.count("\n") == 1 and "Traceback" not in result.err


def test_outside_a_repository_is_a_usage_error(tmp_path: Path) -> None:
    usage = _run("--help", cwd=tmp_path).stdout
    listed = re.findall(r"^  ([a-z-]+) ", usage.split("global options:")[0], flags=re.M)
    for name in listed:
        if name in ("version", "tour", "bench"):
            continue
        result = _run(name, cwd=tmp_path)
        assert result.returncode == 2, (name, result.stdout, result.stderr)
        assert "not inside a git repository" in result.stderr


def test_cli_modules_import_neither_jsonschema_nor_gitpython() -> None:
    """Deterministic start-up check: the hot path stays free of the heavy libraries."""
    python = Path(exe("majordomus")).parent / Path(sys.executable).name
    if not python.exists():
        python = Path(exe("majordomus")).parent / "python"
    probe = (
        "import sys\n"
        "import majordomus.cli, majordomus.compose, majordomus.render\n"
        "for tool in ('mj_policy', 'mj_state', 'mj_context', 'mj_knowledge', 'mj_watch'):\n"
        "    __import__(tool + '.cli')\n"
        "heavy = sorted(m for m in ('jsonschema', 'git') if m in sys.modules)\n"
        "print(','.join(heavy))\n"
    )
    result = subprocess.run([str(python), "-c", probe], capture_output=True, text=True, check=True)
    assert result.stdout.strip() == ""
