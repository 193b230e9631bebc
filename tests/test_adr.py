"""`majordomus adr list|show|next|propose|check|affected` (CLI-REFERENCE §2.26): ids one above
the highest claimed in this tree, the sibling worktrees, every ref and every ledger, never a hole
filled; `propose` writes `status: proposed` only and `--supersedes` writes both sides; `check`
names every defect (10); every refusal leaves the files and the ledger as they were; 8 racing
proposals get 8 distinct ids with no hole."""

from __future__ import annotations

import json
import subprocess
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest
from conftest import Repo
from conftest import exe
from conftest import failures

ADRS = ".ai/repo/adrs"
LEDGER = ".ai/local/state/ledger.jsonl"
BODY = "\n## Context\n\nWhy.\n\n## Decision\n\nWhat.\n\n## Consequences\n\nCost.\n"


def adr(number: int, slug: str = "x", extra: str = "", *, status: str = "accepted") -> str:
    return (
        f"---\nschema: adr/v1\nid: adr-{number:04d}\nkind: adr\ntitle: Record {number}\n"
        f'status: {status}\ndate: "2026-09-05"\n{extra}---\n{BODY}'
    )


def _state(repo: Repo) -> tuple[list[str], bytes]:
    folder = repo.root / ADRS
    files = sorted(f"{p.name}:{p.read_text()}" for p in folder.glob("*.md"))
    ledger = repo.root / LEDGER
    return files, ledger.read_bytes() if ledger.exists() else b""


def _refused(repo: Repo, code: int, *args: str) -> str:
    before = _state(repo)
    result = repo.mj("adr", *args)
    assert result.code == code and result.err.count("\n") == 1, (args, result)
    assert "Traceback" not in result.err
    assert _state(repo) == before
    return result.err


def test_propose_writes_a_proposed_record_its_ledger_line_and_prints_it(layer_repo: Repo) -> None:
    assert layer_repo.mj("adr", "next").out.startswith("adr-0001")
    done = layer_repo.mj("adr", "propose", "Use strict YAML", "--tag", "yaml")
    assert done.code == 0, done
    assert done.out.startswith("proposed: adr-0001  Use strict YAML\n")
    assert f"{ADRS}/0001-use-strict-yaml.md" in done.out and "acceptance is a person" in done.out
    text = (layer_repo.root / ADRS / "0001-use-strict-yaml.md").read_text()
    assert "status: proposed\n" in text and "id: adr-0001\n" in text and "  - yaml\n" in text
    assert "provenance" not in text
    events = [json.loads(x) for x in _state(layer_repo)[1].splitlines()]
    assert [(e["event"], e["adr"], e["title"]) for e in events if e["event"] == "adr.proposed"] == [
        ("adr.proposed", "adr-0001", "Use strict YAML")
    ]
    assert layer_repo.mj("adr", "check").code == 0
    listed = layer_repo.mj("adr", "list")
    assert listed.code == 0 and listed.out == "adr-0001  proposed    Use strict YAML\n"
    assert layer_repo.mj("adr", "list", "--status", "accepted").out == ""
    shown = layer_repo.mj("adr", "show", "adr-0001")
    assert shown.code == 0 and shown.out == f"{ADRS}/0001-use-strict-yaml.md\n{text}"
    as_json = [json.loads(x) for x in layer_repo.mj("adr", "list", "--json").out.splitlines()]
    assert as_json[0]["id"] == "adr-0001" and as_json[-1]["kind"] == "summary"
    assert layer_repo.mj("history", "--validate").code == 0


def test_evidence_makes_the_record_extracted(layer_repo: Repo) -> None:
    layer_repo.write("src/a.py", "a\n")
    layer_repo.commit("a file")
    assert layer_repo.mj("decision", "add", "keep spaces", "--why", "readable").code == 0
    done = layer_repo.mj("adr", "propose", "From code", "--from", "file:src/a.py",
                         "--from", "decision:keep spaces", "--from", "commit:HEAD")  # fmt: skip
    assert done.code == 0, done
    text = (layer_repo.root / ADRS / "0001-from-code.md").read_text()
    assert "origin: extracted" in text and "- file:src/a.py" in text
    assert '- "decision:keep spaces"' in text or "- decision:keep spaces" in text
    assert layer_repo.mj("adr", "check").code == 0


def test_every_refusal_has_its_code_and_writes_nothing(layer_repo: Repo) -> None:
    assert layer_repo.mj("adr", "propose", "First").code == 0
    assert "propose writes `status: proposed` only" in _refused(
        layer_repo, 15, "propose", "Accepted", "--status", "accepted"
    )
    assert "no nope.py in git" in _refused(layer_repo, 10, "propose", "T", "--from", "file:nope.py")
    assert "no t.py in git" in _refused(layer_repo, 10, "propose", "T", "--from", "test:t.py")
    _refused(layer_repo, 2, "propose", "T", "--from", "rumour:heard")
    _refused(layer_repo, 2, "propose", "T", "--from", "file")
    _refused(layer_repo, 2, "propose", "   ")
    _refused(layer_repo, 2, "propose", "!!!")
    _refused(layer_repo, 2, "propose")
    _refused(layer_repo, 15, "propose", "T", "--from", "file:../outside")
    assert "no such record" in _refused(layer_repo, 12, "propose", "T", "--supersedes", "adr-0042")
    assert "no such record" in _refused(layer_repo, 12, "show", "adr-0042")
    _refused(layer_repo, 2, "show")
    _refused(layer_repo, 2, "list", "--status", "maybe")
    _refused(layer_repo, 2, "affected", "--staged", "--worktree")
    _refused(layer_repo, 2, "affected", "--base", "no-such-ref")
    _refused(layer_repo, 2, "frobnicate")


def test_without_a_layer_every_action_is_12(git_repo: Repo) -> None:
    for args in (("list",), ("next",), ("check",), ("show", "adr-0001"), ("propose", "T")):
        result = git_repo.mj("adr", *args)
        assert result.code == 12 and "majordomus init" in result.err, (args, result)
    assert not (git_repo.root / ".ai").exists()


def test_supersedes_writes_both_sides_and_check_holds_them_together(layer_repo: Repo) -> None:
    layer_repo.write(f"{ADRS}/0001-old.md", adr(1))
    before = (layer_repo.root / ADRS / "0001-old.md").read_text()
    done = layer_repo.mj("adr", "propose", "New way", "--supersedes", "adr-0001")
    assert done.code == 0 and "supersedes: adr-0001" in done.out, done
    old = (layer_repo.root / ADRS / "0001-old.md").read_text()
    added = "superseded_by:\n  - adr-0002\n---\n\n## Context"
    assert old == before.replace("---\n\n## Context", added)
    assert "supersedes:\n  - adr-0001" in (layer_repo.root / ADRS / "0002-new-way.md").read_text()
    assert layer_repo.mj("adr", "check").code == 0
    third = layer_repo.mj("adr", "propose", "Newer", "--supersedes", "adr-0001")
    assert third.code == 0, third
    assert (
        "superseded_by:\n  - adr-0002\n  - adr-0003\n"
        in (layer_repo.root / ADRS / "0001-old.md").read_text()
    )
    assert layer_repo.mj("adr", "check").code == 0


DEFECTS = [
    ("0001-a.md", adr(1, extra="owner: me\n"), "unknown key 'owner'"),
    ("0001-a.md", adr(1, status="maybe"), "status"),
    ("0001-a.md", adr(2), "is not the file name's number (adr-0001)"),
    ("0001-a.md", adr(1).replace("## Decision\n\nWhat.\n", "## Decision\n\n"), "'## Decision'"),
    ("0001-a.md", adr(1).replace("## Consequences", "## Later"), "'## Consequences'"),
    ("0001-a.md", adr(1, status="superseded"), "names no superseded_by"),
    ("0001-a.md", adr(1, extra="supersedes:\n  - adr-0009\n"), "supersedes adr-0009: no such"),
    ("0001-a.md", adr(1, extra="related:\n  - file:gone.py\n"), "related file:gone.py: dangling"),
    ("0001-a.md", adr(1, extra="related:\n  - adr:adr-0007\n"), "dangling"),
    ("0001-a.md", "---\nschema: adr/v1\nid: [\n---\n", "0001-a.md"),
    ("0001-a.md", "no front matter\n", "no front matter"),
    ("one.md", adr(1), "not <NNNN>-<slug>.md"),
    (
        "0001-a.md",
        adr(1, extra="provenance:\n  origin: extracted\n"),
        "names what it was derived from",
    ),
]


@pytest.mark.parametrize(("name", "text", "said"), DEFECTS, ids=[d[2] for d in DEFECTS])
def test_check_fails_each_defect_naming_file_and_line(
    layer_repo: Repo, name: str, text: str, said: str
) -> None:
    layer_repo.write(f"{ADRS}/{name}", text)
    result = layer_repo.mj("adr", "check")
    assert result.code == 10, result
    found = failures(result.out)
    assert any(said in message or said in subject for _, subject, message, _ in found), result
    assert all(subject.startswith(f"{ADRS}/{name}") for _, subject, _, _ in found), found
    assert all(reproduce == "majordomus adr check" for *_, reproduce in found)
    listed = layer_repo.mj("adr", "list")
    assert listed.code == 0 and "invalid" in listed.out, listed  # list includes invalid records


def test_check_fails_duplicates_and_one_sided_supersession(layer_repo: Repo) -> None:
    layer_repo.write(f"{ADRS}/0001-a.md", adr(1))
    layer_repo.write(f"{ADRS}/0002-b.md", adr(2, extra="supersedes:\n  - adr-0001\n"))
    result = layer_repo.mj("adr", "check")
    assert result.code == 10 and "one-sided supersession" in result.out, result
    layer_repo.write(f"{ADRS}/0002-b.md", adr(2))
    layer_repo.write(f"{ADRS}/0001-a.md", adr(1, extra="superseded_by:\n  - adr-0002\n"))
    result = layer_repo.mj("adr", "check")
    assert result.code == 10 and "has no supersedes: [adr-0001]" in result.out, result
    layer_repo.write(f"{ADRS}/0001-a.md", adr(1, extra="superseded_by:\n  - adr-0002\n"))
    layer_repo.write(f"{ADRS}/0002-b.md", adr(2, extra="supersedes:\n  - adr-0001\n"))
    assert layer_repo.mj("adr", "check").code == 0
    layer_repo.write(f"{ADRS}/0002-c.md", adr(2))
    result = layer_repo.mj("adr", "check")
    assert result.code == 10 and "adr-0002 is also .ai/repo/adrs/0002-b.md" in result.out, result


def test_check_fails_an_id_this_tree_adds_that_another_ref_holds(layer_repo: Repo) -> None:
    layer_repo.git("checkout", "-q", "-b", "other")
    layer_repo.write(f"{ADRS}/0001-theirs.md", adr(1))
    layer_repo.commit("their record")
    layer_repo.git("checkout", "-q", "main")
    assert layer_repo.mj("adr", "check").code == 0
    layer_repo.write(f"{ADRS}/0001-mine.md", adr(1))
    result = layer_repo.mj("adr", "check")
    assert result.code == 10 and "refs/heads/other holds it as 0001-theirs.md" in result.out
    layer_repo.env["MJ_ADR_BASE"] = "other"  # measured against `other`, 0001 is not added here
    assert layer_repo.mj("adr", "check").code == 0


def test_a_ref_whose_tip_moved_is_read_anew_never_from_the_cache(layer_repo: Repo) -> None:
    """What each commit held is kept (.ai/local/cache/adr-trees.json); a ref moved to another
    commit is asked of git again, so the verdict follows the ref, run after run."""
    layer_repo.write(f"{ADRS}/0001-mine.md", adr(1))
    assert layer_repo.mj("adr", "check").code == 0
    layer_repo.git("checkout", "-q", "-b", "other")
    (layer_repo.root / ADRS / "0001-mine.md").unlink()
    layer_repo.write(f"{ADRS}/0001-theirs.md", adr(1))
    layer_repo.commit("their record")
    layer_repo.git("checkout", "-q", "main")
    layer_repo.write(f"{ADRS}/0001-mine.md", adr(1))
    for _ in range(2):  # the second run reads the listings from the cache
        result = layer_repo.mj("adr", "check")
        assert result.code == 10 and "refs/heads/other holds it as 0001-theirs.md" in result.out
    assert (layer_repo.root / ".ai/local/cache/adr-trees.json").is_file()
    (layer_repo.root / ADRS / "0001-mine.md").unlink()  # not committed here: it would follow
    layer_repo.git("checkout", "-q", "other")
    layer_repo.git("mv", f"{ADRS}/0001-theirs.md", f"{ADRS}/0001-mine.md")
    layer_repo.commit("the same record under our name")
    layer_repo.git("checkout", "-q", "main")
    layer_repo.write(f"{ADRS}/0001-mine.md", adr(1))
    assert layer_repo.mj("adr", "check").code == 0


def test_next_counts_siblings_refs_and_the_ledger_and_never_fills_a_hole(
    layer_repo: Repo, tmp_path: Path
) -> None:
    layer_repo.write(f"{ADRS}/0002-b.md", adr(2))
    assert layer_repo.mj("adr", "next").out.startswith("adr-0003")  # the hole 0001 stays one
    layer_repo.git("checkout", "-q", "-b", "far")
    layer_repo.write(f"{ADRS}/0005-far.md", adr(5))
    layer_repo.commit("a record on a branch")
    layer_repo.git("checkout", "-q", "main")
    (layer_repo.root / ADRS / "0005-far.md").unlink(missing_ok=True)
    assert layer_repo.mj("adr", "next").out.startswith("adr-0006")  # a ref's tip claims 5
    sibling = tmp_path / "sibling"
    layer_repo.git("worktree", "add", "-q", "-b", "side", str(sibling))
    (sibling / ADRS).mkdir(parents=True, exist_ok=True)
    (sibling / ADRS / "0009-side.md").write_text(adr(9))
    assert layer_repo.mj("adr", "next").out.startswith("adr-0010")  # a sibling's file on disk
    proposed = layer_repo.mj("adr", "propose", "Ten")
    assert proposed.out.startswith("proposed: adr-0010"), proposed
    (layer_repo.root / ADRS / "0010-ten.md").unlink()
    assert layer_repo.mj("adr", "next").out.startswith("adr-0011")  # the ledger remembers 10
    (sibling / ADRS / "0009-side.md").unlink()
    import shutil

    shutil.rmtree(sibling)
    gone = layer_repo.mj("adr", "next")
    assert gone.code == 0 and "WARN" in gone.out and "not on disk" in gone.out, gone


def test_eight_concurrent_proposals_get_eight_distinct_ids_and_no_hole(layer_repo: Repo) -> None:
    def one(index: int) -> tuple[int, str]:
        argv = [exe("majordomus"), "adr", "propose", f"Race {index}"]
        done = subprocess.run(argv, cwd=layer_repo.root, env=layer_repo.env, capture_output=True,
                              text=True, check=False, timeout=120)  # fmt: skip
        return done.returncode, done.stdout.split("  ", 1)[0]

    with ThreadPoolExecutor(max_workers=8) as pool:
        results = list(pool.map(one, range(8)))
    assert [code for code, _ in results] == [0] * 8, results
    ids = sorted(said.removeprefix("proposed: ") for _, said in results)
    assert ids == [f"adr-{n:04d}" for n in range(1, 9)], ids
    names = sorted(p.name[:4] for p in (layer_repo.root / ADRS).glob("*.md"))
    assert names == [f"{n:04d}" for n in range(1, 9)]
    assert _state(layer_repo)[1].count(b'"event":"adr.proposed"') == 8
    assert layer_repo.mj("history", "--validate").code == 0
    assert layer_repo.mj("adr", "check").code == 0


def test_affected_warns_for_a_record_whose_related_file_changed(layer_repo: Repo) -> None:
    layer_repo.write("src/a.py", "a\n")
    layer_repo.write(f"{ADRS}/0001-a.md", adr(1, extra="related:\n  - file:src/a.py\n"))
    layer_repo.commit("a record about src/a.py")
    quiet = layer_repo.mj("adr", "affected")
    assert quiet.code == 0 and "no record owes a review" in quiet.out, quiet
    layer_repo.write("src/a.py", "b\n")
    result = layer_repo.mj("adr", "affected")
    assert result.code == 0 and "WARN" in result.out and "src/a.py" in result.out, result
    assert "git diff --name-only HEAD -- src/a.py" in result.out
    layer_repo.git("add", "src/a.py")
    assert "WARN" in layer_repo.mj("adr", "affected", "--staged").out
    assert "WARN" not in layer_repo.mj("adr", "affected", "--worktree").out
    layer_repo.write(f"{ADRS}/0001-a.md", adr(1, extra="related:\n  - file:src/a.py\n") + "More.\n")
    assert "WARN" not in layer_repo.mj("adr", "affected").out
