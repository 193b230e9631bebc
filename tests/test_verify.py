"""`majordomus verify` in CI: a bare remote, separate worker clones and one CI clone. An honest
task passes; each way a worker would script past the local checks fails with the task (or the
commit) named; verify runs nothing the base policy does not pin and writes nothing."""

from __future__ import annotations

import json
import subprocess
from collections.abc import Iterator
from pathlib import Path

import pytest
from conftest import Repo
from remoteworld import clone_id
from verifyworld import NOTE
from verifyworld import PINNED
from verifyworld import World
from verifyworld import failing
from verifyworld import forge_finish
from verifyworld import honest
from verifyworld import snapshot


@pytest.fixture(scope="module")
def world(tmp_path_factory: pytest.TempPathFactory) -> Iterator[World]:
    made = World(tmp_path_factory.mktemp("verify"))
    yield made
    made.remote.close()


def test_an_honest_task_is_re_proven_and_verify_writes_nothing(world: World) -> None:
    worker = world.worker()
    honest(worker, "honest")
    world.push(worker, "honest")
    world.verify("honest")  # fetched and checked out: the snapshot is of what verify sees
    before = snapshot(world.ci.root)
    code, findings, err = world.verify("honest")
    assert code == 0, (findings, err)
    assert snapshot(world.ci.root) == before
    levels = {(f["category"], f["level"]) for f in findings}
    assert ("reproof", "OK") in levels and ("coverage", "OK") in levels, findings
    assert ("witness", "OK") in levels and ("layer", "OK") in levels, findings
    proof = next(f for f in findings if f["category"] == "reproof")
    assert PINNED in str(proof["message"])


def named(findings: list[dict[str, object]], category: str, subject: str) -> str:
    lines = [f for f in failing(findings, category) if f["subject"] == subject]
    assert lines, (category, subject, findings)
    return str(lines[0]["message"])


def task_of(worker: Repo) -> str:
    ledger = (worker.root / ".ai/local/state/ledger.jsonl").read_text().splitlines()
    return str([json.loads(x) for x in ledger if '"task.started"' in x][-1]["task_id"])


def test_a_forged_finish_fails_naming_the_task(world: World) -> None:
    worker = world.worker()
    assert worker.mj("start", "forge", "--scope", "lib/forge").code == 0
    worker.write("lib/forge/parse.txt", "bad\n")
    worker.commit("forged")
    task = task_of(worker)
    forge_finish(worker, task, worker.git("rev-parse", "HEAD^{tree}").strip())
    assert worker.mj("sync").code == 0  # the forged line is published like any other
    world.push(worker, "forged")
    code, findings, _ = world.verify("forged")
    assert code == 10
    assert f"`{PINNED}` exits 1" in named(findings, "reproof", task)


def test_a_verification_weakened_in_the_change_is_judged_by_the_base(
    world: World, tmp_path: Path
) -> None:
    marker = tmp_path / "weak-ran"
    for weak, branch in ((None, "true"), (f"touch {marker}", "weak")):
        worker = world.worker()
        policy = worker.root / ".ai/repo/policy.yaml"
        text = policy.read_text().replace(f'"{PINNED}"', f'"{weak or "true"}"')
        policy.write_text(text)  # the change pins a weaker command for itself, committed
        worker.commit("pin a weaker verification")  # before the task, which then judges by it
        assert worker.mj("start", branch, "--scope", f"lib/{branch}").code == 0
        worker.write(f"lib/{branch}/parse.txt", "bad\n")
        args = ("--verify-command", "true") if weak is None else ()
        done = worker.mj("finish", "--outcome", "completed", "--note", "-", *args, stdin=NOTE)
        assert done.code == 0, done  # the local judge reads the worker's own policy
        worker.commit(branch)
        world.push(worker, branch)
        marker.unlink(missing_ok=True)
        code, findings, _ = world.verify(branch)
        assert code == 10
        assert f"`{PINNED}` exits 1" in named(findings, "reproof", task_of(worker))
        assert not marker.exists()  # the head's command never ran in CI


def test_a_commit_outside_any_task_fails_naming_the_commit(world: World) -> None:
    # another clone's honest task publishes a ledger first: whichever tests of this module ran
    # before on this worker, the remote holds one, so the coverage is judged, not its absence
    honest(world.worker(), "published")
    worker = world.worker()
    worker.write("src/sneak.txt", "x\n")  # no task of any clone claims src
    commit = worker.commit("no task, no hooks")
    world.push(worker, "sneak")
    code, _, err = world.verify("sneak", published=False)
    assert code == 12 and "git fetch origin 'refs/majordomus/*:refs/majordomus/*'" in err, err
    code, findings, _ = world.verify("sneak")
    assert code == 10
    assert "no task published on the remote covers it" in named(findings, "coverage", commit[:12])


def test_a_recorded_tree_that_is_not_the_commits_fails(world: World) -> None:
    worker = world.worker()
    assert worker.mj("start", "swap", "--scope", "lib/swap").code == 0
    worker.write("lib/swap/parse.txt", "good\n")
    assert worker.mj("finish", "--outcome", "completed", "--note", "-", stdin=NOTE).code == 0
    worker.write("lib/swap/parse.txt", "bad\n")  # verified one tree, committed another
    worker.commit("swap")
    world.push(worker, "swap")
    code, findings, _ = world.verify("swap")
    assert code == 10
    assert "is the tree of no commit in the range" in named(findings, "reproof", task_of(worker))


def test_a_deleted_or_truncated_published_ledger_fails(world: World) -> None:
    worker = world.worker()
    assert worker.mj("start", "cut", "--scope", "lib/cut").code == 0
    assert worker.mj("sync").code == 0  # the start published: the first commit of the ledger
    worker.write("lib/cut/parse.txt", "good\n")
    assert worker.mj("finish", "--outcome", "completed", "--note", "-", stdin=NOTE).code == 0
    commit = worker.commit("cut")
    world.push(worker, "cut")
    task = task_of(worker)
    ref = f"refs/majordomus/ledger/{clone_id(worker)}"
    assert world.verify("cut")[0] == 0
    first = world.remote.git_bare("rev-list", "--reverse", ref).split()[0]
    world.remote.git_bare("update-ref", ref, first)  # truncated: the finish is gone
    code, findings, _ = world.verify("cut")
    assert code == 10
    assert f"task {task} covers it" in named(findings, "coverage", commit[:12])
    world.remote.git_bare("update-ref", "-d", ref)  # deleted
    code, findings, _ = world.verify("cut")
    assert code == 10
    message = named(findings, "coverage", commit[:12])
    assert (
        f"task {task} claims that scope" in message and "no published ledger starts it" in message
    )


def test_the_reports_ci_reads(world: World, tmp_path: Path) -> None:
    """--format github annotates each FAIL; --junit has a case a judged line, its failures
    parsed back; --sarif validates against the vendored SARIF 2.1.0 schema."""
    import subprocess
    import sys
    import xml.etree.ElementTree as ET

    worker = world.worker()
    honest(worker, "report")
    worker.write("src/after.txt", "x\n")
    sneak = worker.commit("outside the task")
    world.push(worker, "report")
    junit, sarif = tmp_path / "verify.xml", tmp_path / "verify.sarif"
    code, _, _ = world.verify("report")
    assert code == 10
    done = world.ci.mj("verify", "--base", world.base, "--format", "github",
                       "--junit", str(junit), "--sarif", str(sarif))  # fmt: skip
    assert done.code == 10, done
    errors = [line for line in done.out.splitlines() if line.startswith("::error ")]
    assert len(errors) == 1 and f"title=verify coverage {sneak[:12]}::" in errors[0], done.out
    assert errors[0].startswith("::error file=src/after.txt,line=1,title="), errors
    suite = ET.parse(junit).getroot().find("testsuite")
    assert suite is not None and suite.get("failures") == "1"
    cases = {(c.get("classname"), c.get("name")): c for c in suite.iter("testcase")}
    assert cases[("verify.coverage", sneak[:12])].find("failure") is not None
    assert any(k[0] == "verify.reproof" and c.find("failure") is None for k, c in cases.items())
    schema = Path(__file__).resolve().parents[1] / "share/sarif/sarif-schema-2.1.0.json"
    argv = [sys.executable, "-m", "check_jsonschema", "--schemafile", str(schema), str(sarif)]
    checked = subprocess.run(argv, check=False, capture_output=True, text=True)
    assert checked.returncode == 0, checked.stdout + checked.stderr
    results = json.loads(sarif.read_text())["runs"][0]["results"]
    assert [r["ruleId"] for r in results] == ["majordomus.scope-integrity"]
    [where] = results[0]["locations"]
    assert where["physicalLocation"]["artifactLocation"]["uri"] == "src/after.txt"
    again = world.ci.mj("verify", "--base", world.base, "--sarif", str(sarif))
    assert again.code == 15 and "never overwrites" in again.err, again


def test_an_evil_merge_is_judged_for_what_it_brings_in(world: World) -> None:
    """A merge that brings in a path neither parent has (the conflict resolution a script slips
    a file into) is a commit like any other: no task covers it, so it FAILs, named."""
    worker = world.worker()
    honest(worker, "merged")
    worker.git("checkout", "-q", "-b", "side", world.base)
    worker.write(".ai/repo/project/side.md", "side\n")  # .ai/ is always allowed: not judged
    worker.commit("side")
    worker.git("checkout", "-q", "main")
    worker.git("merge", "-q", "--no-ff", "--no-commit", "side")
    worker.write("src/evil.txt", "x\n")  # in neither parent: the merge's own change
    merge = worker.commit("merge side")
    assert len(worker.git("show", "-s", "--format=%P", merge).split()) == 2
    world.push(worker, "evil")
    code, findings, _ = world.verify("evil")
    assert code == 10, findings
    assert "src/evil.txt" in named(findings, "coverage", merge[:12])
    assert [f["subject"] for f in failing(findings, "coverage")] == [merge[:12]]


def test_a_client_hook_that_failed_open_fails_its_task(world: World) -> None:
    """A payload the tool hook cannot judge lets the call through and leaves a `hook.unjudged`
    line; the task then finishes and is re-proven, and still FAILs: its hook never judged."""
    worker = world.worker()
    assert worker.mj("start", "open", "--scope", "lib/open").code == 0
    argv = ["majordomus", "capture", "tool", "--provider", "claude-code"]
    hooked = subprocess.run(argv, cwd=worker.root, env=worker.env, input=b"not json",
                            capture_output=True, check=False)  # fmt: skip
    assert hooked.returncode == 0 and b"not judged" in hooked.stderr, hooked
    worker.write("lib/open/parse.txt", "good\n")
    assert worker.mj("finish", "--outcome", "completed", "--note", "-", stdin=NOTE).code == 0
    worker.commit("open")
    world.push(worker, "open")
    code, findings, _ = world.verify("open")
    assert code == 10, findings
    message = named(findings, "layer", task_of(worker))
    assert "tool hook could not judge" in message, message
    assert not failing(findings, "coverage") and not failing(findings, "reproof"), findings


def test_a_program_first_on_the_ci_path_that_the_base_does_not_allow_is_refused(
    world: World, tmp_path: Path
) -> None:
    worker = world.worker()
    assert worker.mj("start", "fake sh", "--scope", "lib/fakesh").code == 0
    worker.write("lib/fakesh/parse.txt", "bad\n")
    worker.commit("bad, and a fake sh to pass it")
    task = task_of(worker)
    forge_finish(worker, task, worker.git("rev-parse", "HEAD^{tree}").strip())
    assert worker.mj("sync").code == 0
    world.push(worker, "fakesh")
    fake = tmp_path / "bin/sh"
    fake.parent.mkdir()
    fake.write_text("#!/bin/sh\nexit 0\n")
    fake.chmod(0o755)
    path = world.ci.env["PATH"]
    world.ci.env["PATH"] = f"{fake.parent}:{path}"
    try:
        code, findings, _ = world.verify("fakesh")
    finally:
        world.ci.env["PATH"] = path
    assert code == 10, findings
    assert f"`{PINNED}` exits 126" in named(findings, "reproof", task)
