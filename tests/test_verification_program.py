"""The program a verification runs is resolved and recorded: finish writes its absolute path and
sha256 on `task.finished`, and refuses a program that lies inside the repository (the task's
own work is never its judge)."""

from __future__ import annotations

import hashlib
import json
import shutil

from conftest import Repo

NOTE = "# Objective\nFix it.\n\n# Current State\nFixed.\n\n# Next Action\nNone.\n"


def pinned_to(repo: Repo, command: str) -> None:
    path = repo.root / ".ai/repo/policy.yaml"
    pin = f'verification:\n  commands:\n    - "{command}"\n'
    path.write_text(path.read_text().replace("verification:\n", pin, 1))
    repo.commit("pin verification")
    assert repo.mj("start", "fix it", "--scope", "lib").code == 0
    repo.write("lib/a.py", "x = 1\n")
    assert repo.mj("handover", stdin=NOTE).code == 0


def finished_lines(repo: Repo) -> list[dict]:
    text = (repo.root / ".ai/local/state/ledger.jsonl").read_text()
    return [v for v in map(json.loads, text.splitlines()) if v["event"] == "task.finished"]


def test_finish_records_the_program_it_ran_and_its_hash(layer_repo: Repo) -> None:
    pinned_to(layer_repo, "git --version")
    done = layer_repo.mj("finish", "--outcome", "completed")
    assert done.code == 0, done
    (line,) = finished_lines(layer_repo)
    (run,) = line["verify"]["runs"]
    program = shutil.which("git", path=layer_repo.env.get("PATH"))
    assert program is not None and run["program"] == program
    with open(program, "rb") as handle:
        assert run["sha256"] == hashlib.sha256(handle.read()).hexdigest()


def test_a_program_inside_the_repository_is_refused(layer_repo: Repo) -> None:
    judge = layer_repo.write("tools/ok", "#!/bin/sh\nexit 0\n")
    judge.chmod(0o755)
    layer_repo.commit("a judge of the worker's own")
    pinned_to(layer_repo, "tools/ok")
    refused = layer_repo.mj("finish", "--outcome", "completed")
    assert refused.code == 10 and "inside the repository" in refused.out, refused
    assert finished_lines(layer_repo) == []


def fake_python_first_on_path(repo: Repo) -> str:
    """A worker's own `python3`, put in a directory of /tmp at the front of PATH: it passes
    whatever it is asked."""
    bindir = repo.root.parent / "fakebin"
    bindir.mkdir()
    fake = bindir / "python3"
    fake.write_text("#!/bin/sh\nexit 0\n")
    fake.chmod(0o755)
    repo.env["PATH"] = f"{bindir}:{repo.env['PATH']}"
    return str(fake)


def test_a_program_in_a_directory_the_policy_does_not_allow_is_refused(layer_repo: Repo) -> None:
    pinned_to(layer_repo, "python3 -c 'raise SystemExit(1)'")
    fake = fake_python_first_on_path(layer_repo)
    refused = layer_repo.mj("finish", "--outcome", "completed")
    assert refused.code == 10, refused
    assert fake in refused.out and "verification.allow_paths" in refused.out, refused
    assert finished_lines(layer_repo) == []


def test_allow_paths_admits_the_directory_it_names(layer_repo: Repo) -> None:
    fake = fake_python_first_on_path(layer_repo)
    policy = layer_repo.root / ".ai/repo/policy.yaml"
    allow = f"verification:\n  allow_paths:\n    - {layer_repo.root.parent / 'fakebin'}\n"
    policy.write_text(policy.read_text().replace("verification:\n", allow, 1))
    pinned_to(layer_repo, "python3 -c pass")
    done = layer_repo.mj("finish", "--outcome", "completed")
    assert done.code == 0, done
    (line,) = finished_lines(layer_repo)
    assert [r["program"] for r in line["verify"]["runs"]] == [fake]


def test_a_relative_allow_path_is_refused_as_input(layer_repo: Repo) -> None:
    policy = layer_repo.root / ".ai/repo/policy.yaml"
    allow = "verification:\n  allow_paths:\n    - tools\n"
    policy.write_text(policy.read_text().replace("verification:\n", allow, 1))
    checked = layer_repo.mj("doctor")
    assert checked.code != 0 and "allow_paths" in checked.out + checked.err, checked
