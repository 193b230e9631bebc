"""The declaration of every command (`share/commands.yaml`) and what is built from it."""

from __future__ import annotations

import argparse

import pytest
from hypothesis import given
from hypothesis import strategies as st
from mj_core import share
from mj_core.declaration import commands as declare
from mj_core.declaration import generate as declgen


def test_the_generated_json_is_the_yaml_judged() -> None:
    assert share.path(declgen.TARGET).read_bytes() == declgen.expected()


def test_judge_names_what_the_schema_cannot_see() -> None:
    data = {
        "groups": [{"name": "TASK", "commands": ["run", "ghost"]}],
        "commands": [
            {"name": "run", "help": "h", "options": [{"name": "a", "flag": "--a", "help": "x"}],
             "pipeline": [{"stage": ["mj-x", "go"], "forward": ["a", "b"]}]},
            {"name": "stray", "help": "h"},
        ],
        "stages": [],
    }  # fmt: skip
    problems = list(declgen.judge(data))
    assert any("'ghost', which is not declared" in p for p in problems)
    assert any("'stray' is in no group" in p for p in problems)
    assert any("stage mj-x go is not declared" in p for p in problems)
    assert any("forwards 'b'" in p for p in problems)


def test_every_public_command_is_declared_with_its_exits() -> None:
    for name in declare.public():
        spec = declare.command(name)
        assert spec["help"]
        if spec.get("pipeline"):
            assert 0 in spec["exits"] and 2 in spec["exits"], name


SPECS = [
    {"name": "flag", "flag": "--flag", "help": "h"},
    {"name": "value", "flag": "--value", "kind": "value", "help": "h"},
    {"name": "count", "flag": "--count", "kind": "positive", "help": "h"},
    {"name": "many", "flag": "--many", "kind": "repeat", "help": "h"},
    {"name": "pick", "flag": "--pick", "kind": "choice", "choices": ["a", "b"], "help": "h"},
    {"name": "where", "nargs": "?", "help": "h"},
]
WORD = st.text(alphabet="abcxyz/._ 0123", min_size=1, max_size=8).filter(
    lambda w: not w.startswith("-")
)


@given(
    flag=st.booleans(),
    value=st.none() | WORD,
    count=st.none() | st.integers(1, 99),
    many=st.none() | st.lists(WORD, min_size=1, max_size=3),
    pick=st.none() | st.sampled_from(["a", "b"]),
    where=st.none() | WORD,
)
def test_an_option_rendered_back_parses_to_the_same_value(**values: object) -> None:
    parser = argparse.ArgumentParser()
    declare.add_options(parser, SPECS)
    step = {"stage": ["mj-x", "go"], "forward": [s["name"] for s in SPECS]}
    spec = {"name": "go", "options": SPECS}
    argv = declare.stage_argv(step, spec, argparse.Namespace(**values), json_output=False)
    assert argv[:2] == ["mj-x", "go"]
    parsed = vars(parser.parse_args(argv[2:]))
    assert parsed == {k: (False if v is None and k == "flag" else v) for k, v in values.items()}


def test_stage_argv_fills_the_format_and_named_values() -> None:
    step = {"stage": ["mj-x", "go", "--format", "@format", "--name", "{name}"]}
    values = argparse.Namespace(name="n1")
    assert declare.stage_argv(step, {"options": []}, values, json_output=True) == [
        "mj-x", "go", "--format", "json", "--name", "n1",
    ]  # fmt: skip


def test_a_when_step_runs_only_with_its_option() -> None:
    spec = {"pipeline": [{"stage": ["a", "b"]}, {"stage": ["c", "d"], "when": "write"}]}
    assert len(declare.steps(spec, argparse.Namespace(write=False))) == 1
    assert len(declare.steps(spec, argparse.Namespace(write=True))) == 2


@pytest.mark.parametrize("tool", ["mj-policy", "mj-state", "mj-context", "mj-watch"])
def test_a_stage_receives_every_option_a_pipeline_forwards_to_it(tool: str) -> None:
    stages = declare.stages(tool)
    for spec in declare.commands().values():
        for step in spec.get("pipeline") or []:
            if step["stage"][0] != tool:
                continue
            names = {o["name"] for o in stages[step["stage"][1]]["options"]}
            assert set(step.get("forward") or []) <= names, (spec["name"], step)


def test_the_generated_events_json_is_the_yaml_judged() -> None:
    assert share.path(declgen.EVENTS).read_bytes() == declgen.expected_events()


def test_the_events_judge_names_a_wrong_entry() -> None:
    envelope = {key: "string" for key in declgen.ENVELOPE}
    assert list(declgen.judge_events({"envelope": envelope, "events": {}})) == []
    assert list(declgen.judge_events({"events": {}}))
    assert list(declgen.judge_events({"envelope": {"ts": "string"}, "events": {}}))
    problems = list(
        declgen.judge_events(
            {
                "envelope": envelope,
                "events": {
                    "a.b": {"writer": "", "required": ["ts"], "optional": [], "types": {}},
                    "c.d": {"writer": "w", "required": [1], "optional": [], "types": {}},
                    "e.f": {"writer": "w", "required": [], "optional": []},
                    "g.h": {"writer": "w", "required": ["k"], "optional": ["o"],
                            "types": {"k": "string"}},
                    "i.j": {"writer": "w", "required": ["k"], "optional": [],
                            "types": {"k": "text"}},
                },
            }
        )
    )  # fmt: skip
    assert problems == [
        "a.b: `writer` names the command that writes it",
        "a.b: 'ts' is an envelope key",
        "a.b: `types` names exactly its keys: ts",
        "c.d: `required` is a list of key names",
        "e.f: exactly `writer`, `required`, `optional` and `types`",
        "g.h: `types` names exactly its keys: k, o",
        "i.j: k: 'text' is not a type (string, integer, number, boolean, null, object, array, "
        "array<T>, object<T>)",
    ]


@pytest.mark.parametrize("where", ["../outside", "a/../../b", "./x", ".", "/etc/passwd"])
def test_a_bench_target_expects_a_file_inside_the_repository(where: str) -> None:
    """`expect` names a file the measured run leaves in the fixture's copy: a path that climbs
    out of it (or is absolute) is a schema violation naming the entry."""
    from pathlib import Path

    from mj_core.schema import full as schema
    from mj_core.yaml import strict as yamlstrict

    doc = yamlstrict.load_file(Path(share.path("commands.yaml")))
    names = [c["name"] for c in doc.data["commands"]]
    target = doc.data["commands"][names.index("capture session")]["bench"][0]
    assert list(schema.violations(doc, "commands")) == []
    target["expect"] = where
    (problem,) = schema.violations(doc, "commands")
    assert ".bench.0.expect:" in problem[1] and repr(where) in problem[1]
