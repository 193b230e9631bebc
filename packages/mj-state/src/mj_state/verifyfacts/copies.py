"""Commits laid out one after another in one throw-away directory, for `verify`'s re-runs.

One `git cat-file --batch` serves every tree and blob of the run (`Objects`), and the directory
is kept from one commit to the next: before a commit is laid out, every entry that is not
exactly as this writer left it for that commit — another commit's file, a file the last run's
commands wrote, changed (its inode, size, mode or change time moved: `ctime` cannot be set back
by a program) or removed — is removed or written again, so what the commands see is the
commit's tree and nothing else, as a fresh copy would be, at the cost of what differs. The
directory holds files only (no `.git`); the repository is only read. A tree entry whose name
could leave the directory (`..`, `.git`, a `/`) is refused, as git refuses it.
"""

from __future__ import annotations

import os
import shutil
import subprocess

from mj_core.errors import MissingArtifact
from mj_core.git import questions as git

TYPE_CHECKING = False
if TYPE_CHECKING:
    from pathlib import Path

Entry = tuple[str, str]  # (mode, object id)
Written = dict[str, tuple[str, str, tuple[int, ...]]]  # path → mode, object id, its stat
BAD = {"", ".", "..", ".git"}


class Objects:
    """`git cat-file --batch`, asked one object at a time."""

    def __init__(self, root: Path) -> None:
        argv = ["git", *git.SAFE, "-C", str(root), "cat-file", "--batch"]
        self.proc = subprocess.Popen(argv, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                     stderr=subprocess.DEVNULL, env=git.clean_env())  # fmt: skip

    def get(self, spec: str) -> tuple[str, bytes]:
        assert self.proc.stdin is not None and self.proc.stdout is not None
        self.proc.stdin.write(spec.encode() + b"\n")
        self.proc.stdin.flush()
        header = self.proc.stdout.readline().split()
        if len(header) != 3:
            raise MissingArtifact(f"verify: git cannot read {spec}")
        data = self.proc.stdout.read(int(header[2]))
        self.proc.stdout.read(1)
        return header[1].decode(), data

    def listing(self, commit: str) -> dict[str, Entry]:
        """Every path of `commit`'s tree: (mode, object id); a submodule's mode is 160000."""
        width = len(commit) // 2
        found: dict[str, Entry] = {}
        pending = [("", f"{commit}^{{tree}}")]
        while pending:
            prefix, spec = pending.pop()
            kind, data = self.get(spec)
            if kind != "tree":
                raise MissingArtifact(f"verify: {spec} is no tree")
            at = 0
            while at < len(data):
                space, nul = data.index(b" ", at), data.index(b"\0", at)
                mode, name = data[at:space].decode(), os.fsdecode(data[space + 1 : nul])
                oid = data[nul + 1 : nul + 1 + width].hex()
                at = nul + 1 + width
                if name in BAD or "/" in name or name.lower() == ".git":
                    raise MissingArtifact(f"verify: {commit} holds the path {prefix}{name!r}")
                if mode == "40000":
                    pending.append((f"{prefix}{name}/", oid))
                else:
                    found[prefix + name] = (mode.rjust(6, "0"), oid)
        return found

    def close(self) -> None:
        if self.proc.stdin is not None:
            self.proc.stdin.close()
        self.proc.wait()


class Copies:
    """One directory that becomes each commit asked for in turn (`lay_out`)."""

    def __init__(self, root: Path, scratch: Path) -> None:
        self.objects = Objects(root)
        self.scratch = scratch
        self.turn = 0
        self.dest = self._fresh()
        self.written: Written = {}

    def _fresh(self) -> Path:
        self.turn += 1
        dest = self.scratch / f"copy-{self.turn}"
        dest.mkdir()
        return dest

    def lay_out(self, commit: str) -> Path:
        wanted = self.objects.listing(commit)
        dirs = {p[: i] for p in wanted for i in range(len(p)) if p[i] == "/"}  # fmt: skip
        kept: Written = {}
        try:
            self._sweep(self.dest, "", wanted, dirs, kept)
        except OSError:  # what the last commands left cannot be undone here: start afresh
            self.dest, kept = self._fresh(), {}
        self.written = kept  # only what is still there as it was written
        for path, entry in wanted.items():
            if path not in self.written:
                self._write(path, entry)
        return self.dest

    def _sweep(
        self, top: Path | str, rel: str, wanted: dict[str, Entry], dirs: set[str], kept: Written
    ) -> None:
        with os.scandir(top) as entries:
            listed = list(entries)
        for entry in listed:
            path = rel + entry.name
            if entry.is_dir(follow_symlinks=False):
                if path in dirs:
                    self._sweep(entry.path, path + "/", wanted, dirs, kept)
                else:
                    shutil.rmtree(entry.path)
                continue
            was = self.written.get(path)
            if was is not None and wanted.get(path) == was[:2] and was[2] == _key(entry.path):
                kept[path] = was
            else:
                os.unlink(entry.path)

    def _write(self, path: str, entry: Entry) -> None:
        mode, oid = entry
        where = os.path.join(self.dest, path)
        os.makedirs(os.path.dirname(where), exist_ok=True)
        if mode == "160000":  # a submodule: an empty directory, as git checks it out
            os.makedirs(where, exist_ok=True)
            return
        _, data = self.objects.get(oid)
        if mode == "120000":
            os.symlink(os.fsdecode(data), where)
        else:
            fd = os.open(where, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW, 0o600)
            with os.fdopen(fd, "wb") as handle:
                handle.write(data)
            os.chmod(where, 0o755 if mode == "100755" else 0o644)
        self.written[path] = (mode, oid, _key(where))

    def close(self) -> None:
        self.objects.close()


def _key(path: str) -> tuple[int, ...]:
    st = os.lstat(path)
    return (st.st_ino, st.st_size, st.st_mode, st.st_mtime_ns, st.st_ctime_ns)
