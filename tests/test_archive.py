"""`majordomus archive` (CLI-REFERENCE §2.29): git's index by profile, with a manifest and a
restore script, read back before it returns; every refusal and exit code."""

from __future__ import annotations

import io
import subprocess
import tarfile
import zipfile
from pathlib import Path

from conftest import Repo

OVERRIDE = """version: 1
profiles:
  - name: lib-only
    description: "just lib"
    paths:
      - lib
    derived: keep
"""


def _prepared(repo: Repo) -> None:
    repo.write("lib/a.py", "a = 1\n")
    tool = repo.write("bin/tool", "#!/bin/sh\necho tool\n")
    tool.chmod(0o755)
    repo.write("gen/out.txt", "generated\n")
    repo.write(".gitattributes", "gen/** merge=derived\n")
    repo.commit("files")
    repo.write("lib/a.py", "a = 2  # staged\n")
    repo.git("add", "lib/a.py")
    repo.write("lib/a.py", "a = 3  # only in the working tree\n")
    repo.write("untracked.txt", "not in git\n")
    repo.write(".ai/local/state/extra.md", "local state\n")


def _written(out: str) -> Path:
    line = next(line for line in out.splitlines() if line.startswith("wrote "))
    return Path(line.split()[1].rstrip(":"))


def _members(path: Path) -> dict[str, bytes]:
    if path.name.endswith(".zip"):
        with zipfile.ZipFile(path) as archive:
            return {name: archive.read(name) for name in archive.namelist()}
    with tarfile.open(path, "r:gz") as archive:
        return {
            info.name: (archive.extractfile(info) or io.BytesIO()).read()
            for info in archive.getmembers()
            if info.isfile()
        }


def test_the_context_profile_is_the_index_without_derived_untracked_or_local(
    layer_repo: Repo,
) -> None:
    _prepared(layer_repo)
    result = layer_repo.mj("archive")
    assert result.code == 0, result
    path = layer_repo.root / _written(result.out)
    assert (
        path.parent == layer_repo.root / ".ai/local/archives"
        and path.stat().st_mode & 0o777 == 0o600
    )
    members = _members(path)
    assert members["lib/a.py"] == b"a = 2  # staged\n"  # the index, not the working tree
    assert "gen/out.txt" not in members and "untracked.txt" not in members
    assert not any(name.startswith(".ai/local/") for name in members)
    assert {"_ARCHIVE/MANIFEST.txt", "_ARCHIVE/restore.sh", "bin/tool"} <= set(members)
    assert "dropped: 1 derived" in result.out
    audit = layer_repo.mj("archive", "audit", "--format", "tar.gz")
    assert audit.code == 0 and "gen/out.txt" in _members(layer_repo.root / _written(audit.out))


def test_the_restore_script_rebuilds_the_modes_and_the_index(layer_repo: Repo, tmp_path) -> None:
    _prepared(layer_repo)
    out = tmp_path / "repo.tar.gz"
    result = layer_repo.mj("archive", "audit", "--out", str(out))
    assert result.code == 0 and out.is_file(), result
    unpacked = tmp_path / "unpacked"
    with tarfile.open(out, "r:gz") as archive:
        archive.extractall(unpacked, filter="tar")
    assert (unpacked / "bin/tool").stat().st_mode & 0o111
    (unpacked / "bin/tool").chmod(0o644)  # as an unpacker that drops modes would leave it
    done = subprocess.run(["sh", str(unpacked / "_ARCHIVE/restore.sh")], env=layer_repo.env,
                          capture_output=True, text=True, check=False)  # fmt: skip
    assert done.returncode == 0, done.stderr
    manifest = (unpacked / "_ARCHIVE/MANIFEST.txt").read_text(encoding="utf-8").splitlines()[1:]
    listed = sorted(f"{m} {b} {p}" for m, b, p in (line.split(" ", 2) for line in manifest))
    index = layer_repo.git("ls-files", "-s")  # the original's index, for the same files
    wanted = sorted(
        f"{mode} {blob} {path}"
        for mode, blob, _, path in (
            line.replace("\t", " ").split(" ", 3) for line in index.splitlines()
        )
    )
    assert listed == wanted
    restored = subprocess.run(["git", "ls-files", "-s"], cwd=unpacked, env=layer_repo.env,
                              capture_output=True, text=True, check=True).stdout  # fmt: skip
    got = sorted(line.replace("\t", " ").replace(" 0 ", " ", 1) for line in restored.splitlines())
    assert [
        g for g in got if not g.endswith(("_ARCHIVE/MANIFEST.txt", "_ARCHIVE/restore.sh"))
    ] == wanted


def test_profiles_are_listed_and_declared_ones_are_checked(layer_repo: Repo) -> None:
    _prepared(layer_repo)
    layer_repo.write(".ai/repo/archive.yaml", OVERRIDE)
    listed = layer_repo.mj("archive", "--list")
    assert listed.code == 0 and "lib-only     just lib (.ai/repo/archive.yaml)" in listed.out
    assert listed.out.count("(share/archive.yaml)") == 3
    dry = layer_repo.mj("archive", "lib-only", "--dry-run")
    assert dry.code == 0 and "  100644 lib/a.py" in dry.out and "wrote" not in dry.out, dry
    assert not (layer_repo.root / ".ai/local/archives").exists()
    layer_repo.write(".ai/repo/archive.yaml", OVERRIDE + "    colour: red\n")
    unknown_key = layer_repo.mj("archive", "--list")
    assert unknown_key.code == 10 and ".ai/repo/archive.yaml:" in unknown_key.err, unknown_key
    assert "colour" in unknown_key.err and unknown_key.err.count("\n") == 1
    layer_repo.write(".ai/repo/archive.yaml", OVERRIDE.replace("- lib", "- nothing-here"))
    empty = layer_repo.mj("archive", "lib-only")
    assert empty.code == 10 and "selects nothing" in empty.err, empty


def test_every_refusal_has_its_code_and_writes_nothing(layer_repo: Repo, tmp_path) -> None:
    _prepared(layer_repo)
    assert layer_repo.mj("archive", "nope").code == 12
    inside = layer_repo.mj("archive", "--out", "lib/a.zip")
    assert inside.code == 15 and not (layer_repo.root / "lib/a.zip").exists(), inside
    disagree = layer_repo.mj("archive", "--out", str(tmp_path / "a.zip"), "--format", "tar.gz")
    assert disagree.code == 2 and not (tmp_path / "a.zip").exists(), disagree
    target = tmp_path / "a.zip"
    target.write_bytes(b"someone's file")
    taken = layer_repo.mj("archive", "--out", str(target))
    assert taken.code == 15 and target.read_bytes() == b"someone's file", taken
    forced = layer_repo.mj("archive", "--out", str(target), "--force")
    assert forced.code == 0 and zipfile.is_zipfile(target), forced
    assert not list(tmp_path.glob(".mj-archive-*"))  # no temporary file left behind
    missing = layer_repo.mj("archive", "--out", str(tmp_path / "no/such/dir/a.zip"))
    assert missing.code == 12 and missing.err.count("\n") == 1, missing


def test_a_plan_edited_on_its_way_to_the_writer_writes_nothing(layer_repo: Repo) -> None:
    """The writer plans again for the plan's own profile, format, output and --force: a plan
    aimed at a tracked file, one with a member the index does not give, or one for a file made
    since planning, writes nothing (15)."""
    import json

    _prepared(layer_repo)
    facts = layer_repo.run("mj-policy", "archive-facts", "context")
    assert facts.code == 0, facts
    planned = layer_repo.run("mj-policy", "archive-judge", stdin=facts.out)
    assert planned.code == 0, planned
    records = [json.loads(line) for line in planned.out.splitlines()]
    (plan,) = [r for r in records if r.get("action") == "plan"]
    readme = layer_repo.root / "lib/a.py"
    before = readme.read_bytes()
    edits = [
        {"out": str(readme), "shown": "lib/a.py", "force": True},
        {"members": [*plan["members"], ["100644", "0" * 40, "secret.txt"]]},
    ]
    for changed in edits:
        fed = [{**r, **changed} if r is plan else r for r in records]
        text = "\n".join(json.dumps(r) for r in fed) + "\n"
        result = layer_repo.run("mj-policy", "archive-write", stdin=text)
        assert result.code == 15 and result.err.count("\n") == 1, (changed, result)
        assert readme.read_bytes() == before
        assert not Path(plan["out"]).exists()
    taken = Path(plan["out"])
    taken.parent.mkdir(parents=True, exist_ok=True)
    taken.write_bytes(b"made meanwhile\n")
    meanwhile = layer_repo.run("mj-policy", "archive-write", stdin=planned.out)
    assert meanwhile.code == 15 and taken.read_bytes() == b"made meanwhile\n", meanwhile
    taken.unlink()
    honest = layer_repo.run("mj-policy", "archive-write", stdin=planned.out)
    assert honest.code == 0 and taken.is_file(), honest
