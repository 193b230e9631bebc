"""The stream contract cannot pass vacuously: the sampler sees the records of every stage (in a
composition run in-process and in a pipeline of executables), and the validator fails a record
that breaks its kind's schema, naming the kind, the field and the command.
"""

from __future__ import annotations

import importlib.util
import json
import os
import re
import sys
from pathlib import Path
from typing import Any

import pytest
import streamcontract
from conftest import SAMPLING
from conftest import Repo
from streamcontract import Sample

CHECKS = streamcontract.validators()
SOURCES = Path(__file__).resolve().parents[1]
LITERAL = re.compile(r"""["']kind["']:\s*["']([a-z][a-z-]*)["']""")


def sampled(repo: Repo, tmp_path: Path) -> tuple[Repo, Path]:
    """The repository with its tool processes sampling into a directory of this test's own."""
    directory = tmp_path / "samples"
    directory.mkdir()
    return Repo(repo.root, {**repo.env, streamcontract.SAMPLES: str(directory)}), directory


def test_the_suite_runs_its_tools_with_the_sampler() -> None:
    assert os.environ.get(streamcontract.SAMPLES), "conftest names no sample directory"
    assert str(SAMPLING) in os.environ["PYTHONPATH"].split(os.pathsep)
    assert (SAMPLING / "sitecustomize.py").is_file()


def test_the_sampler_sees_every_stage_of_a_composition_and_of_a_pipeline(
    layer_repo: Repo, tmp_path: Path
) -> None:
    repo, directory = sampled(layer_repo, tmp_path)
    assert repo.mj("start", "sample the streams", "--scope", "lib", "--owner", "o").code == 0
    repo.write("lib/a.py", "a = 1\n")
    assert repo.mj("checkpoint", stdin="sampled\n").code == 0
    assert repo.mj("question", "add", "is every kind seen?").code == 0
    for argv in (("check", "--json"), ("context", "--json"), ("finish", "--check", "--json")):
        assert repo.mj(*argv).code in (0, 10), argv
    assert repo.mj("history").code == 0
    assert repo.mj("rules", "--json").code == 0
    piped = repo.shell("mj-state facts | mj-context build | mj-context render --format text")
    assert piped.code == 0, piped
    found = list(streamcontract.samples(directory))
    verdict = streamcontract.judge(found, CHECKS)
    assert not verdict.problems, verdict.problems
    stages = {sample.stage for _, batch in found for sample in batch}
    # in-process (the dispatcher's composition) and as executables (the shell's pipe)
    assert {"mj-state facts", "mj-context build", "mj-context render"} <= stages
    commands = {" ".join(sample.argv) for _, batch in found for sample in batch}
    assert "majordomus context --json" in commands
    assert {"mj-state facts", "mj-context build", "mj-context render --format text"} <= commands
    kinds = set(verdict.kinds)
    expected = {"fact", "finding", "record", "section", "excluded", "budget", "briefing"}
    assert expected | {"text", "summary", "event", "rule"} <= kinds, kinds
    assert verdict.kinds["summary"] >= verdict.processes  # every stream ends with its summary


def test_the_dispatchers_own_lines_validate_too(git_repo: Repo) -> None:
    """`init --json` writes `hook` lines after its stage's stream: they keep the contract too."""
    result = git_repo.mj("init", "--json")
    assert result.code == 0, result
    records = [json.loads(line) for line in result.out.splitlines()]
    assert {"created", "summary", "hook"} <= {record["kind"] for record in records}
    for record in records:
        sample = Sample(["majordomus", "init", "--json"], "majordomus init", record)
        assert not streamcontract.problems_of(sample, CHECKS), record


def test_a_process_that_is_not_a_tool_is_not_sampled(layer_repo: Repo, tmp_path: Path) -> None:
    repo, directory = sampled(layer_repo, tmp_path)
    script = "import mj_core.stream.stage as s; print(hasattr(s.run_stream, '__wrapped__'))"
    shown = repo.shell(f"python -c {json.dumps(script)}")
    assert shown.out.strip() == "False", shown
    assert repo.mj("version").code == 0
    assert not list(directory.iterdir())  # `version` runs no stage


def test_a_record_that_breaks_its_schema_fails_naming_kind_field_and_command() -> None:
    argv = ["majordomus", "check", "--json"]

    def problems(record: object) -> list[str]:
        return streamcontract.problems_of(Sample(argv, "mj-state check", record), CHECKS)

    finding = {"kind": "finding", "level": "OK", "category": "scope", "subject": "lib"}
    finding |= {"message": "in scope", "reproduce": None}
    assert problems(finding) == []
    [bad] = problems({**finding, "level": "LOUD"})
    assert bad.startswith("kind `finding` at $.level: 'LOUD' is not one of")
    assert bad.endswith("— from `majordomus check --json` (stage `mj-state check`)")
    [unproven] = problems({**finding, "level": "FAIL"})  # a FAIL owes its reproduce command
    assert unproven.startswith("kind `finding` at $.reproduce: None is not of type 'string'")
    [extra] = problems({**finding, "colour": "red"})
    assert "kind `finding` at $:" in extra and "'colour'" in extra
    [unknown] = problems({"kind": "gossip", "text": "x"})
    assert "kind `gossip` has no schema in share/schemas/pipeline/" in unknown
    assert problems({"text": "no kind"})[0].startswith("a record without a string `kind`")
    [fact] = problems({"kind": "fact", "fact": "clock", "now": "noon"})
    assert fact.startswith("kind `fact` at $.now: 'noon' is not of type 'integer'")
    [counted] = problems(
        {"kind": "summary", "stage": "mj-state check", "exit": 0, "counts": {"None": 1}}
    )
    assert counted.startswith("kind `summary` at $.counts: 'None' does not match")
    [action] = problems({"kind": "record", "action": "opened", "task_id": "t"})
    assert action.startswith("kind `record` at $: 'question' is a required property")
    torn = Sample(argv, "mj-state check", unserialisable="Object of type Path is not JSON")
    assert streamcontract.problems_of(torn, CHECKS)[0].startswith("a record that is not JSON")


def test_the_session_verdict_counts_and_fails(tmp_path: Path) -> None:
    good = {"kind": "created", "path": ".ai/README.md"}
    lines = [{"argv": ["mj-policy", "init"]}, {"stage": "mj-policy init", "record": good}] * 2
    lines.append({"stage": "mj-policy init", "record": {"kind": "created", "path": ""}})
    text = "".join(json.dumps(line) + "\n" for line in lines)
    (tmp_path / "1-1.jsonl").write_text(text + '{"stage": "mj-po', encoding="utf-8")  # torn
    (tmp_path / "2-1.jsonl").write_text('{"stage"\n' + text, encoding="utf-8")
    verdict = streamcontract.judge(streamcontract.samples(tmp_path), CHECKS)
    assert verdict.processes == 2 and verdict.lines == 2 * 3 + 1
    assert verdict.distinct == 3  # each distinct record is validated once
    assert verdict.kinds["created"] == 6
    assert len(verdict.problems) == 2, verdict.problems
    assert any("$.path: '' should be non-empty" in p for p in verdict.problems)
    assert any(p.startswith("a record that is not JSON: line 1") for p in verdict.problems)


def test_every_kind_named_in_the_sources_has_a_schema() -> None:
    named: dict[str, str] = {}
    sources = [*SOURCES.glob("packages/*/src/**/*.py"), *SOURCES.glob("majordomus/src/**/*.py")]
    for path in sorted(sources):
        for kind in LITERAL.findall(path.read_text(encoding="utf-8")):
            named.setdefault(kind, str(path.relative_to(SOURCES)))
    assert len(named) >= 20, named
    missing = {kind: where for kind, where in named.items() if kind not in CHECKS}
    assert not missing, missing


@pytest.mark.parametrize("kind", sorted(CHECKS))
def test_each_schema_is_closed_and_names_its_kind(kind: str) -> None:
    schema = json.loads((streamcontract.SCHEMAS / f"{kind}.json").read_text(encoding="utf-8"))
    assert schema["$schema"] == "https://json-schema.org/draft/2020-12/schema"
    assert schema["$id"] == f"majordomus/pipeline/{kind}"
    assert schema["properties"]["kind"] == {"const": kind}
    # closed: a field no schema names fails, unless the kind's branches each close themselves
    branches = [part["then"] for part in schema.get("allOf", []) if "then" in part]
    closed = [b for b in branches if b.get("additionalProperties") is False or "anyOf" in b]
    assert schema.get("additionalProperties") is False or (branches and closed == branches)


def load_sampler(name: str) -> Any:
    spec = importlib.util.spec_from_file_location(name, SAMPLING / "sitecustomize.py")
    assert spec is not None and spec.loader is not None
    sampler = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(sampler)  # installs what this process's argv and environment ask
    return sampler


@pytest.mark.parametrize(
    ("argv", "sampled"),
    [
        (["/bin/mj-state", "facts"], True),
        (["/bin/majordomus", "check"], True),
        (["/bin/majordomus", "bench", "check"], False),
        (["-c"], False),
        (["/usr/bin/pytest", "tests"], False),
    ],
)
def test_only_a_tool_process_samples_and_the_benchmark_harness_never(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path, argv: list[str], sampled: bool
) -> None:
    monkeypatch.setattr(sys, "argv", argv)
    monkeypatch.setenv(streamcontract.SAMPLES, str(tmp_path))
    monkeypatch.setattr(sys, "meta_path", list(sys.meta_path))
    before = len(sys.meta_path)
    load_sampler("sampler_install_under_test")
    assert len(sys.meta_path) == before + sampled
    # the harness drops the variable, so the processes it times are not sampled either
    assert (streamcontract.SAMPLES in os.environ) == (argv[1:2] != ["bench"])


def test_the_sink_keeps_a_record_exactly_and_names_one_that_is_not_json(tmp_path: Path) -> None:
    sampler = load_sampler("sampler_under_test")  # pytest is not a tool: installs nothing
    sink = sampler._Sink(str(tmp_path))
    odd = {"kind": "finding", "level": "OK", "category": "scope", "subject": "\udcff-bytes"}
    odd |= {"message": "a name that is not UTF-8", "reproduce": None}
    sink.write("mj-state check", odd)
    sink.write("mj-state check", {"kind": "fact", "fact": "clock", "now": float("nan")})
    sink.write("mj-state check", {"kind": "created", "path": tmp_path})
    [(_, found)] = list(streamcontract.samples(tmp_path))
    assert found[0].record == odd
    verdict = streamcontract.judge([(tmp_path, found)], CHECKS)
    assert [p.split(":")[0] for p in verdict.problems] == ["a record that is not JSON"] * 2
