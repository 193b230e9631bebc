"""`majordomus doctor`, the layer half: a fresh layer passes; each defect is a FAIL, exit 10, and
its reproduce command shows the problem when run in the repository."""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from pathlib import Path

import pytest
import yaml
from conftest import PROJECT_RULE as RULE
from conftest import Repo
from conftest import failures
from conftest import wire
from hypothesis import HealthCheck
from hypothesis import given
from hypothesis import settings
from hypothesis import strategies as st


@pytest.fixture
def wired(layer_repo: Repo) -> Repo:
    """A repository that adopted the layer fully: hooks wired, provider files generated."""
    wire(layer_repo)
    if re.search(r"^  update ", layer_repo.mj("--help").out, re.M):
        assert layer_repo.mj("update").code == 0
    readme = layer_repo.root / "README.md"
    readme.write_text(readme.read_text() + "\nAI workers: read AGENTS.md.\n")
    layer_repo.commit("generate the provider files")
    return layer_repo


def test_a_fresh_layer_is_clean(wired: Repo) -> None:
    result = wired.mj("doctor")
    assert result.code == 0, result
    assert result.err == ""
    assert re.search(r"^OK\s+layer\s+\.ai/manifest\.yaml — ", result.out, re.M)
    assert re.search(r"^OK\s+policy\s+\.ai/repo/policy\.yaml — parsed, version 1", result.out, re.M)
    assert re.search(r"^OK\s+rules\s+\.ai/repo/rules/vendor/majordomus/ — ", result.out, re.M)
    assert result.out.splitlines()[-1].startswith("doctor: ok")


def test_json_is_json_lines_with_a_summary(wired: Repo) -> None:
    result = wired.mj("doctor", "--json")
    records = [json.loads(line) for line in result.out.splitlines()]
    assert all(r["kind"] == "finding" for r in records[:-1])
    assert records[-1]["kind"] == "summary" and records[-1]["exit"] == 0 == result.code


def test_no_layer_is_a_missing_artifact_naming_init(git_repo: Repo) -> None:
    result = git_repo.mj("doctor")
    assert result.code == 12, result
    assert result.out == ""
    assert result.err.count("\n") == 1 and "majordomus init" in result.err


def test_outside_git_is_a_usage_error(git_repo: Repo, tmp_path: Path) -> None:
    outside = tmp_path / "plain"
    outside.mkdir()
    assert git_repo.run("doctor", cwd=outside).code == 2


def _replace(repo: Repo, relative: str, old: str, new: str) -> None:
    path = repo.root / relative
    text = path.read_text(encoding="utf-8")
    assert old in text
    path.write_text(text.replace(old, new, 1), encoding="utf-8")


def remove_section(repo: Repo) -> str:
    repo.git("rm", "-r", "-q", ".ai/repo/workflows")
    assert not (repo.root / ".ai/repo/workflows").exists()
    return "No such file or directory"


def unknown_policy_key(repo: Repo) -> str:
    _replace(repo, ".ai/repo/policy.yaml", "version: 1", "version: 1\nfoo: 1")
    return "4:foo: 1"


def edited_vendored_rule(repo: Repo) -> str:
    relative = ".ai/repo/rules/vendor/majordomus/rules/layer-integrity.v1.md"
    _replace(repo, relative, "# Rationale", "# Rationale\n\nEdited here.")
    return relative


def tracked_local_file(repo: Repo) -> str:
    repo.git("add", "-f", ".ai/local/state/decisions.md")
    repo.commit("track the decision log by mistake")
    return ".ai/local/state/decisions.md"


def extreme_effort(repo: Repo) -> str:
    _replace(repo, ".ai/repo/profiles/debugging.yaml", "effort: high", "effort: extreme")
    return "effort: extreme"


def unignored_local(repo: Repo) -> str:
    _replace(repo, ".gitignore", ".ai/local\n", "")
    return "not ignored"


def other_manifest_schema(repo: Repo) -> str:
    _replace(repo, ".ai/manifest.yaml", "ai-repository/v1", "ai-repository/v9")
    return "ai-repository/v9"


def unlisted_vendored_file(repo: Repo) -> str:
    repo.write(".ai/repo/rules/vendor/majordomus/rules/extra.v1.md", "---\n---\n")
    return "not listed"


def missing_default_profile(repo: Repo) -> str:
    (repo.root / ".ai/repo/profiles/implementation.yaml").unlink()
    return "debugging.yaml"


def unknown_profile_key(repo: Repo) -> str:
    _replace(
        repo, ".ai/repo/profiles/routine.yaml", "verbosity: terse", "verbosity: terse\ncolour: 1"
    )
    return "colour: 1"


def broken_policy_yaml(repo: Repo) -> str:
    _replace(repo, ".ai/repo/policy.yaml", "  recent_decisions: 5", "  recent_decisions: &a 5")
    return "recent_decisions: &a 5"


def unsupported_policy_version(repo: Repo) -> str:
    _replace(repo, ".ai/repo/policy.yaml", "version: 1", "version: 2")
    return "version: 2"


DEFECTS: dict[str, tuple[Callable[[Repo], str], str, str]] = {
    # name: (make the defect, category, words the finding must carry)
    "section removed": (remove_section, "layer", "section 'workflows'"),
    "unknown policy key": (unknown_policy_key, "policy", "unknown key 'foo' at line 4"),
    "vendored rule edited": (edited_vendored_rule, "rules", "sha256"),
    "tracked under local": (tracked_local_file, "layer", "tracked file"),
    "profile effort extreme": (extreme_effort, "policy", "'extreme' is not one of"),
    "local not ignored": (unignored_local, "layer", "not ignored by git"),
    "manifest schema": (other_manifest_schema, "layer", "not understood"),
    "unlisted vendored file": (unlisted_vendored_file, "rules", "not listed"),
    "default profile missing": (missing_default_profile, "policy", "profiles.default"),
    "unknown profile key": (unknown_profile_key, "policy", "unknown key 'colour'"),
    "policy not in the subset": (broken_policy_yaml, "policy", "anchor &a"),
    "policy version": (unsupported_policy_version, "policy", "version 2 is not supported"),
}


@pytest.mark.parametrize("name", list(DEFECTS))
def test_each_defect_fails_with_a_reproduce_command_that_shows_it(wired: Repo, name: str) -> None:
    make, category, words = DEFECTS[name]
    shows = make(wired)
    result = wired.mj("doctor")
    assert result.code == 10, result
    assert "Traceback" not in result.err
    found = [f for f in failures(result.out) if f[0] == category and words in f[2]]
    assert found, result.out
    _, _, message, reproduce = found[0]
    assert reproduce, found[0]
    shown = wired.shell(reproduce)
    if name == "vendored rule edited":
        actual = re.search(r"sha256 ([0-9a-f]{64})", message)
        assert actual and actual.group(1) in shown.out and shows in shown.out
    else:
        assert shows in shown.out + shown.err, (reproduce, shown)
    assert re.search(r"^doctor: \d+ failure", result.out.splitlines()[-1])


def _snapshot(root: Path) -> dict[str, tuple[int, int]]:
    return {
        p.relative_to(root).as_posix(): (p.stat().st_mtime_ns, p.stat().st_size)
        for p in root.rglob("*")
        if not p.is_dir()
    }


def test_doctor_writes_nothing(wired: Repo) -> None:
    unknown_policy_key(wired)
    before = _snapshot(wired.root)
    assert wired.mj("doctor").code == 10
    assert wired.mj("doctor", "--json").code == 10
    assert _snapshot(wired.root) == before


def test_doctor_runs_from_a_real_pre_commit_hook(wired: Repo) -> None:
    wired.write("notes.txt", "a change\n")
    wired.git("add", "notes.txt")
    ok = wired.git("commit", "-q", "--no-gpg-sign", "-m", "through the hook", check=False)
    assert wired.git("log", "-1", "--format=%s").strip() == "through the hook", ok
    unknown_policy_key(wired)
    wired.git("add", "-A")
    wired.git("commit", "-q", "--no-gpg-sign", "-m", "blocked", check=False)
    assert wired.git("log", "-1", "--format=%s").strip() == "through the hook"


# --- property: whatever text the policy holds, doctor answers with a verdict, never a crash

POLICY_KEYS = ["version", "context", "profiles", "foo", "enforcement", "projections", "ledger"]
_scalar = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(-5, 5),
    st.text(alphabet=st.characters(blacklist_categories=["Cs"]), max_size=8),
)
_documents = st.recursive(
    _scalar,
    lambda inner: st.one_of(
        st.lists(inner, max_size=3),
        st.dictionaries(
            st.one_of(st.sampled_from(POLICY_KEYS), st.text(max_size=5)), inner, max_size=4
        ),
    ),
    max_leaves=12,
)


def _yaml_like(data: object) -> str:
    return yaml.safe_dump(data, allow_unicode=True, default_flow_style=None)


_policies = st.one_of(st.text(max_size=200), _documents.map(_yaml_like))
_SETTINGS = settings(
    max_examples=30,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)


@_SETTINGS
@given(policy=_policies)
def test_any_policy_text_gets_a_verdict_never_a_traceback(wired: Repo, policy: str) -> None:
    (wired.root / ".ai/repo/policy.yaml").write_text(policy, encoding="utf-8")
    result = wired.mj("doctor")
    assert result.code in (0, 10), result
    assert "Traceback" not in result.out + result.err
    assert result.err.count("\n") <= 1, result
    if result.code == 10:
        assert failures(result.out) or result.err, result


VALIDATOR = (
    "x-majordomus:\n  validator: {name}\n  category: style\n  enforced_by:\n    - doctor\n"
    "  exit_code: 10\n  tests:\n    - tests/test_style.py\n"
)


@pytest.mark.parametrize(
    ("fields", "said"),
    [
        ({"extra": "no_such_key: 1\n"}, "unknown key 'no_such_key'"),
        ({"klass": "blocking"}, "class: blocking, but no validator enforces it"),
        ({"klass": "blocking", "extra": VALIDATOR.format(name="nope")}, "names validator 'nope'"),
        ({"depends": "project.other@1"}, "depends_on: project.other@1 — no rule declares it"),
        ({"id": "majordomus.tabs"}, "reserved 'majordomus.' namespace"),
    ],
    ids=["unknown key", "blocking, no validator", "unknown validator", "missing dependency",
         "reserved namespace"],
)  # fmt: skip
def test_a_project_rule_is_judged_as_rules_resolves_it(
    wired: Repo, fields: dict[str, str], said: str
) -> None:
    values = {"id": "project.tabs", "klass": "advisory", "depends": "", "extra": "", **fields}
    wired.write(".ai/repo/rules/project/tabs.v1.md", RULE.format(**values))
    wired.write("tests/test_style.py", "def test_style() -> None:\n    assert True\n")
    wired.commit("a project rule")
    result = wired.mj("doctor")
    assert result.code == 10, result
    found = [f for f in failures(result.out) if f[0] == "rules"]
    assert len(found) == 1 and said in found[0][2], result.out
    assert found[0][1].startswith(".ai/repo/rules/project/tabs.v1.md") and found[0][3]


def test_a_sound_project_rule_resolves_with_the_vendored_set(wired: Repo) -> None:
    values = {"id": "project.tabs", "klass": "advisory", "depends": "", "extra": ""}
    wired.write(".ai/repo/rules/project/tabs.v1.md", RULE.format(**values))
    wired.commit("a project rule")
    result = wired.mj("doctor")
    assert result.code == 0, result
    assert re.search(
        r"^OK\s+rules\s+\.ai/repo/rules/project/ — 1 rule\(s\), resolved", result.out, re.M
    )
    assert wired.mj("rules").code == 0


SCHEMAS_MANIFEST = """schema: ai-repository/v1

repo:
  path: repo              # tracked canonical context
local:
  path: local             # this checkout's own; ignored by git
  tracked: false
  implicit_context: false

sections:                 # relative to .ai/; each one resolves to a path the tool reads
  policy: repo/policy.yaml
  profiles: repo/profiles
  rules: repo/rules
  prompts: repo/prompts
  skills: repo/skills
  workflows: repo/workflows
  knowledge: repo/knowledge
  adrs: repo/adrs
  project: repo/project
"""


def test_the_manifest_example_of_the_schemas_document_is_valid(wired: Repo) -> None:
    """SCHEMAS.cs.md's example has no `context`: its documents are then README.md."""
    wired.write(".ai/manifest.yaml", SCHEMAS_MANIFEST)
    wired.commit("the documented manifest")
    result = wired.mj("doctor")
    assert result.code == 0, result
    assert wired.mj("context", "validate").code == 0
