"""A task is judged by the rules as they stood when it started: a worker's script that re-pins
the judge in the task's own diff (the policy's verification, the ratchet's metric, the profile)
changes nothing but earns a FAIL, in the working tree, in the task's commits, or hidden from
`git status` by an index flag."""

from __future__ import annotations

import json

from conftest import Repo

NOTE = "# Objective\nFix it.\n\n# Current State\nFixed.\n\n# Next Action\nNone.\n"
POLICY = ".ai/repo/policy.yaml"
PINNED = 'verification:\n  commands:\n    - "false"\n'  # the judge: this tree does not pass


def pinned(repo: Repo) -> None:
    """The committed rules: verification pinned to a command that fails."""
    path = repo.root / POLICY
    path.write_text(path.read_text().replace("verification:\n", PINNED, 1))
    repo.commit("pin verification")


def started(repo: Repo, scope: str = "lib") -> None:
    assert repo.mj("start", "fix it", "--scope", scope).code == 0
    repo.write("lib/a.py", "x = 1\n")
    assert repo.mj("handover", stdin=NOTE).code == 0


def repinned(repo: Repo, command: str = "true") -> None:
    path = repo.root / POLICY
    path.write_text(path.read_text().replace('- "false"', f'- "{command}"'))


def finished(repo: Repo, *args: str) -> tuple[int, str]:
    result = repo.mj("finish", "--outcome", "completed", *args)
    return result.code, result.out


def ledger_events(repo: Repo) -> list[str]:
    text = (repo.root / ".ai/local/state/ledger.jsonl").read_text()
    return [json.loads(line)["event"] for line in text.splitlines()]


def test_start_records_the_rules_it_starts_under(layer_repo: Repo) -> None:
    pinned(layer_repo)
    started(layer_repo)
    text = (layer_repo.root / ".ai/local/state/ledger.jsonl").read_text()
    (line,) = [v for v in map(json.loads, text.splitlines()) if v["event"] == "task.started"]
    assert line["event"] == "task.started"
    for path in (".ai/manifest.yaml", POLICY, ".ai/repo/profiles/implementation.yaml"):
        assert line["rules"][path] == layer_repo.git("rev-parse", f"HEAD:{path}").strip()


def test_a_verification_repinned_in_the_working_tree_is_caught_and_changes_nothing(
    layer_repo: Repo,
) -> None:
    pinned(layer_repo)
    started(layer_repo)
    repinned(layer_repo)
    check = layer_repo.mj("check")
    assert check.code == 10 and f"FAIL scope       {POLICY}" in check.out, check
    gate = layer_repo.mj("finish", "--check")
    assert gate.code == 10 and POLICY in gate.out, gate
    code, out = finished(layer_repo)
    assert code == 10 and "false — exit 1" in out, out  # the pinned command at the start ran
    assert "task.finished" not in ledger_events(layer_repo)


def test_a_deleted_pin_and_a_command_of_ones_own_are_refused(layer_repo: Repo) -> None:
    pinned(layer_repo)
    started(layer_repo)
    path = layer_repo.root / POLICY
    path.write_text(path.read_text().replace(PINNED, "verification:\n"))
    code, out = finished(layer_repo, "--verify-command", "true")
    assert code == 10 and "true is not a pinned verification command (false)" in out, out
    assert "task.finished" not in ledger_events(layer_repo)


def test_a_repin_committed_in_the_task_or_hidden_from_status_is_caught(layer_repo: Repo) -> None:
    pinned(layer_repo)
    started(layer_repo)
    repinned(layer_repo)
    layer_repo.commit("re-pin")  # in the task's commits: what the pre-push gate judges
    gate = layer_repo.mj("finish", "--check")
    assert gate.code == 10 and POLICY in gate.out, gate
    layer_repo.git("reset", "-q", "--hard", "HEAD~1")
    repinned(layer_repo)
    layer_repo.git("update-index", "--skip-worktree", POLICY)  # status no longer shows it
    assert POLICY not in layer_repo.git("status", "--porcelain")
    check = layer_repo.mj("check")
    assert check.code == 10 and f"FAIL scope       {POLICY}" in check.out, check
    code, out = finished(layer_repo)
    assert code == 10 and "false — exit 1" in out, out


def test_a_claimed_change_to_the_rules_is_judged_by_the_old_ones(layer_repo: Repo) -> None:
    pinned(layer_repo)
    started(layer_repo, "lib,.ai/repo/policy.yaml")
    repinned(layer_repo)
    check = layer_repo.mj("check")
    assert check.code == 0, check  # claimed by name: in scope
    code, out = finished(layer_repo)
    assert code == 10 and "false — exit 1" in out, out  # yet judged by the rules it started under


def test_a_claim_of_everything_does_not_name_the_layer(layer_repo: Repo) -> None:
    started(layer_repo, ".")
    profile = layer_repo.root / ".ai/repo/profiles/implementation.yaml"
    profile.write_text(profile.read_text() + "# loosened\n")
    check = layer_repo.mj("check")
    assert (
        check.code == 10 and "FAIL scope       .ai/repo/profiles/implementation.yaml" in check.out
    )
    assert "the layer is in scope only for a claim naming it" in check.out


def test_a_ratchet_metric_repinned_in_the_task_is_counted_as_declared(layer_repo: Repo) -> None:
    metric = '  - name: lib-files\n    command: [sh, -c, "git ls-files lib | wc -l"]\n'
    layer_repo.write(".ai/repo/ratchet.yaml", "version: 1\nmetrics:\n" + metric)
    layer_repo.write("lib/b.py", "y = 1\n")
    layer_repo.commit("ratchet")
    assert layer_repo.mj("ratchet", "update").code == 0
    started(layer_repo)
    layer_repo.commit("a new file under lib")  # lib-files: 1 → 2, new dirt
    declaration = layer_repo.root / ".ai/repo/ratchet.yaml"
    declaration.write_text(declaration.read_text().replace("git ls-files lib | wc -l", "echo 0"))
    result = layer_repo.mj("ratchet", "check")
    assert result.code == 10, result
    assert "FAIL ratchet     .ai/repo/ratchet.yaml" in result.out, result
    assert "2, up from the accepted 1" in result.out, result
