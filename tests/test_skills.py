"""`majordomus skills list|show|check` (CLI-REFERENCE §2.18) and the skills' projection to
Claude Code (`.claude/skills/<id>/SKILL.md`, stamped like every projection): every defect is a
FAIL naming file and line (10), no skill at all is a WARN (never a silent pass), an unknown id
is 12, and a hand edit of a projected skill is caught by `update --check` and doctor."""

from __future__ import annotations

import json

import pytest
from conftest import Repo
from conftest import failures

SKILLS = ".ai/repo/skills"
BODY = "# Purpose\nReview.\n\n# Procedure\n1. Read.\n\n# Output\nFindings.\n"


def skill(ident: str, extra: str = "", *, description: str = "", status: str = "active") -> str:
    said = description or f"The {ident} procedure, start to end."
    return (
        f"---\nschema: skill/v1\nid: {ident}\nversion: 1\ntitle: The {ident} skill\n"
        f"description: {said}\nstatus: {status}\n{extra}---\n{BODY}"
    )


def test_no_skill_at_all_is_a_warning_never_a_silent_pass(layer_repo: Repo) -> None:
    result = layer_repo.mj("skills", "check")
    assert result.code == 0, result
    assert result.out.startswith("WARN skill ") and "no skill in .ai/repo/skills/" in result.out
    assert result.out.endswith(
        "skills: 0 discovered, 0 valid; examples: 0; references: 0 checked; failures: 0\n"
    )
    assert layer_repo.mj("skills", "list").out == ""


def test_a_valid_skill_is_listed_shown_and_counted(layer_repo: Repo) -> None:
    layer_repo.write(f"{SKILLS}/repo-review/SKILL.md", skill("repo-review"))
    layer_repo.write(f"{SKILLS}/triage/SKILL.md", skill("triage", "related:\n  - repo-review\n"))
    layer_repo.write(f"{SKILLS}/triage/examples/one.md", "# A flaky test\nWhat was done.\n")
    result = layer_repo.mj("skills", "check")
    assert result.code == 0, result
    assert result.out.splitlines() == [
        "OK   skill       2 skill(s) — repo-review, triage",
        "skills: 2 discovered, 2 valid; examples: 1; references: 1 checked; failures: 0",
    ]
    listed = layer_repo.mj("skills", "list")
    assert listed.out.splitlines() == [
        "repo-review  active      The repo-review procedure, start to end.",
        "triage       active      The triage procedure, start to end.",
    ]
    shown = layer_repo.mj("skills", "show", "triage")
    text = (layer_repo.root / SKILLS / "triage/SKILL.md").read_text()
    assert shown.code == 0 and shown.out == f"{SKILLS}/triage/SKILL.md\n{text}"
    records = [json.loads(x) for x in layer_repo.mj("skills", "check", "--json").out.splitlines()]
    assert records[-2]["view"] == "counts" and records[-1]["kind"] == "summary"


def test_show_refuses_an_unknown_id_with_12_naming_skills_list(layer_repo: Repo) -> None:
    layer_repo.write(f"{SKILLS}/repo-review/SKILL.md", skill("repo-review"))
    result = layer_repo.mj("skills", "show", "nope")
    assert result.code == 12 and "`majordomus skills list`" in result.err, result
    assert result.err.count("\n") == 1 and result.out == ""
    assert layer_repo.mj("skills", "show").code == 2
    assert layer_repo.mj("skills", "frobnicate").code == 2


def test_without_a_layer_it_is_12(git_repo: Repo) -> None:
    for args in (("list",), ("check",), ("show", "x")):
        result = git_repo.mj("skills", *args)
        assert result.code == 12 and "majordomus init" in result.err, (args, result)


DEFECTS = [
    ("a", skill("a", "owner: me\n"), "unknown key 'owner'"),
    ("a", skill("a").replace("skill/v1", "skill/v2"), "schema"),
    ("a", skill("a").replace("version: 1", "version: 0"), "version"),
    ("a", skill("a").replace("version: 1", 'version: "1"'), "version"),
    ("a", skill("a").replace("version: 1\n", ""), "missing key 'version'"),
    ("a", skill("a", status="retired"), "status"),
    ("a", skill("b"), "id b is not its directory's name (a)"),
    ("Bad_Id", skill("Bad_Id"), "id"),
    ("a", skill("a").replace("# Output\nFindings.\n", "# Output\n"), "'# Output'"),
    ("a", skill("a").replace("# Procedure", "## Procedure"), "'# Procedure'"),
    ("a", skill("a").replace("# Purpose\nReview.\n", ""), "'# Purpose'"),
    ("a", skill("a", "related:\n  - ghost\n"), "related ghost: no such skill"),
    ("a", "no front matter\n", "no front matter"),
    ("a", "---\nid: [\n---\n", "a/SKILL.md"),
]


@pytest.mark.parametrize(("folder", "text", "said"), DEFECTS, ids=[d[2] for d in DEFECTS])
def test_check_fails_each_defect_naming_file_and_line(
    layer_repo: Repo, folder: str, text: str, said: str
) -> None:
    layer_repo.write(f"{SKILLS}/{folder}/SKILL.md", text)
    result = layer_repo.mj("skills", "check")
    assert result.code == 10, result
    found = failures(result.out)
    assert any(said in message or said in subject for _, subject, message, _ in found), result
    assert all(subject.startswith(f"{SKILLS}/{folder}/SKILL.md") for _, subject, _, _ in found)
    assert all(reproduce == "majordomus skills check" for *_, reproduce in found)
    assert "failures: 0" not in result.out.splitlines()[-1]
    listed = layer_repo.mj("skills", "list")  # listed all the same, marked
    assert listed.code == 0 and "invalid" in listed.out, listed


def test_check_fails_the_set_wide_defects(layer_repo: Repo) -> None:
    layer_repo.write(f"{SKILLS}/a/SKILL.md", skill("a", description="Review the repository."))
    layer_repo.write(f"{SKILLS}/b/SKILL.md", skill("b", description="review  the REPOSITORY"))
    result = layer_repo.mj("skills", "check")
    assert (
        result.code == 10 and "cannot be told apart from .ai/repo/skills/a/SKILL.md" in result.out
    )
    layer_repo.write(f"{SKILLS}/b/SKILL.md", skill("b"))
    layer_repo.write(f"{SKILLS}/b/examples/one.md", "no heading here\n")
    result = layer_repo.mj("skills", "check")
    assert result.code == 10 and "examples/one.md:1" in result.out, result
    (layer_repo.root / SKILLS / "b/examples/one.md").unlink()
    (layer_repo.root / SKILLS / "c").mkdir()
    result = layer_repo.mj("skills", "check")
    assert result.code == 10 and "no SKILL.md in .ai/repo/skills/c/" in result.out, result
    (layer_repo.root / SKILLS / "c").rmdir()
    assert layer_repo.mj("skills", "check").code == 0
    layer_repo.write(f"{SKILLS}/c/SKILL.md", skill("b", description="Another procedure."))
    result = layer_repo.mj("skills", "check")
    assert result.code == 10 and "id b is also .ai/repo/skills/b/SKILL.md" in result.out, result
    assert "id b is not its directory's name (c)" in result.out


def test_an_active_skill_is_projected_to_claude_code_and_stamped(layer_repo: Repo) -> None:
    layer_repo.write(f"{SKILLS}/repo-review/SKILL.md", skill("repo-review"))
    layer_repo.write(f"{SKILLS}/draft-one/SKILL.md", skill("draft-one", status="draft"))
    wrote = layer_repo.mj("update")
    assert wrote.code == 0, wrote
    target = layer_repo.root / ".claude/skills/repo-review/SKILL.md"
    text = target.read_text()
    assert text.startswith(
        "---\nname: repo-review\ndescription: The repo-review procedure, start to end.\n---\n"
        "<!-- generated by `majordomus update` from .ai/repo/policy.yaml (policy "
    )
    assert BODY.strip() in text and "edit the skill there, not here" in text
    assert not (layer_repo.root / ".claude/skills/draft-one").exists()
    assert layer_repo.mj("update", "--check").code == 0
    target.write_text(text + "a hand edit\n")
    check = layer_repo.mj("update", "--check")
    assert check.code == 10 and ".claude/skills/repo-review/SKILL.md — edited by hand" in check.out
    doctor = layer_repo.mj("doctor")
    assert any(s.startswith(".claude/skills/repo-review") for _, s, _, _ in failures(doctor.out))
    refused = layer_repo.mj("update")
    assert refused.code == 15 and "edited by hand" in refused.err
    assert target.read_text() == text + "a hand edit\n"
    assert layer_repo.mj("update", "--force").code == 0 and target.read_text() == text
    layer_repo.write(f"{SKILLS}/repo-review/SKILL.md", skill("repo-review", description="New."))
    assert layer_repo.mj("update", "--check").code == 10  # the skill changed: stale
    assert layer_repo.mj("update").code == 0 and "description: New." in target.read_text()
    (layer_repo.root / SKILLS / "repo-review/SKILL.md").unlink()
    removed = layer_repo.mj("update")
    assert removed.code == 0 and not target.exists(), removed  # an orphan is removed


def test_each_skill_directory_of_the_declared_providers_gets_the_skill_once(
    layer_repo: Repo,
) -> None:
    """The skeleton declares Claude Code (`.claude/skills`) and Codex, Gemini CLI and Cursor,
    which share `.agents/skills` (share/providers.yaml): each active skill is written once in
    each directory, the same bytes, and an orphan goes from both."""
    layer_repo.write(f"{SKILLS}/repo-review/SKILL.md", skill("repo-review"))
    layer_repo.write(f"{SKILLS}/draft-one/SKILL.md", skill("draft-one", status="draft"))
    wrote = layer_repo.mj("update")
    assert wrote.code == 0, wrote
    written = [line.split()[1] for line in wrote.out.splitlines() if line.startswith("wrote ")]
    skilled = sorted(name for name in written if name.endswith("/SKILL.md"))
    assert skilled == [".agents/skills/repo-review/SKILL.md", ".claude/skills/repo-review/SKILL.md"]
    shared, claude = (layer_repo.root / name for name in skilled)
    assert shared.read_bytes() == claude.read_bytes()
    before = shared.read_bytes()
    again = layer_repo.mj("update")
    assert again.code == 0 and "wrote" not in again.out and shared.read_bytes() == before
    assert not (layer_repo.root / ".agents/skills/draft-one").exists()
    shared.write_text(shared.read_text() + "a hand edit\n")
    check = layer_repo.mj("update", "--check")
    [(_, subject, message, _)] = failures(check.out)
    assert check.code == 10 and subject == ".agents/skills/repo-review/SKILL.md", check
    assert "edited by hand" in message
    assert layer_repo.mj("update", "--force").code == 0 and shared.read_bytes() == before
    (layer_repo.root / SKILLS / "repo-review/SKILL.md").unlink()
    removed = layer_repo.mj("update")
    assert removed.code == 0 and not shared.exists() and not claude.exists(), removed


def test_a_claude_md_importing_agents_md_still_gets_its_skill_files(layer_repo: Repo) -> None:
    """AGENTS.md carries no skill: Claude Code loads them from `.claude/skills` only, whatever
    its CLAUDE.md imports."""
    policy = layer_repo.root / ".ai/repo/policy.yaml"
    text = policy.read_text(encoding="utf-8")
    entry = "  - provider: claude-code\n    target: CLAUDE.md\n"
    assert entry in text
    policy.write_text(text.replace(entry, entry + "    imports: AGENTS.md\n"), encoding="utf-8")
    layer_repo.write(f"{SKILLS}/repo-review/SKILL.md", skill("repo-review"))
    assert layer_repo.mj("update").code == 0
    assert "\n@AGENTS.md\n" in (layer_repo.root / "CLAUDE.md").read_text()
    assert (layer_repo.root / ".claude/skills/repo-review/SKILL.md").is_file()
    assert layer_repo.mj("update", "--check").code == 0
