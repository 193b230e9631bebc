"""The governed fixture's layer (`bench.fixture_layer`): 50 project rules and 20 context
documents that the tool itself accepts, so `doctor` on it measures judging, not failing."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

from mj_watch.bench import fixture_layer

ENV = {
    **os.environ,
    "GIT_AUTHOR_NAME": "t",
    "GIT_AUTHOR_EMAIL": "t@example.invalid",
    "GIT_COMMITTER_NAME": "t",
    "GIT_COMMITTER_EMAIL": "t@example.invalid",
    "GIT_CONFIG_GLOBAL": "/dev/null",
    "GIT_CONFIG_NOSYSTEM": "1",
}
MJ = str(Path(sys.executable).parent / "majordomus")


def _mj(root: Path, *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([MJ, *args], cwd=root, env=ENV, capture_output=True, text=True,
                          check=False)  # fmt: skip


def test_the_governed_layer_resolves_and_validates(tmp_path: Path) -> None:
    root = tmp_path / "r"
    root.mkdir()
    subprocess.run(["git", "init", "-q"], cwd=root, env=ENV, check=True)
    assert _mj(root, "init").returncode == 0
    fixture_layer.write(root, rules=50, documents=20)
    doctrine = _mj(root, "doctrine")
    assert doctrine.returncode == 0, doctrine
    assert (
        "72 declared: 20 blocking, 52 advisory; 0 validator(s) missing, 0 test file(s) missing"
        in doctrine.stdout
    )
    validate = _mj(root, "context", "validate")
    assert validate.returncode == 0 and "23 context document(s) validate" in validate.stdout


def test_the_generated_plan_holds_together_and_has_work_in_every_state(tmp_path: Path) -> None:
    from mj_watch.bench import fixture_plan

    root = tmp_path / "p"
    root.mkdir()
    subprocess.run(["git", "init", "-q"], cwd=root, env=ENV, check=True)
    assert _mj(root, "init").returncode == 0
    fixture_plan.write(root, 400)
    subprocess.run(["git", "add", "-A"], cwd=root, env=ENV, check=True)  # the plan as a team
    subprocess.run(["git", "commit", "-qm", "plan"], cwd=root, env=ENV, check=True)  # has it
    assert _mj(root, "plan", "validate").returncode == 0
    status = _mj(root, "plan", "status").stdout
    assert all(word in status for word in ("ACTIVE", "BLOCKED", "DONE", "READY")), status


def test_the_generated_skills_and_records_are_accepted_as_they_are(tmp_path: Path) -> None:
    from mj_watch.bench import fixture_records

    root = tmp_path / "k"
    root.mkdir()
    subprocess.run(["git", "init", "-q"], cwd=root, env=ENV, check=True)
    assert _mj(root, "init").returncode == 0
    fixture_records.skills(root, 40)
    fixture_records.adrs(root, 90)
    subprocess.run(["git", "add", "-A"], cwd=root, env=ENV, check=True)  # what they name: indexed
    skills = _mj(root, "skills", "check")
    assert skills.returncode == 0 and "40 discovered, 40 valid" in skills.stdout, skills
    adrs = _mj(root, "adr", "check")
    assert adrs.returncode == 0 and "90 record(s), 90 valid; 0 defect(s)" in adrs.stdout, adrs
    assert "superseded" in _mj(root, "adr", "list", "--status", "superseded").stdout


def test_the_records_fixture_is_committed_projected_and_past_the_racy_window(
    tmp_path: Path,
) -> None:
    """`bench --fixture records`: the skills and records, every active skill projected, the
    tree clean — and old enough that the first run keeps what it read, so the warm samples
    read the parse cache as a user's second run would."""
    from mj_watch.bench import fixture
    from mj_watch.bench import scenario

    root = tmp_path / "records"
    env = {**scenario.environment(), "PATH": os.environ["PATH"]}
    fixture.small(root, env)
    fixture.records(root, env, skills=8, adrs=20)
    assert subprocess.run(["git", "status", "--porcelain"], cwd=root, env=ENV, check=True,
                          capture_output=True, text=True).stdout == ""  # fmt: skip
    active = sorted(p.parent.name for p in (root / ".claude/skills").glob("*/SKILL.md"))
    assert active == sorted(p.parent.name for p in (root / ".agents/skills").glob("*/SKILL.md"))
    assert active
    for args, said in ((("skills", "check"), "8 discovered, 8 valid"),
                       (("adr", "check"), "20 record(s), 20 valid")):  # fmt: skip
        done = _mj(root, *args)
        assert done.returncode == 0 and said in done.stdout, done
    for kind, count in (("skill", 8), ("adr", 20)):
        kept = (root / ".ai/local/cache" / f"{kind}.json").read_text()
        assert kept.count('"stamp"') == count, kind  # every file was old enough to keep
