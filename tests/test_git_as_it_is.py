"""Git is read as it is: a replacement object (`git replace`) cannot make the pre-push gate
judge a commit other than the one a push delivers, and doctor names replace refs and grafts."""

from __future__ import annotations

from conftest import Repo


def hidden_commit(repo: Repo) -> tuple[str, str]:
    """A task on `lib`, an out-of-scope commit, and a replacement showing only `lib`."""
    assert repo.mj("start", "fix it", "--scope", "lib").code == 0
    repo.write("lib/a.py", "x = 1\n")
    repo.write("secret/plan.txt", "out of scope\n")
    real = repo.commit("work")
    repo.git("rm", "-q", "--cached", "secret/plan.txt")
    tree = repo.git("write-tree").strip()
    parent = repo.git("rev-parse", "HEAD~1").strip()
    fake = repo.git("commit-tree", tree, "-p", parent, "-m", "work").strip()
    repo.git("reset", "-q", real)  # the index as the real commit has it
    repo.git("replace", real, fake)
    assert "secret/plan.txt" not in repo.git("diff", "--name-only", f"{parent}..HEAD")
    return real, fake


def test_a_replacement_object_does_not_hide_an_out_of_scope_commit(layer_repo: Repo) -> None:
    real, _ = hidden_commit(layer_repo)
    gate = layer_repo.mj("finish", "--check")
    assert gate.code == 10 and "secret/plan.txt" in gate.out, gate
    check = layer_repo.mj("check")
    assert check.code == 10 and "FAIL scope       secret/plan.txt" in check.out, check
    doctor = layer_repo.mj("doctor")
    assert doctor.code == 10 and f"FAIL git         refs/replace/{real}" in doctor.out, doctor


def test_doctor_names_a_graft_file(layer_repo: Repo) -> None:
    head = layer_repo.git("rev-parse", "HEAD").strip()
    (layer_repo.root / ".git/info").mkdir(exist_ok=True)
    (layer_repo.root / ".git/info/grafts").write_text(f"{head}\n")
    doctor = layer_repo.mj("doctor")
    assert doctor.code == 10 and "FAIL git         info/grafts" in doctor.out, doctor
