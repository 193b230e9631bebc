"""`mj-policy archive-write`: a zip or tar.gz of git's index, by profile, as the plan of
`mj-policy archive-facts | archive-judge` names it.

The write takes that plan on stdin and gathers and judges again for the plan's own profile,
format, output and `--force` (a plan that is not that one writes nothing, 15), then each blob's
bytes from git (`cat-file --batch`), then `_ARCHIVE/MANIFEST.txt` (mode, blob id and path of
every member, as the index had them) and `_ARCHIVE/restore.sh` (puts the modes back and builds a
git index of the files). The archive is built in memory, published atomically, then read back: every
member's bytes hashed as git hashes a blob and compared with the plan, the modes compared too.
A read-back that disagrees removes the archive and is 13.
"""

from __future__ import annotations

import os

from mj_core import clock
from mj_core.errors import InternalError
from mj_core.errors import MissingArtifact
from mj_core.errors import Refused
from mj_core.errors import UsageError
from mj_core.git import stdin as gitstdin
from mj_core.stream.stage import Stage

from mj_policy.archive import facts
from mj_policy.archive import file as archivefile
from mj_policy.archive import judge

TYPE_CHECKING = False  # `typing` is not imported at run time on a start-up path
if TYPE_CHECKING:
    import argparse
    from collections.abc import Iterator
    from pathlib import Path
    from typing import Any

    from mj_core.stream.stage import Context

    Record = dict[str, Any]


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

    if record.get("format") not in facts.SUFFIX:
        raise UsageError(f"archive plan: unknown format {record.get('format')!r}")
    given = argparse.Namespace(profile=record.get("profile"), format=record["format"],
                               out=str(record.get("out")), force=bool(record.get("force")),
                               dry_run=False, list=False)  # fmt: skip
    again = judge.judge(facts.gather(root, given, root))
    if again != [{**record, "dry_run": False}]:
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


def _run_write(options: argparse.Namespace, context: Context) -> Iterator[Record]:
    """Pass the plan stage's records on; write the archive its plan names (not under
    `--dry-run`; a `--list` stream has no plan and passes through)."""
    arrived = list(context.records(options.input))
    planned = [r for r in arrived if r.get("kind") == "archive" and r.get("action") == "plan"]
    if not planned and not any(r.get("kind") == "archive" for r in arrived):
        raise MissingArtifact(
            "archive-write: the stream carries no plan — `mj-policy archive-facts | archive-judge`"
        )
    yield from arrived
    if len(planned) == 1 and not planned[0]["dry_run"]:
        yield write(context.root(), planned[0])


STAGES = {"archive-write": Stage(_run_write)}
