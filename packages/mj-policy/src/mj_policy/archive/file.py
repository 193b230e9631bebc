"""The archive file of `majordomus archive`: its members, `_ARCHIVE/MANIFEST.txt` and
`_ARCHIVE/restore.sh`, written as zip or tar.gz in memory and read back for the check.

Members keep the index's modes (zip: in the external attributes; tar: the mode, a symbolic
link as a link) and the time given; the restore script puts executable bits back and builds a
git index of the same files. `verify` compares what was written with the plan: each member's
bytes hashed as git hashes a blob, and its mode.
"""

from __future__ import annotations

import shlex

from mj_core.errors import InternalError

TYPE_CHECKING = False  # `typing` is not imported at run time on a start-up path
if TYPE_CHECKING:
    from pathlib import Path
    from typing import Any

    Record = dict[str, Any]

META = "_ARCHIVE"
LINK = "120000"


def git_blob_id(data: bytes) -> str:
    """The id git gives a blob with these bytes (SHA-1 of `blob <size>\\0` and the bytes)."""
    import hashlib

    return hashlib.sha1(b"blob %d\0" % len(data) + data, usedforsecurity=False).hexdigest()


def manifest(members: list[list[str]]) -> bytes:
    lines = ["# mode blob path — the index entries this archive holds", *(
        f"{mode} {blob} {_quoted(path)}" for mode, blob, path in members)]  # fmt: skip
    return ("\n".join(lines) + "\n").encode("utf-8", "surrogateescape")


def _quoted(path: str) -> str:
    """The path as written, or as a JSON string when it holds a control character or quote."""
    import json

    if any(ord(c) < 0x20 or c in '"\\' for c in path) or path != path.strip():
        return json.dumps(path)
    return path


def restore_script(members: list[list[str]]) -> bytes:
    paths = [shlex.quote(p) for _, _, p in members]
    execs = [shlex.quote(p) for mode, _, p in members if mode == "100755"]
    lines = [
        "#!/bin/sh",
        "# Written by `majordomus archive`: run from the directory the archive was unpacked in.",
        "# Puts back the executable bits, then builds a git index of exactly these files.",
        "set -eu",
        'cd "$(dirname "$0")/.."',
        *(f"chmod 755 -- {p}" for p in execs),
        "[ -d .git ] || git init -q",
        *(f"git add -f -- {p}" for p in paths),
        "git ls-files -s",
    ]
    return ("\n".join(lines) + "\n").encode("utf-8", "surrogateescape")


def build(plan_record: Record, content: dict[str, bytes], moment: int) -> bytes:
    import io

    members: list[list[str]] = plan_record["members"]
    extra = [("100644", f"{META}/MANIFEST.txt", manifest(members)),
             ("100755", f"{META}/restore.sh", restore_script(members))]  # fmt: skip
    files = [(mode, path, content[blob]) for mode, blob, path in members] + extra
    buffer = io.BytesIO()
    if plan_record["format"] == "zip":
        _zip(buffer, files, moment)
    else:
        _tar(buffer, files, moment)
    return buffer.getvalue()


def _zip(buffer: Any, files: list[tuple[str, str, bytes]], moment: int) -> None:
    import time
    import zipfile

    stamp = time.gmtime(max(moment, 315532800))[:6]  # zip's clock starts in 1980
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as archive:
        for mode, path, data in files:
            info = zipfile.ZipInfo(path, date_time=stamp)
            info.external_attr = int(mode, 8) << 16
            info.compress_type = zipfile.ZIP_DEFLATED
            archive.writestr(info, data)


def _tar(buffer: Any, files: list[tuple[str, str, bytes]], moment: int) -> None:
    import io
    import tarfile

    with tarfile.open(fileobj=buffer, mode="w:gz", format=tarfile.PAX_FORMAT) as archive:
        for mode, path, data in files:
            info = tarfile.TarInfo(path)
            info.mtime = moment
            if mode == LINK:
                info.type, info.linkname, info.mode = tarfile.SYMTYPE, data.decode(), 0o777
                archive.addfile(info)
                continue
            info.size, info.mode = len(data), int(mode, 8) & 0o777
            archive.addfile(info, io.BytesIO(data))


def read_back(path: Path, fmt: str) -> dict[str, tuple[int, bytes]]:
    """Member path → (mode bits, bytes), read from the file as written."""
    if fmt == "zip":
        import zipfile

        with zipfile.ZipFile(path) as archive:
            return {
                i.filename: (i.external_attr >> 16, archive.read(i)) for i in archive.infolist()
            }
    import tarfile

    found: dict[str, tuple[int, bytes]] = {}
    with tarfile.open(path, "r:gz") as archive:
        for info in archive.getmembers():
            if info.issym():
                found[info.name] = (0o120000 | 0o777, info.linkname.encode())
                continue
            handle = archive.extractfile(info)
            found[info.name] = (0o100000 | info.mode, handle.read() if handle else b"")
    return found


def verify(path: Path, record: Record) -> None:
    """The archive at `path` holds exactly the plan's members with their bytes and modes, and
    the two `_ARCHIVE/` files; InternalError (13) naming the first that does not."""
    got = read_back(path, record["format"])
    wanted = {p: (mode, blob) for mode, blob, p in record["members"]}
    for extra in ("MANIFEST.txt", "restore.sh"):
        wanted.pop(f"{META}/{extra}", None)
        if f"{META}/{extra}" not in got:
            raise InternalError(f"{path}: read back without {META}/{extra}")
        got.pop(f"{META}/{extra}")
    if set(got) != set(wanted):
        raise InternalError(f"{path}: read back with other members than the plan's")
    for name, (mode, blob) in wanted.items():
        bits, data = got[name]
        same_mode = bits == int(mode, 8) or (record["format"] == "tar.gz" and mode == LINK)
        if git_blob_id(data) != blob or not same_mode:
            raise InternalError(f"{path}: {name} read back unlike the index ({mode} {blob})")
