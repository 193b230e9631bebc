"""`mj-policy archive-plan` and `archive-write`: a zip or tar.gz of git's index, by profile.

The plan reads the profiles (`share/archive.yaml`, then `.ai/repo/archive.yaml`, which adds a
profile or replaces one by name; both schema-checked, unknown keys 10), asks git's index for the
profile's paths (`git ls-files -s`: mode, blob, path — never the working tree, never an
untracked file), drops `.ai/local/` always, submodules (their content is another repository),
and under `derived: drop` each file whose `merge` attribute is `derived` in the index's
`.gitattributes`. An unknown profile is 12, one that selects nothing 10, an output that exists
15 without `--force`, an output inside the working tree elsewhere than `.ai/local/` 15.

The write takes that plan on stdin and plans again for the plan's own profile, format, output
and `--force` (a plan that is not that one writes nothing, 15), then each blob's bytes from git
(`cat-file --batch`), then `_ARCHIVE/MANIFEST.txt` (mode, blob id and path of every member, as
the index had them) and `_ARCHIVE/restore.sh` (puts the modes back and builds a git index of
the files). The archive is built in memory, published atomically, then read back: every
member's bytes hashed as git hashes a blob and compared with the plan, the modes compared too.
A read-back that disagrees removes the archive and is 13.
"""

from __future__ import annotations

import os

from mj_core import clock
from mj_core import share
from mj_core.errors import ContractUnmet
from mj_core.errors import InternalError
from mj_core.errors import MissingArtifact
from mj_core.errors import Refused
from mj_core.errors import UsageError
from mj_core.git import questions as git
from mj_core.git import stdin as gitstdin
from mj_core.stream.stage import Stage
from mj_core.yaml import strict as yamlstrict

from mj_policy.archive import file as archivefile

TYPE_CHECKING = False  # `typing` is not imported at run time on a start-up path
if TYPE_CHECKING:
    import argparse
    from collections.abc import Iterator
    from pathlib import Path
    from typing import Any

    from mj_core.stream.stage import Context

    Record = dict[str, Any]

OVERRIDE = ".ai/repo/archive.yaml"
DEFAULT_DIR = ".ai/local/archives"
SUFFIX = {"zip": ".zip", "tar.gz": ".tar.gz"}
SUBMODULE = "160000"


def profiles(root: Path) -> dict[str, Record]:
    """Profile name → profile with its `source` file: the shipped ones, then the override."""
    found: dict[str, Record] = {}
    shipped = share.path("archive.yaml")
    for path, shown in ((shipped, "share/archive.yaml"), (root / OVERRIDE, OVERRIDE)):
        if path.is_file():
            for profile in _read(path, shown):
                found[profile["name"]] = {**profile, "source": shown}
    return found


def _read(path: Path, shown: str) -> list[Record]:
    from mj_core.schema import full as schema

    doc = yamlstrict.load_file(path, shown)
    for where, message in schema.violations(doc, "archive")[:1]:
        raise ContractUnmet(f"{where}: {message} — see docs/FORMATS.md (archive)")
    seen: set[str] = set()
    for index, profile in enumerate(doc.data["profiles"]):
        if profile["name"] in seen:
            where = doc.where(("profiles", index, "name"))
            raise ContractUnmet(f"{where}: profile {profile['name']!r} is declared twice")
        seen.add(profile["name"])
    return list(doc.data["profiles"])


def _index(root: Path, paths: list[str]) -> list[tuple[str, str, str]]:
    """(mode, blob, path) of each index entry under `paths` (all of them when empty)."""
    code, out, err = git.run("ls-files", "-s", "-z", "--", *paths, cwd=root)
    if code != 0:
        raise UsageError(f"git ls-files: {err.strip() or 'failed'}")
    entries: list[tuple[str, str, str]] = []
    for item in git.zsplit(out):
        info, _, path = item.partition("\t")
        mode, blob, stage = info.split(" ")
        if stage != "0":
            raise ContractUnmet(f"{path}: unmerged in the index — resolve it, then archive")
        entries.append((mode, blob, path))
    return entries


def _derived(root: Path, paths: list[str]) -> set[str]:
    """The paths whose `merge` attribute is `derived`, read from the index's .gitattributes."""
    if not paths:
        return set()
    data = b"".join(p.encode("utf-8", "surrogateescape") + b"\0" for p in paths)
    code, out, err = gitstdin.run("check-attr", "--cached", "-z", "--stdin", "merge", data=data,
                                   cwd=root)  # fmt: skip
    if code != 0:
        raise UsageError(f"git check-attr: {err.strip() or 'failed'}")
    words = out.decode("utf-8", "surrogateescape").split("\0")
    return {words[i] for i in range(0, len(words) - 2, 3) if words[i + 2] == "derived"}


def _fmt(options: argparse.Namespace) -> str:
    """The format from `--format`, else from `--out`'s name, else zip; the two must agree."""
    out = getattr(options, "out", None)
    named = None
    if out:
        named = next((f for f, s in SUFFIX.items() if out.endswith(s)), None)
        named = named or ("tar.gz" if out.endswith(".tgz") else None)
    given = getattr(options, "format", None)
    if given and named and given != named:
        raise UsageError(f"--format {given} and --out {out} disagree")
    return str(given or named or "zip")


def _output(root: Path, options: argparse.Namespace, name: str, fmt: str, cwd: Path) -> Path:
    """Where the archive goes: `--out`, or a dated name under `.ai/local/archives/`."""
    out = getattr(options, "out", None)
    if not out:
        head = (git.head(root) or "0" * 7)[:7]
        stamp = clock.compact(clock.now())
        return root / DEFAULT_DIR / f"{name}-{stamp}-{head}{SUFFIX[fmt]}"
    path: Path = (cwd / str(out)).absolute()
    real, top = os.path.realpath(path), os.path.realpath(root)
    inside = real == top or real.startswith(top + os.sep)
    local = os.path.realpath(root / ".ai" / "local")
    if inside and not real.startswith(local + os.sep):
        raise Refused(f"--out {out}: inside the working tree; write it under .ai/local/ or outside")
    return path


def plan(root: Path, options: argparse.Namespace, cwd: Path) -> Iterator[Record]:
    known = profiles(root)
    if getattr(options, "list", False):
        for item in known.values():
            yield {"kind": "archive", "action": "profile", "name": item["name"],
                   "description": item["description"], "source": item["source"]}  # fmt: skip
        return
    name = getattr(options, "profile", None) or "context"
    profile = known.get(name)
    if profile is None:
        raise MissingArtifact(f"archive profile {name!r}: not declared (known: {', '.join(known)})")
    fmt = _fmt(options)
    path = _output(root, options, name, fmt, cwd)
    if path.exists() and not getattr(options, "force", False):
        raise Refused(f"{_shown(root, path)}: already exists; --force replaces it")
    entries = _index(root, list(profile["paths"]))
    local = [e for e in entries if e[2].startswith(".ai/local/")]
    module = [e for e in entries if e[0] == SUBMODULE]
    kept = [e for e in entries if e not in local and e not in module]
    derived = _derived(root, [e[2] for e in kept]) if profile["derived"] == "drop" else set()
    members = [list(e) for e in kept if e[2] not in derived]
    if not members:
        raise ContractUnmet(f"archive profile {name!r} selects nothing from git's index")
    dropped = {"derived": len(derived), "local": len(local), "submodule": len(module)}
    yield {"kind": "archive", "action": "plan", "profile": name, "format": fmt,
           "out": str(path), "shown": _shown(root, path), "members": members,
           "dropped": dropped, "force": bool(getattr(options, "force", False)),
           "dry_run": bool(getattr(options, "dry_run", False))}  # fmt: skip


def _shown(root: Path, path: Path) -> str:
    try:
        return path.relative_to(root).as_posix()
    except ValueError:
        return str(path)


def blobs(root: Path, ids: list[str]) -> dict[str, bytes]:
    """Each blob's bytes, from one `git cat-file --batch`."""
    wanted = list(dict.fromkeys(ids))
    code, out, err = gitstdin.run("cat-file", "--batch", data="".join(f"{i}\n" for i in wanted)
                                   .encode(), cwd=root)  # fmt: skip
    if code != 0:
        raise InternalError(f"git cat-file --batch: {err.strip() or 'failed'}")
    found: dict[str, bytes] = {}
    at = 0
    for blob in wanted:
        end = out.index(b"\n", at)
        header = out[at:end].split(b" ")
        if len(header) != 3 or header[0].decode() != blob:
            raise InternalError(f"git cat-file --batch: no blob {blob} in the answer")
        size = int(header[2])
        found[blob] = out[end + 1 : end + 1 + size]
        at = end + 1 + size + 1
    return found


def write(root: Path, record: Record) -> Record:
    from mj_core.write import atomic

    path = _confirmed(root, record)
    members = record["members"]
    moment = clock.now()
    data = archivefile.build(record, blobs(root, [b for _, b, _ in members]), moment)
    replace = bool(record.get("force"))
    if _inside(root, path):
        atomic.make_dirs(path.parent, root=root)
        atomic.create(path, data, mode=0o600, replace=replace, root=root)
    else:
        _publish_outside(path, data, replace=replace)
    try:
        archivefile.verify(path, record)
    except BaseException:
        path.unlink(missing_ok=True)
        raise
    import hashlib

    digest = hashlib.sha256(data).hexdigest()
    return {"kind": "archive", "action": "written", "path": record["shown"],
            "members": len(members), "bytes": len(data), "sha256": digest}  # fmt: skip


def _confirmed(root: Path, record: Record) -> Path:
    """The plan's output, once the plan is what planning again here gives for its own profile,
    format, output and `--force`: a plan edited on its way (another path, inside the working
    tree, more members, a `--force` it was not given) writes nothing (15)."""
    import argparse
    from pathlib import Path

    if record.get("format") not in SUFFIX:
        raise UsageError(f"archive plan: unknown format {record.get('format')!r}")
    given = argparse.Namespace(profile=record.get("profile"), format=record["format"],
                               out=str(record.get("out")), force=bool(record.get("force")),
                               dry_run=False, list=False)  # fmt: skip
    again = next(plan(root, given, root), None)
    if again != {**record, "dry_run": False}:
        raise Refused(f"{record.get('shown')}: the plan is not what the index gives now; nothing "
                      "was written")  # fmt: skip
    return Path(record["out"])


def _inside(root: Path, path: Path) -> bool:
    top = os.path.realpath(root)
    return os.path.realpath(path).startswith(top + os.sep)


def _publish_outside(path: Path, data: bytes, *, replace: bool) -> None:
    """Outside the repository (`--out` named it): a complete temporary file in the same
    directory, then a link (never replacing) or, with --force, a rename."""
    import tempfile

    if not path.parent.is_dir():
        raise MissingArtifact(f"--out {path}: no directory {path.parent}")
    handle, temp = tempfile.mkstemp(dir=path.parent, prefix=".mj-archive-")
    try:
        with os.fdopen(handle, "wb") as out:
            out.write(data)
            out.flush()
            os.fsync(out.fileno())
        if replace:
            os.replace(temp, path)
        else:
            try:
                os.link(temp, path)
            except FileExistsError:
                raise Refused(f"{path}: already exists; nothing was overwritten") from None
    except OSError as exc:
        raise Refused(f"{path}: {exc.strerror or exc}") from None
    finally:
        if os.path.lexists(temp):
            os.unlink(temp)


def _run_plan(options: argparse.Namespace, context: Context) -> Iterator[Record]:
    yield from plan(context.root(), options, context.cwd)


def _run_write(options: argparse.Namespace, context: Context) -> Iterator[Record]:
    """Pass the plan stage's records on; write the archive its plan names (not under
    `--dry-run`; a `--list` stream has no plan and passes through)."""
    arrived = list(context.records(options.input))
    planned = [r for r in arrived if r.get("kind") == "archive" and r.get("action") == "plan"]
    if not planned and not any(r.get("kind") == "archive" for r in arrived):
        raise MissingArtifact(
            "archive-write: the stream carries no plan — `mj-policy archive-plan`"
        )
    yield from arrived
    if len(planned) == 1 and not planned[0]["dry_run"]:
        yield write(context.root(), planned[0])


STAGES = {"archive-plan": Stage(_run_plan), "archive-write": Stage(_run_write)}
