"""`majordomus ratchet check|update`: existing dirt is ratcheted, new dirt is blocked, a secret
is a hard zero."""

from __future__ import annotations

import json

from conftest import Repo

DECLARATION = """version: 1
metrics:
  - name: todo-lines
    builtin: lines-containing
    text: TODO
    under: lib
  - name: lib-files
    command: [sh, -c, "git ls-files lib | wc -l"]
"""
FAKE_KEY = "AKIA" + "Q" * 16  # built here, so no credential shape is in this file


def _declared(repo: Repo, todos: int) -> None:
    repo.write(".ai/repo/ratchet.yaml", DECLARATION)
    repo.write("lib/a.py", "".join(f"x{n} = {n}  # TODO\n" for n in range(todos)))
    repo.commit("ratchet")


def _counts(repo: Repo) -> dict[str, int]:
    return {
        f["subject"]: f["level"]
        for f in map(json.loads, repo.mj("ratchet", "check", "--json").out.splitlines())
        if f["kind"] == "finding"
    }


def test_no_baseline_warns_and_passes_then_update_records_it(layer_repo: Repo) -> None:
    _declared(layer_repo, 2)
    first = layer_repo.mj("ratchet", "check")
    assert first.code == 0 and first.out.count("WARN ratchet") == 2, first
    assert "no accepted count" in first.out
    assert layer_repo.mj("ratchet", "update").code == 0
    baseline = (layer_repo.root / ".ai/repo/ratchet-baseline.yaml").read_text()
    assert baseline == "version: 1\ncounts:\n  todo-lines: 2\n  lib-files: 1\n"
    assert _counts(layer_repo) == {"todo-lines": "OK", "lib-files": "OK"}


def test_an_increase_fails_and_equal_or_lower_passes(layer_repo: Repo) -> None:
    _declared(layer_repo, 2)
    assert layer_repo.mj("ratchet", "update").code == 0
    layer_repo.write("lib/a.py", "x = 1  # TODO\n")  # lower
    assert layer_repo.mj("ratchet", "check").code == 0
    layer_repo.write("lib/a.py", "x = 1  # TODO\ny = 2  # TODO\nz = 3  # TODO\n")
    raised = layer_repo.mj("ratchet", "check")
    assert raised.code == 10, raised
    assert "todo-lines — 3, up from the accepted 2" in raised.out
    assert "[reproduce: git grep -F -e TODO -- lib | wc -l]" in raised.out


def test_update_refuses_an_increase_unless_allowed_with_a_reason(layer_repo: Repo) -> None:
    _declared(layer_repo, 1)
    assert layer_repo.mj("ratchet", "update").code == 0
    layer_repo.write("lib/a.py", "x = 1  # TODO\ny = 2  # TODO\n")
    refused = layer_repo.mj("ratchet", "update")
    assert refused.code == 15 and "todo-lines 1 → 2 went up" in refused.err, refused
    assert layer_repo.mj("ratchet", "update", "--allow-increase").code == 2
    allowed = layer_repo.mj("ratchet", "update", "--allow-increase", "--why", "a vendored parser")
    assert allowed.code == 0, allowed
    ledger = (layer_repo.root / ".ai/local/state/ledger.jsonl").read_text().splitlines()
    updated = json.loads(ledger[-1])
    assert (updated["event"], updated["counts"]) == (
        "ratchet.updated",
        {"todo-lines": 2, "lib-files": 1},
    )
    last = json.loads(ledger[-2])
    assert (last["event"], last["raised"], last["why"]) == (
        "ratchet.raised",
        {"todo-lines": [1, 2]},
        "a vendored parser",
    )
    assert layer_repo.mj("ratchet", "check").code == 0
    assert layer_repo.mj("history", "--validate").code == 0


def test_a_baseline_raised_by_hand_fails(layer_repo: Repo) -> None:
    """A worker who raises the accepted count in the file, instead of `update --allow-increase
    --why`, is caught: the baseline no longer matches what the ledger recorded."""
    _declared(layer_repo, 1)
    assert layer_repo.mj("ratchet", "update").code == 0
    layer_repo.write("lib/a.py", "x = 1  # TODO\ny = 2  # TODO\n")
    baseline = layer_repo.root / ".ai/repo/ratchet-baseline.yaml"
    baseline.write_text(baseline.read_text().replace("todo-lines: 1", "todo-lines: 2"))
    edited = layer_repo.mj("ratchet", "check")
    assert edited.code == 10, edited
    assert "FAIL ratchet     .ai/repo/ratchet-baseline.yaml — differs from the counts" in edited.out
    assert "todo-lines — 2, accepted 2" in edited.out  # the count itself now looks fine
    assert layer_repo.mj("doctor").code == 10


def test_a_planted_secret_fails_whatever_the_baseline_and_is_never_echoed(
    layer_repo: Repo,
) -> None:
    _declared(layer_repo, 0)
    assert layer_repo.mj("ratchet", "update").code == 0
    layer_repo.write("lib/settings.py", f"# config\nKEY = '{FAKE_KEY}'\n")
    layer_repo.commit("a key")
    found = layer_repo.mj("ratchet", "check")
    assert found.code == 10, found
    assert (
        "FAIL ratchet     lib/settings.py:2 — a secret-shaped string (AWS Access Key)" in found.out
    )
    assert FAKE_KEY not in found.out + found.err
    assert FAKE_KEY not in layer_repo.mj("ratchet", "check", "--json").out
    assert layer_repo.mj("ratchet", "update").code == 10  # a hard zero is never recorded


def test_a_bad_declaration_is_refused_naming_file_line_and_key(layer_repo: Repo) -> None:
    layer_repo.write(".ai/repo/ratchet.yaml", DECLARATION + "    shell: true\n")
    bad = layer_repo.mj("ratchet", "check")
    assert bad.code == 10 and bad.err.count("\n") == 1, bad
    assert bad.err.startswith("majordomus: .ai/repo/ratchet.yaml:") and "shell" in bad.err
    layer_repo.write(
        ".ai/repo/ratchet.yaml", 'version: 1\nmetrics:\n  - name: x\n    command: ["false"]\n'
    )
    failing = layer_repo.mj("ratchet", "check")
    assert failing.code == 10 and "x — could not be counted: exited 1" in failing.out, failing


def test_doctor_judges_a_declared_ratchet(layer_repo: Repo) -> None:
    assert "ratchet" not in layer_repo.mj("doctor").out  # nothing declared: nothing judged
    _declared(layer_repo, 1)
    assert layer_repo.mj("ratchet", "update").code == 0
    layer_repo.write("lib/a.py", "x = 1  # TODO\ny = 2  # TODO\n")
    doctor = layer_repo.mj("doctor")
    assert (
        doctor.code == 10
        and "FAIL ratchet     todo-lines — 2, up from the accepted 1" in doctor.out
    )
