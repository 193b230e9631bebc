"""A worker who wants to claim "done" without doing it: each way tried is refused, nothing written.

The task is the ledger's (`task.started` and what follows), never `current.yaml`'s; the ledger is
hash-chained; verification is the policy's; a note says something; blockers fail closed.
"""

from __future__ import annotations

import json
import re
import shutil
import subprocess
from pathlib import Path

import pytest
from conftest import Repo

STATE = ".ai/local/state"
FULL = "# Objective\nFix it.\n\n# Current State\nFixed.\n\n# Next Action\nNone.\n"
REPRODUCE = re.compile(r"\[reproduce: (.*)\]$", re.M)


def start(repo: Repo, scope: str = "lib") -> str:
    result = repo.mj("start", "fix it", "--scope", scope)
    assert result.code == 0, result
    found = re.search(r"started (t-\d{14}-[0-9a-f]{4})", result.out)
    assert found, result
    return found.group(1)


def ledger_bytes(repo: Repo) -> bytes:
    return (repo.root / STATE / "ledger.jsonl").read_bytes()


def edit(repo: Repo, relative: str, old: str, new: str) -> None:
    path = repo.root / relative
    text = path.read_text()
    assert old in text, (relative, old)
    path.write_text(text.replace(old, new, 1))


def reproduces(repo: Repo, out: str) -> None:
    """Every reproduce command printed runs."""
    for command in REPRODUCE.findall(out):
        assert repo.shell(command).code == 0, command


def test_an_edited_outcome_does_not_pass_the_pre_push_gate(layer_repo: Repo) -> None:
    start(layer_repo)
    assert layer_repo.mj("question", "add", "which format?").code == 0
    layer_repo.write("config/secret.txt", "x\n")
    layer_repo.commit("outside the claim")  # the gate judges what a push sends
    edit(layer_repo, f"{STATE}/current.yaml", "outcome: active", "outcome: completed")
    before = ledger_bytes(layer_repo)
    gate = layer_repo.mj("finish", "--check")
    assert gate.code == 10, gate
    assert "outcome: current.yaml says completed, the ledger says active" in gate.out
    assert "FAIL scope" in gate.out and "config/secret.txt" in gate.out
    reproduces(layer_repo, gate.out)
    check = layer_repo.mj("check")
    assert check.code == 10 and "FAIL blockers" in check.out, check
    assert layer_repo.mj("doctor").code == 10
    assert ledger_bytes(layer_repo) == before


def test_a_moved_head_or_worktree_in_the_copy_changes_nothing(layer_repo: Repo) -> None:
    start(layer_repo)
    layer_repo.write("lib/a.py", "x = 1\n")
    assert layer_repo.mj("handover", stdin=FULL).code == 0
    layer_repo.write("config/secret.txt", "x\n")
    new_head = layer_repo.commit("out of scope")
    copy = layer_repo.root / STATE / "current.yaml"
    copy.write_text(re.sub(r"^head: \S+$", f"head: {new_head}", copy.read_text(), flags=re.M))
    before = ledger_bytes(layer_repo)
    finish = layer_repo.mj("finish", "--outcome", "completed", "--verify-command", "true")
    assert finish.code == 10 and "config/secret.txt" in finish.out, finish
    assert "head: current.yaml says" in finish.out
    assert ledger_bytes(layer_repo) == before and "task.finished" not in before.decode()
    copy.write_text(re.sub(r"^worktree: .*$", "worktree: /elsewhere", copy.read_text(), flags=re.M))
    check = layer_repo.mj("check")
    assert check.code == 10 and "config/secret.txt" in check.out, check


def test_verification_the_policy_does_not_pin_does_not_count(layer_repo: Repo) -> None:
    edit(
        layer_repo,
        ".ai/repo/policy.yaml",
        "verification:\n",
        "verification:\n  commands:\n    - git --version\n  timeout: 30m\n",
    )
    layer_repo.commit("pin the verification")  # the rules a task starts under
    start(layer_repo)
    layer_repo.write("lib/a.py", "x = 1\n")
    assert layer_repo.mj("handover", stdin=FULL).code == 0
    before = ledger_bytes(layer_repo)
    cheat = layer_repo.mj("finish", "--outcome", "completed", "--verify-command", "true")
    assert cheat.code == 10 and "not a pinned verification command" in cheat.out, cheat
    assert ledger_bytes(layer_repo) == before
    done = layer_repo.mj("finish", "--outcome", "completed")
    assert done.code == 0 and "git --version — exit 0" in done.out, done
    (event,) = [
        json.loads(line)
        for line in ledger_bytes(layer_repo).decode().splitlines()
        if '"task.finished"' in line
    ]
    assert event["verify"]["command"] == "git --version"
    tree = layer_repo.git("write-tree").strip()  # nothing staged: the index's tree
    assert (
        re.fullmatch(r"[0-9a-f]{40}", event["verify"]["tree"]) and event["verify"]["tree"] != tree
    )


def test_a_verification_that_outlives_its_timeout_fails(layer_repo: Repo) -> None:
    edit(
        layer_repo,
        ".ai/repo/policy.yaml",
        "verification:\n",
        "verification:\n  commands:\n    - sleep 30\n  timeout: 1s\n",
    )
    layer_repo.commit("pin the verification")  # the rules a task starts under
    start(layer_repo)
    layer_repo.write("lib/a.py", "x = 1\n")
    assert layer_repo.mj("handover", stdin=FULL).code == 0
    before = ledger_bytes(layer_repo)
    result = layer_repo.mj("finish", "--outcome", "completed")
    assert result.code == 10 and "timed out after 1s" in result.out, result
    assert ledger_bytes(layer_repo) == before


def test_doctor_warns_that_verification_is_unpinned(layer_repo: Repo) -> None:
    result = layer_repo.mj("doctor")
    assert "WARN" in result.out and "verification.commands" in result.out, result


@pytest.mark.parametrize(
    "body",
    [
        "# Objective\nx\n# Current State\nx\n# Next Action\nx\n",
        "# Objective\nTODO\n# Current State\nTBD\n# Next Action\n-\n",
        "# Objective\n...\n# Current State\nCurrent State\n# Next Action\n<later>\n",
        "```\n# Objective\nFix it.\n# Current State\nFixed.\n# Next Action\nNone.\n```\n",
        "<!--\n# Objective\nFix it.\n# Current State\nFixed.\n# Next Action\nNone.\n-->\n",
        "# Objective\n<!-- Fix it. -->\n# Current State\n```\nFixed.\n```\n# Next Action\nx\n",
    ],
)
def test_a_note_that_says_nothing_is_no_note(layer_repo: Repo, body: str) -> None:
    start(layer_repo)
    layer_repo.write("lib/a.py", "x = 1\n")
    refused = layer_repo.mj("handover", stdin=body)
    assert refused.code == 10 and "required section missing or empty" in refused.err, refused
    note = layer_repo.write(".ai/local/note.md", body)
    before = ledger_bytes(layer_repo)
    result = layer_repo.mj(
        "finish", "--outcome", "completed", "--verify-command", "true", "--note", str(note)
    )
    assert result.code == 10 and "FAIL note" in result.out, result
    assert ledger_bytes(layer_repo) == before


QUESTION = "token refresh window: 15 or 60 minutes?"


def _corrupt(kind: str, text: str, task: str) -> bytes | None:
    line = next(x for x in text.splitlines() if "[unresolved]" in x)
    variants: dict[str, str | bytes | None] = {
        "deleted": None,
        "emptied": "",
        "star bullet": text.replace("- [unresolved]", "* [unresolved]"),
        "indented": text.replace(line, "  " + line),
        "capitalised": text.replace("[unresolved]", "[Unresolved]"),
        "two spaces": text.replace("- [unresolved]", "-  [unresolved]"),
        "resolved by hand": text.replace("[unresolved]", "[resolved 2026-01-01]") + " — yes",
        "in a comment": text.replace(line, f"<!-- {line} -->"),
        "in a fence": text.replace(line, f"```\n{line}\n```"),
        "other task id": text.replace(task, "t-20000101000000-0000"),
        "no date": re.sub(r" \(\d{4}-\d\d-\d\d\)", "", text),
        "ascii dash": text.replace(" — ", " - "),
        "line removed": text.replace(line + "\n", ""),
        "not utf-8": text.encode() + b"\xff\xfe\n",
        "nul byte": text.replace("[unresolved]", "[unres\0olved]"),
        "binary": b"\x00\x01\x02garbage\xff",
        "crlf": text.replace("\n", "\r\n").replace("[unresolved]", "[unresolved ]"),
    }
    value = variants[kind]
    return value.encode() if isinstance(value, str) else value


CORRUPTIONS = [
    "deleted", "emptied", "star bullet", "indented", "capitalised", "two spaces",
    "resolved by hand", "in a comment", "in a fence", "other task id", "no date", "ascii dash",
    "line removed", "not utf-8", "nul byte", "binary", "crlf",
]  # fmt: skip


@pytest.mark.parametrize("kind", CORRUPTIONS)
def test_a_damaged_question_file_never_drops_the_open_blocker(layer_repo: Repo, kind: str) -> None:
    task = start(layer_repo)
    assert layer_repo.mj("question", "add", QUESTION).code == 0
    layer_repo.write("lib/a.py", "x = 1\n")
    assert layer_repo.mj("handover", stdin=FULL).code == 0
    target = layer_repo.root / STATE / "open-questions.md"
    damaged = _corrupt(kind, target.read_text(), task)
    if damaged is None:
        target.unlink()
    else:
        target.write_bytes(damaged)
    before = ledger_bytes(layer_repo)
    result = layer_repo.mj("finish", "--outcome", "completed", "--verify-command", "true")
    assert result.code == 10 and "FAIL blockers" in result.out, (kind, result)
    assert ledger_bytes(layer_repo) == before
    check = layer_repo.mj("check")
    assert check.code == 10 and "FAIL blockers" in check.out, (kind, check)
    reproduces(layer_repo, check.out)


def test_a_line_added_to_the_ledger_by_hand_is_caught(layer_repo: Repo) -> None:
    task = start(layer_repo)
    assert layer_repo.mj("update").code == 0
    layer_repo.commit("projections")
    target = layer_repo.root / STATE / "ledger.jsonl"
    lines = target.read_text().splitlines()
    forged = json.loads(lines[-1])
    forged.update(event="task.finished", outcome="completed", ts="2026-01-01T00:00:00Z")
    forged.update(contract={}, verify=None, checkpoints=0, working_tree="clean")
    with target.open("a") as handle:
        handle.write(json.dumps(forged, separators=(",", ":")) + "\n")
    validate = layer_repo.mj("history", "--validate")
    number = len(lines) + 1
    assert validate.code == 10, validate
    assert f"ledger.jsonl:{number} — hash chain broken" in validate.out
    reproduces(layer_repo, validate.out)
    watch = layer_repo.mj("watch")
    assert watch.code == 11 and "DRIFT ledger" in watch.out, watch
    assert layer_repo.mj("doctor").code == 10
    assert layer_repo.mj("finish", "--check").code == 10  # the task's own lines do not chain
    refused = layer_repo.mj("checkpoint", stdin="more\n")
    assert refused.code == 10 and "vouches" in refused.err, refused
    assert task in target.read_text()


def _move_behaves_alike(repo: Repo, root: Path) -> None:
    moved = Repo(root, repo.env)
    check = moved.mj("check")
    assert check.code == 10 and "config/secret.txt" in check.out, check
    assert "different_context" not in check.out
    gate = moved.mj("finish", "--check")  # judged (the file is not committed, so not pushed)
    assert gate.code == 0 and "OK   scope" in gate.out and "no active task" not in gate.out, gate
    assert moved.mj("start", "again", "--scope", "lib").code == 15
    (root / "config" / "secret.txt").unlink()
    assert moved.mj("check").code == 0
    assert moved.mj("handover", "--close", stdin=FULL).code == 0
    assert moved.mj("finish", "--check").code == 0
    assert moved.mj("start", "again", "--scope", "lib").code == 0


def test_a_moved_repository_keeps_its_task(layer_repo: Repo, tmp_path: Path) -> None:
    start(layer_repo)
    layer_repo.commit("layer")
    layer_repo.write("config/secret.txt", "x\n")
    moved = tmp_path / "moved"
    shutil.move(layer_repo.root, moved)
    _move_behaves_alike(layer_repo, moved)


def test_a_fresh_clone_with_the_state_carried_keeps_its_task(
    layer_repo: Repo, tmp_path: Path
) -> None:
    start(layer_repo)
    layer_repo.commit("layer")
    clone = tmp_path / "clone"
    subprocess.run(
        ["git", "clone", "-q", str(layer_repo.root), str(clone)],
        check=True,
        env=layer_repo.env,
    )
    shutil.copytree(layer_repo.root / ".ai/local", clone / ".ai/local")
    (clone / "config").mkdir()
    (clone / "config" / "secret.txt").write_text("x\n")
    _move_behaves_alike(layer_repo, clone)


def test_a_linked_worktree_with_copied_state_is_still_foreign(layer_repo: Repo) -> None:
    start(layer_repo)
    layer_repo.commit("layer")
    linked = layer_repo.root.parent / "linked"
    layer_repo.git("worktree", "add", "-q", str(linked), "-b", "linked")
    shutil.copytree(layer_repo.root / STATE, linked / STATE)
    (linked / "outside.txt").write_text("x\n")
    there = Repo(linked, layer_repo.env)
    check = there.mj("check")
    assert check.code == 0 and "different_context" in check.out, check
    assert (
        there.mj("finish", "--outcome", "failed", "--note", "-", stdin="# Reason\nNo.\n").code == 15
    )
    assert there.mj("handover", "--close", stdin=FULL).code == 12


def test_commits_after_a_finish_that_no_verification_covered_are_named(layer_repo: Repo) -> None:
    start(layer_repo)
    layer_repo.write("lib/a.py", "x = 1\n")
    assert layer_repo.mj("handover", stdin=FULL).code == 0
    done = layer_repo.mj("finish", "--outcome", "completed", "--verify-command", "true")
    assert done.code == 0, done
    verified = layer_repo.commit("the verified work")
    clean = layer_repo.mj("finish", "--check")
    assert clean.code == 0 and "INFO verification" not in clean.out, clean
    layer_repo.write("lib/b.py", "y = 2\n")
    later = layer_repo.commit("after the finish")
    gate = layer_repo.mj("finish", "--check")
    assert gate.code == 0, gate
    [info] = [line for line in gate.out.splitlines() if line.startswith("INFO verification")]
    assert later[:7] in info and verified[:7] not in info
    reproduces(layer_repo, gate.out)
