"""Adoption end to end: `init`'s printed next steps, followed verbatim, give `doctor` 0 and a
first commit that goes through the installed pre-commit hook — on a repository whose README
does not name AGENTS.md and on one with no README (and no commit) at all."""

from __future__ import annotations

import shlex
import subprocess
from pathlib import Path

import pytest
from conftest import Repo
from conftest import exe
from conftest import make_env

NEXT = "next: "
HOOK = "  "


def follow(repo: Repo, printed: str) -> list[tuple[str, int]]:
    """Do what each `next:` line says, in order; (command, exit code) for each one run."""
    done = []
    lines = printed.splitlines()
    for index, line in enumerate(lines):
        if not line.startswith(NEXT):
            continue
        step = line.removeprefix(NEXT)
        if step.startswith("install each hook"):
            for hook_line in lines[index + 1 :]:
                if not hook_line.startswith(HOOK):
                    break
                install(repo, *hook_line.strip().split(": ", 1))
            continue
        if step.startswith("pin the project's test command"):
            pin(repo, step)
            continue
        argv = shlex.split(step, comments=True)
        if argv[0] == "majordomus":
            argv[0] = exe("majordomus")
        proc = subprocess.run(
            argv, cwd=repo.root, env=repo.env, capture_output=True, text=True, check=False
        )
        done.append((step, proc.returncode))
        assert proc.returncode == 0, (step, proc.stdout, proc.stderr)
    return done


def pin(repo: Repo, step: str) -> None:
    """As the step says: the commented `commands:` under `verification:` uncommented, with the
    project's test command listed."""
    assert "uncomment `commands:`" in step and ".ai/repo/policy.yaml" in step, step
    policy = repo.root / ".ai/repo/policy.yaml"
    text = policy.read_text(encoding="utf-8")
    assert "  # commands:" in text.split("verification:", 1)[1]
    policy.write_text(
        text.replace("  # commands:", "  commands:\n    - python3 -c pass\n  #", 1),
        encoding="utf-8",
    )


def per_client(printed: str, provider: str) -> list[tuple[str, list[str]]]:
    """(command, the files it writes) of each step of the block after the commit for
    `provider`."""
    block = printed.split("then, for each client", 1)[1].splitlines()[1:]
    steps = []
    for line in block:
        assert line.startswith("  majordomus "), line
        command, comment = line.strip().split("   # ", 1)
        if f"--provider {provider}" in command:
            steps.append((command.strip(), comment.split("; writes ", 1)[1].split()))
    return steps


def install(repo: Repo, hook: str, line: str) -> None:
    """As the step says: a file whose first line is #!/bin/sh, then its line, executable."""
    path = repo.root / hook
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(f"#!/bin/sh\n{line}\n", encoding="utf-8")
    path.chmod(0o755)


def bare(path: Path, home: Path, readme: str | None) -> Repo:
    path.mkdir(parents=True)
    repo = Repo(path, make_env(home))
    repo.git("init", "-q", "-b", "main")
    if readme is not None:
        repo.write("README.md", readme)
        repo.write("src/app.py", "print('hello')\n")
        repo.git("add", "-A")
        repo.git("commit", "-q", "--no-verify", "-m", "a project of its own")
    return repo


@pytest.mark.parametrize(
    "readme",
    ["# Widget\n\nA widget factory. Run `make test`.\n", None],
    ids=["readme-without-agents", "no-readme"],
)
def test_following_inits_next_steps_ends_in_a_first_commit_through_the_hooks(
    tmp_path: Path, readme: str | None
) -> None:
    repo = bare(tmp_path / "repo", tmp_path / "home", readme)
    commits = repo.git("rev-list", "--all", "--count").strip()
    init = repo.mj("init")
    assert init.code == 0, init
    steps = follow(repo, init.out)
    assert [step.split()[0:2] for step, _ in steps] == [
        ["majordomus", "update"],
        ["majordomus", "doctor"],
        ["git", "add"],
        ["git", "commit"],
    ]
    assert int(repo.git("rev-list", "--all", "--count")) == int(commits) + 1
    assert repo.git("status", "--porcelain").strip() == ""  # everything adopted is committed
    text = (repo.root / "README.md").read_text()
    assert "[AGENTS.md](AGENTS.md)" in text
    if readme is not None:
        assert text.startswith(readme)  # the repository's own text is kept byte for byte
    hook = (repo.root / ".git/hooks/pre-commit").read_text()
    assert hook == f"#!/bin/sh\n{exe('majordomus')} doctor --brief || exit $?\n"
    doctor = repo.mj("doctor")
    assert doctor.code == 0
    assert "WARN" not in doctor.out, doctor.out  # the pinned command left nothing to warn about


def test_each_clients_steps_write_what_they_name_and_commit_through_the_hooks(
    tmp_path: Path,
) -> None:
    repo = bare(tmp_path / "repo", tmp_path / "home", "# Widget\n")
    init = repo.mj("init")
    follow(repo, init.out)
    for provider in ("claude-code", "gemini", "codex"):
        steps = per_client(init.out, provider)
        assert steps, provider
        for command, files in steps:
            done = repo.mj(*shlex.split(command)[1:])
            assert done.code == 0, (command, done)
            for name in files:
                assert (repo.root / name).exists(), (command, name)
            repo.git("add", *files)
    proc = subprocess.run(
        ["git", "commit", "-q", "-m", "wire the clients"],
        cwd=repo.root,
        env=repo.env,
        capture_output=True,
        text=True,
        check=False,
    )
    assert proc.returncode == 0, proc.stderr  # through the pre-commit hook
    assert repo.git("status", "--porcelain").strip() == ""


def test_the_installed_hook_blocks_the_next_commit_when_doctor_fails(tmp_path: Path) -> None:
    repo = bare(tmp_path / "repo", tmp_path / "home", "# Widget\n")
    follow(repo, repo.mj("init").out)
    head = repo.git("rev-parse", "HEAD")
    agents = repo.root / "AGENTS.md"
    agents.write_text(agents.read_text() + "An edit by hand.\n")
    repo.git("add", "AGENTS.md")
    proc = subprocess.run(
        ["git", "commit", "-q", "-m", "hand edit"],
        cwd=repo.root,
        env=repo.env,
        capture_output=True,
        text=True,
        check=False,
    )
    assert proc.returncode != 0, proc  # git reports a failed pre-commit hook as 1
    assert "FAIL projection  AGENTS.md — edited by hand" in proc.stderr
    assert repo.git("rev-parse", "HEAD") == head
