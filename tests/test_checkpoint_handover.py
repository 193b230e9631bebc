"""`majordomus checkpoint` and `majordomus handover`: records, refusals, modes, the resolver."""

from __future__ import annotations

import stat
from pathlib import Path

from conftest import Repo

FULL = (
    "# Objective\nFix the callback.\n\n# Current State\nHalf done.\n\n"
    "# Next Action\nAdd the test.\n"
)
STATE = ".ai/local/state"


def start(repo: Repo, scope: str = "lib") -> str:
    result = repo.mj("start", "--json", "fix the callback", "--scope", scope)
    assert result.code == 0, result
    return result.out.split('"id":"', 1)[1].split('"', 1)[0]


def records(repo: Repo, kind: str) -> list[Path]:
    folder = repo.root / STATE / kind
    return sorted(folder.iterdir()) if folder.exists() else []


def assert_private_and_unstaged(repo: Repo, path: Path) -> None:
    assert stat.S_IMODE(path.stat().st_mode) == 0o600
    assert repo.git("diff", "--cached", "--name-only") == ""
    assert not any(
        line[:1] not in (" ", "?") for line in repo.git("status", "--porcelain").splitlines()
    )


def test_checkpoint_writes_a_private_record_and_prints_its_path(layer_repo: Repo) -> None:
    task = start(layer_repo)
    result = layer_repo.mj("checkpoint", stdin="reproduced the bug\n")
    assert result.code == 0, result
    (path,) = records(layer_repo, "checkpoints")
    assert result.out.strip() == f"{STATE}/checkpoints/{path.name}"
    assert_private_and_unstaged(layer_repo, path)
    text = path.read_text()
    assert f"task_id: {task}" in text and text.endswith("reproduced the bug\n")
    assert "task.checkpoint" in (layer_repo.root / STATE / "ledger.jsonl").read_text()


def test_checkpoint_over_the_cap_is_refused_never_truncated(layer_repo: Repo) -> None:
    body = "".join(f"line {n}\n" for n in range(41))
    result = layer_repo.mj("checkpoint", stdin=body)
    assert result.code == 10, result
    assert "handover" in result.err and result.err.count("\n") == 1
    assert records(layer_repo, "checkpoints") == []


def test_checkpoint_with_an_identity_line_is_refused(layer_repo: Repo) -> None:
    result = layer_repo.mj("checkpoint", stdin="fine\nhead: 0123456\n")
    assert result.code == 10 and "<stdin>:2" in result.err, result
    assert records(layer_repo, "checkpoints") == []


def test_empty_checkpoint_writes_no_file_and_moves_checkpoint_at(layer_repo: Repo) -> None:
    start(layer_repo)
    current = layer_repo.root / STATE / "current.yaml"
    result = layer_repo.mj("checkpoint", stdin="")
    assert result.code == 0 and "no file written" in result.out, result
    assert records(layer_repo, "checkpoints") == []
    assert "checkpoint_at" in current.read_text()


def test_checkpoint_without_a_task_says_none(layer_repo: Repo) -> None:
    result = layer_repo.mj("checkpoint", stdin="exploring\n")
    assert result.code == 0, result
    (path,) = records(layer_repo, "checkpoints")
    assert "task_id: none" in path.read_text()
    assert '"task_id"' not in (layer_repo.root / STATE / "ledger.jsonl").read_text()


def test_checkpoint_show_list_and_derive(layer_repo: Repo) -> None:
    start(layer_repo)
    assert layer_repo.mj("checkpoint", "--show").out == "No relevant checkpoint.\n"
    layer_repo.mj("checkpoint", stdin="first\n")
    derived = layer_repo.mj("checkpoint", "--derive")
    assert derived.code == 0, derived
    shown = layer_repo.mj("checkpoint", "--show")
    assert " — exact " in shown.out and "Commits since start: 0." in shown.out
    listed = layer_repo.mj("checkpoint", "--list").out.splitlines()
    assert len(listed) == 2 and all("exact" in line for line in listed)


def test_handover_requires_each_section_with_content(layer_repo: Repo) -> None:
    start(layer_repo)
    placeholder = FULL.replace("Half done.", "<what is true now>")
    result = layer_repo.mj("handover", stdin=placeholder)
    assert result.code == 10 and "# Current State" in result.err, result
    missing = layer_repo.mj("handover", stdin="# Objective\nx\n")
    assert missing.code == 10 and "# Current State, # Next Action" in missing.err
    assert records(layer_repo, "handovers") == []


def test_handover_with_identity_line_is_refused(layer_repo: Repo) -> None:
    start(layer_repo)
    result = layer_repo.mj("handover", stdin=FULL + "branch: main\n")
    assert result.code == 10 and "branch" in result.err, result


def test_handover_without_a_task_needs_no_task(layer_repo: Repo) -> None:
    assert layer_repo.mj("handover", stdin=FULL).code == 12
    result = layer_repo.mj("handover", "--no-task", stdin=FULL)
    assert result.code == 0, result
    (path,) = records(layer_repo, "handovers")
    assert_private_and_unstaged(layer_repo, path)


def test_handover_close_ends_the_task_and_resolve_finds_it(layer_repo: Repo) -> None:
    start(layer_repo)
    assert layer_repo.mj("handover", "--resolve").out == "No relevant handover.\n"
    assert layer_repo.mj("handover", "--resolve", "--path").out == ""
    result = layer_repo.mj("handover", "--close", stdin=FULL)
    assert result.code == 0 and "handed_over" in result.out, result
    current = (layer_repo.root / STATE / "current.yaml").read_text()
    assert "outcome: handed_over" in current
    resolved = layer_repo.mj("handover", "--resolve")
    assert resolved.code == 0 and " — exact " in resolved.out and "Add the test." in resolved.out
    path = layer_repo.mj("handover", "--resolve", "--path").out.strip()
    assert (layer_repo.root / path).is_file()
    layer_repo.git("checkout", "-q", "-b", "elsewhere")
    assert layer_repo.mj("handover", "--resolve").out == "No relevant handover.\n"


def test_handover_derive_fills_from_facts_or_refuses_by_name(layer_repo: Repo) -> None:
    task = start(layer_repo)
    policy = layer_repo.root / ".ai/repo/policy.yaml"
    text = policy.read_text()
    policy.write_text(text.replace("    - Next Action\n", "    - Next Action\n    - Risks\n", 1))
    refused = layer_repo.mj("handover", "--derive")
    assert refused.code == 10 and "# Risks" in refused.err, refused  # no fact names a risk
    assert records(layer_repo, "handovers") == []
    policy.write_text(text)
    bare = layer_repo.mj("handover", "--derive")  # no checkpoint: the task's own next step
    assert bare.code == 0, bare
    body = (layer_repo.root / bare.out.split()[0]).read_text()
    action = body.split("# Next Action\n", 1)[1]
    assert action.startswith(f"Continue {task} (fix the callback) within lib: "), action
    assert "`majordomus check`" in action and "finish --outcome completed" in action
    layer_repo.mj("checkpoint", stdin="Next: write the regression test\n")
    result = layer_repo.mj("handover", "--derive", "--close")
    assert result.code == 0, result
    body = (layer_repo.root / result.out.split()[0]).read_text()
    assert "# Objective\nfix the callback" in body
    assert "# Next Action\nwrite the regression test" in body
