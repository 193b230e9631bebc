"""doctor in-process: the registry matches the shipped rules, the layer checks judge a layer in
a scratch repository, and any policy text yields findings, never an exception."""

from __future__ import annotations

import argparse
import json
import subprocess
from pathlib import Path

import pytest
from hypothesis import HealthCheck
from hypothesis import given
from hypothesis import settings
from hypothesis import strategies as st
from mj_core import share
from mj_core.errors import MissingArtifact
from mj_core.findings import verdict
from mj_core.stream import protocol as streams
from mj_core.stream.stage import Context
from mj_core.stream.stage import run_stream
from mj_core.yaml import strict as yamlstrict
from mj_policy.layer import facts as layerfacts
from mj_policy.layer import init_write
from mj_policy.layer import skeleton
from mj_policy.rules import package as rulepkg
from mj_watch import gather
from mj_watch.doctor import facts as doctorfacts
from mj_watch.doctor import judge as doctor
from mj_watch.doctor.facts_view import Facts
from mj_watch.doctrine import routing
from mj_watch.doctrine.layer import layer_integrity
from mj_watch.doctrine.policy import policy_schema
from mj_watch.doctrine.registry import REGISTRY
from mj_watch.doctrine.vendor import vendor_integrity

ENV = {
    "GIT_CONFIG_GLOBAL": "/dev/null",
    "GIT_CONFIG_NOSYSTEM": "1",
    "PATH": "/usr/bin:/bin",
}


@pytest.fixture(scope="module")
def root(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("repo")
    subprocess.run(["git", "init", "-q", "-b", "main"], cwd=path, env=ENV, check=True)
    list(init_write.create(path, extend=False))
    return path


def _shipped_validators() -> set[str]:
    package = share.path("standard", "majordomus")
    names = set()
    for relative in rulepkg.rule_files(package):
        block = rulepkg.front_matter(package / relative, relative).data.get("x-majordomus", {})
        names.add(block["validator"])
    return names


def test_every_validator_is_declared_by_a_shipped_rule_and_back() -> None:
    assert set(REGISTRY) == _shipped_validators()


def judged(root: Path) -> Facts:
    """The facts `mj-watch facts --for doctor` gathers at `root`, as the judge reads them."""
    return Facts(doctorfacts.gather(root))


def test_every_validator_runs_under_doctor() -> None:
    assert {"layer_integrity", "policy_schema", "vendor_integrity"} <= doctor.RUN
    assert {layer_integrity, policy_schema} <= {check for _, check in doctor.CHECKS}


def test_a_fresh_layer_passes_the_layer_half(root: Path) -> None:
    """Only the advice to pin verification (unpinned by the skeleton) is not OK."""
    facts = judged(root)
    for check in (layer_integrity, policy_schema, vendor_integrity):
        found = [f for f in check(facts) if f.level != "OK"]
        assert all(f.level == "WARN" and "verification.commands" in f.message for f in found)
        assert len(found) == (1 if check is policy_schema else 0), found


def test_every_record_survives_json(root: Path) -> None:
    for finding in doctor.findings(judged(root)):
        record = finding.record()
        assert json.loads(json.dumps(record).encode()) == record


def test_no_layer_is_missing_artifact(tmp_path: Path) -> None:
    subprocess.run(["git", "init", "-q"], cwd=tmp_path, env=ENV, check=True)
    stage = gather.STAGES["facts"]
    with pytest.raises(MissingArtifact, match="majordomus init"):
        list(
            stage.run(
                argparse.Namespace(of="doctor", prove=False, input=None), Context(cwd=tmp_path)
            )
        )


def test_facts_of_another_judge_are_missing_artifact(tmp_path: Path) -> None:
    stage = doctor.STAGES["doctor"]
    upstream = [{"kind": "fact", "fact": "finish"}, streams.summary("mj-state facts", 0, {})]
    with pytest.raises(MissingArtifact, match="no doctor fact"):
        list(stage.run(argparse.Namespace(input=None), Context(cwd=tmp_path, upstream=upstream)))


def test_an_advisory_rule_turns_its_failures_into_warnings(tmp_path: Path) -> None:
    failing = list(policy_schema(Facts([])))  # no layer at all: the policy is unreadable
    assert any(f.level == "FAIL" for f in failing)
    advisory = list(routing.routed(failing, ("advisory", 10)))
    assert [f.level for f in advisory] == [
        "WARN" if f.level == "FAIL" else f.level for f in failing
    ]
    blocking = list(routing.routed(failing, ("blocking", 15)))
    assert all(f.code == 15 for f in blocking if f.level == "FAIL")


POLICY_WORDS = st.sampled_from(
    ["version", "context", "profiles", "default", "foo", "enforcement", "-", ":", " ", "\n", "1"]
)
TEXT = st.one_of(
    st.text(max_size=120),
    st.lists(POLICY_WORDS, max_size=30).map("".join),
)


@settings(
    max_examples=200, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(TEXT)
def test_any_policy_text_yields_findings_never_an_exception(root: Path, text: str) -> None:
    policy = root / ".ai/repo/policy.yaml"
    original = policy.read_bytes()
    try:
        policy.write_text(text, encoding="utf-8")
        found = list(doctor.findings(judged(root)))
    finally:
        policy.write_bytes(original)
    assert int(verdict(found)) in (0, 10, 12)
    assert all(f.reproduce for f in found if f.level == "FAIL")


@settings(max_examples=100, deadline=None)
@given(
    st.dictionaries(
        st.sampled_from(["name", "description", "capability", "effort", "context", "extra"]),
        st.one_of(st.none(), st.booleans(), st.integers(), st.text(max_size=6)),
    )
)
def test_any_profile_mapping_is_judged(data: dict[str, object]) -> None:
    from mj_watch.doctrine import schema as schemacheck

    doc = yamlstrict.Document("p.yaml", data)
    found = list(schemacheck.closed("policy", doc, "profile"))
    assert all(f.level == "FAIL" and f.reproduce for f in found)
    assert found  # no mapping drawn from these keys is a complete profile


@pytest.fixture
def fresh(tmp_path: Path) -> Path:
    subprocess.run(["git", "init", "-q", "-b", "main"], cwd=tmp_path, env=ENV, check=True)
    list(init_write.create(tmp_path, extend=False))
    return tmp_path


def _vendor_failures(root: Path) -> list[tuple[str, str]]:
    found = doctor.vendor_integrity(judged(root))
    return [(f.subject, f.message) for f in found if f.level == "FAIL"]


RULE = """---
id: project.house-style
version: 1
kind: rule
title: House style
description: One line.
statement: One line.
status: active
class: advisory
depends_on: []
tags: []
x-majordomus:
  validator: {validator}
  category: style
  enforced_by:
    - doctor
  exit_code: 10
  tests:
    - tests/test_style.py
---
"""


def test_a_validator_no_function_backs_is_a_failure(fresh: Path) -> None:
    (fresh / ".ai/repo/rules/project/house-style.v1.md").write_text(RULE.format(validator="nope"))
    found = _vendor_failures(fresh)
    assert (
        ".ai/repo/rules/project/house-style.v1.md",
        "names validator 'nope', which this majordomus does not have",
    ) in found


def test_a_function_no_rule_declares_is_a_failure(
    fresh: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setitem(REGISTRY, "orphan", lambda facts: iter(()))
    found = _vendor_failures(fresh)
    assert any(subject == "validator orphan" for subject, _ in found), found


def test_a_declared_doctor_validator_doctor_does_not_run_is_a_failure(
    fresh: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(doctor, "RUN", doctor.RUN - {"policy_schema"})
    found = _vendor_failures(fresh)
    assert any("doctor does not run validator 'policy_schema'" in m for _, m in found), found


def test_an_identity_other_than_listed_is_a_failure(fresh: Path) -> None:
    manifest = fresh / skeleton.VENDORED / "manifest.yaml"
    manifest.write_text(manifest.read_text().replace("id: majordomus.policy-schema", "id: x.y", 1))
    found = _vendor_failures(fresh)
    assert any(
        "declares majordomus.policy-schema@1, the manifest lists x.y@1" in m for _, m in found
    )


def test_a_listed_file_that_is_gone_is_a_failure(fresh: Path) -> None:
    (fresh / skeleton.VENDORED / "rules/policy-schema.v1.md").unlink()
    found = _vendor_failures(fresh)
    assert (
        f"{skeleton.VENDORED}/rules/policy-schema.v1.md",
        "listed in the manifest, missing",
    ) in found


def test_an_unknown_front_matter_key_in_a_vendored_rule_is_a_failure(fresh: Path) -> None:
    rule = fresh / skeleton.VENDORED / "rules/policy-schema.v1.md"
    rule.write_text(rule.read_text().replace("kind: rule\n", "kind: rule\nowner: me\n", 1))
    found = _vendor_failures(fresh)
    assert any("unknown key 'owner'" in m for _, m in found), found
    assert any("sha256" in m for _, m in found), found


def _leaves(data: object, path: tuple[object, ...] = ()) -> list[tuple[object, ...]]:
    if isinstance(data, dict):
        return [leaf for key, value in data.items() for leaf in _leaves(value, (*path, key))]
    if isinstance(data, list):
        return [leaf for i, value in enumerate(data) for leaf in _leaves(value, (*path, i))]
    return [path]


SKELETON_POLICY = yamlstrict.parse(
    share.read_text("skeleton", "ai", "repo", "policy.yaml"), "policy.yaml"
).data
LEAVES = _leaves(SKELETON_POLICY)


def _set(data: object, path: tuple[object, ...], value: object) -> None:
    for key in path[:-1]:
        data = data[key]  # type: ignore[index]
    data[path[-1]] = value  # type: ignore[index]


@settings(
    max_examples=150, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(
    st.sampled_from(LEAVES),
    st.one_of(
        st.none(),
        st.booleans(),
        st.integers(-2, 400),
        st.sampled_from(["x", "../out", "CLAUDE.md", "git-hook:pre-commit", "manual", "0s", "1m"]),
        st.text(max_size=10),
    ),
)
def test_one_changed_value_in_a_complete_policy_never_crashes_doctor(
    root: Path, leaf: tuple[object, ...], value: object
) -> None:
    import copy

    data = copy.deepcopy(SKELETON_POLICY)
    _set(data, leaf, value)
    policy = root / ".ai/repo/policy.yaml"
    original = policy.read_bytes()
    try:
        policy.write_text(yamlstrict.dump(data), encoding="utf-8")
        found = list(doctor.findings(judged(root)))
    finally:
        policy.write_bytes(original)
    assert int(verdict(found)) in (0, 10, 12)
    assert all(f.reproduce for f in found if f.level == "FAIL")


# `mj-watch facts --for doctor` after `mj-policy facts`: the layer's facts passed on, the rest
# added; without them, or after a failing upstream, it stops.


def _doctor_facts(root: Path, upstream: list[dict[str, object]]) -> list[dict[str, object]]:
    options = argparse.Namespace(of="doctor", prove=False, input=None)
    context = Context(cwd=root, upstream=upstream)
    return list(run_stream("mj-watch facts", gather.STAGES["facts"], options, context))


def test_doctor_facts_pass_the_layer_facts_on_and_add_the_rest(root: Path) -> None:
    layer = [*layerfacts.gather(root), streams.summary("mj-policy facts", 0, {"fact": 3})]
    out = _doctor_facts(root, layer)
    names = [record.get("fact") for record in out if record["kind"] == "fact"]
    assert names[:4] == ["doctor", "files", "layer", "targets"]
    assert {"git", "state", "hooks", "decisions"} <= set(names)
    assert out[-1]["kind"] == "summary" and out[-1]["exit"] == 0


@pytest.mark.parametrize("missing", ["files", "layer", "targets"])
def test_doctor_facts_without_a_layer_fact_are_missing_artifact(root: Path, missing: str) -> None:
    layer = [r for r in layerfacts.gather(root) if r["fact"] != missing]
    out = _doctor_facts(root, [*layer, streams.summary("mj-policy facts", 0, {})])
    assert out[-1]["exit"] == 12 and f"no {missing} fact" in str(out[-1]["error"])
    assert [r for r in out if r["kind"] == "fact"] == []


def test_doctor_facts_stop_with_a_failing_upstream(root: Path) -> None:
    out = _doctor_facts(root, [streams.summary("mj-policy facts", 10, {}, "broken")])
    assert [r["kind"] for r in out] == ["summary"] and out[0]["exit"] == 10
