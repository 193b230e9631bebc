"""The hooks run the majordomus the person installed, and doctor proves it is the one it is.

`init` prints hook lines and `capture install` writes shims that name the executable they were
run from (an absolute path, quoted for the shell), so a tool installed in a virtual
environment works from hooks whose PATH does not hold it. doctor resolves the program each hook
line and each shim will run and FAILs the wiring when that is not the file doctor itself runs
as (a look-alike first on PATH), naming what it found; a bare `majordomus` that PATH resolves to
doctor's own file is wired. A shim whose program is gone logs one line and the provider is not
reported verified.
"""

from __future__ import annotations

import json
import os
import shlex
import subprocess
from pathlib import Path

from conftest import Repo
from conftest import bin_dir
from conftest import exe
from conftest import failures

SYSTEM_PATH = "/usr/local/bin:/usr/bin:/bin"  # git and sh, no majordomus


def adopted(repo: Repo) -> Repo:
    repo.write("README.md", "# scratch\n\nAI workers: read AGENTS.md.\n")
    assert repo.mj("update").code == 0
    repo.commit("provider files")
    return repo


def printed(out: str) -> dict[str, str]:
    """hook file → the line `init` printed for it."""
    found = {}
    for line in out.splitlines():
        if line.startswith("  .git/hooks/") and line.endswith(" || exit $?"):
            hook, _, command = line.strip().partition(": ")
            found[hook] = command
    return found


def install(repo: Repo, hook: str, line: str) -> None:
    path = repo.root / hook
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(f"#!/bin/sh\n{line}\n", encoding="utf-8")
    path.chmod(0o755)


def git_without_majordomus(repo: Repo, *args: str) -> subprocess.CompletedProcess[str]:
    env = {**repo.env, "PATH": SYSTEM_PATH}
    return subprocess.run(
        ["git", *args], cwd=repo.root, env=env, capture_output=True, text=True, check=False
    )


def linked(tmp_path: Path, name: str) -> Path:
    """A directory (`name` may hold a space) whose `majordomus` is a link to the installed one:
    the tool run through it names that path."""
    where = tmp_path / name
    where.mkdir(parents=True)
    (where / "majordomus").symlink_to(exe("majordomus"))
    return where / "majordomus"


def test_init_names_the_majordomus_it_ran_from_and_the_hooks_run_without_path(
    layer_repo: Repo,
) -> None:
    repo = adopted(layer_repo)
    lines = printed(repo.mj("init", "--extend").out)
    assert lines == {
        ".git/hooks/pre-commit": f"{shlex.quote(exe('majordomus'))} doctor --brief || exit $?",
        ".git/hooks/pre-push": f"{shlex.quote(exe('majordomus'))} finish --check || exit $?",
    }
    for hook, line in lines.items():
        install(repo, hook, line)
    assert repo.mj("doctor").code == 0
    repo.write("notes.txt", "one\n")
    repo.git("add", "notes.txt")
    committed = git_without_majordomus(repo, "commit", "-q", "--no-gpg-sign", "-m", "notes")
    assert committed.returncode == 0, committed
    assert "not found" not in committed.stderr


def test_a_path_with_a_space_is_quoted_and_proven(layer_repo: Repo, tmp_path: Path) -> None:
    repo = adopted(layer_repo)
    tool = linked(tmp_path, "my tools")
    init = subprocess.run(
        [str(tool), "init", "--extend"],
        cwd=repo.root,
        env=repo.env,
        capture_output=True,
        text=True,
        check=False,
    )
    lines = printed(init.stdout)
    assert lines[".git/hooks/pre-commit"] == f"'{tool}' doctor --brief || exit $?", init.stdout
    for hook, line in lines.items():
        install(repo, hook, line)
    doctor = subprocess.run(
        [str(tool), "doctor"], cwd=repo.root, env=repo.env, capture_output=True, text=True,
        check=False,
    )  # fmt: skip
    assert doctor.returncode == 0, doctor.stdout
    repo.write("notes.txt", "two\n")
    repo.git("add", "notes.txt")
    committed = git_without_majordomus(repo, "commit", "-q", "--no-gpg-sign", "-m", "notes")
    assert committed.returncode == 0, committed


def test_a_lookalike_first_on_path_is_not_reported_wired(layer_repo: Repo, tmp_path: Path) -> None:
    repo = adopted(layer_repo)
    install(repo, ".git/hooks/pre-commit", "majordomus doctor --brief || exit $?")
    install(repo, ".git/hooks/pre-push", "majordomus finish --check || exit $?")
    assert repo.mj("doctor").code == 0  # bare, and PATH finds doctor's own file: wired
    fake = tmp_path / "fake"
    fake.mkdir()
    (fake / "majordomus").write_text("#!/bin/sh\nexit 0\n")
    (fake / "majordomus").chmod(0o755)
    repo.env["PATH"] = f"{fake}{os.pathsep}{repo.env['PATH']}"
    for argv in (("doctor",), ("doctor", "--prove")):
        result = repo.mj(*argv)
        wiring = [f for f in failures(result.out) if f[0] == "wiring"]
        assert result.code == 10 and len(wiring) == 2, (argv, result)
        for _, _, message, _ in wiring:
            assert str(fake / "majordomus") in message and exe("majordomus") in message, message


def test_a_hook_naming_another_installation_is_not_wired(layer_repo: Repo, tmp_path: Path) -> None:
    repo = adopted(layer_repo)
    other = tmp_path / "other"
    other.mkdir()
    (other / "majordomus").write_text("#!/bin/sh\nexit 0\n")
    (other / "majordomus").chmod(0o755)
    install(repo, ".git/hooks/pre-commit", f"{other}/majordomus doctor --brief || exit $?")
    install(repo, ".git/hooks/pre-push", f"{exe('majordomus')} finish --check || exit $?")
    result = repo.mj("doctor")
    (wiring,) = [f for f in failures(result.out) if f[0] == "wiring"]
    assert wiring[1] == "doctor-on-commit" and f"{other}/majordomus" in wiring[2], wiring


def shim(repo: Repo, name: str, payload: dict[str, object]) -> subprocess.CompletedProcess[str]:
    env = {**repo.env, "PATH": SYSTEM_PATH, "CLAUDE_PROJECT_DIR": str(repo.root)}
    return subprocess.run(
        [str(repo.root / ".claude/hooks" / name)],
        cwd=repo.root,
        env=env,
        input=json.dumps(payload),
        capture_output=True,
        text=True,
        check=False,
        timeout=120,
    )


def test_the_shims_run_the_tool_without_path_and_log_when_it_is_gone(
    layer_repo: Repo, tmp_path: Path
) -> None:
    tool = linked(tmp_path, "venv bin")
    installed = subprocess.run(
        [str(tool), "capture", "install"],
        cwd=layer_repo.root,
        env=layer_repo.env,
        capture_output=True,
        text=True,
        check=False,
    )
    assert installed.returncode == 0, installed
    text = (layer_repo.root / ".claude/hooks/majordomus-capture").read_text()
    assert shlex.quote(str(tool)) in text
    prompt = {"hook_event_name": "UserPromptSubmit", "session_id": "cc-p", "prompt": "hello"}
    assert shim(layer_repo, "majordomus-capture", prompt).returncode == 0
    assert len(list((layer_repo.root / ".ai/local/prompts").glob("*.json"))) == 1
    status = subprocess.run(
        [str(tool), "capture", "status"], cwd=layer_repo.root, env=layer_repo.env,
        capture_output=True, text=True, check=False,
    )  # fmt: skip
    assert "claude-code  verified" in status.stdout, status
    tool.unlink()  # the installation the shims name is gone
    gone = shim(layer_repo, "majordomus-capture", prompt)
    assert gone.returncode == 0 and gone.stdout == "", gone
    log = (layer_repo.root / ".ai/local/prompts/failures.log").read_text()
    assert log.count("\n") == 1 and str(tool) in log and "capture install" in log, log
    assert len(list((layer_repo.root / ".ai/local/prompts").glob("*.json"))) == 1
    now = layer_repo.mj("capture", "status")
    assert "claude-code  verified" not in now.out and str(tool) in now.out, now
    doctor = layer_repo.mj("doctor")
    (line,) = [
        x for x in doctor.out.splitlines() if x.startswith("WARN capture     claude-code shims")
    ]
    assert str(tool) in line and "does not exist" in line, line
    assert bin_dir().is_dir()
