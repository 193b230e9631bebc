"""The vendored baseline against the package this majordomus ships.

`status` compares the two (revisions, the vendored copy's integrity against its own manifest,
same or different); `diff` is their unified diff; `update` swaps the shipped package in
atomically (`swap`: built beside the old one, then exchanged by two renames) and never touches
`rules/project/`; `vendor_update_judge` refuses (15) a vendored copy that no longer matches its
own manifest (edited by hand) without `--force`.
"""

from __future__ import annotations

import os
import stat

from mj_core import share
from mj_core.errors import InternalError
from mj_core.errors import MissingArtifact
from mj_core.errors import MjError
from mj_core.errors import Refused
from mj_core.yaml import strict as yamlstrict

from mj_policy.rules import package as rulepkg

TYPE_CHECKING = False  # `typing` is not imported at run time on a start-up path
if TYPE_CHECKING:
    from pathlib import Path

    from mj_core.write.confine import Place

    from mj_policy.layer.loader import Layer

VENDOR = "majordomus"


class Status:
    """The vendored package against the shipped one: revisions, integrity, differing files."""

    __slots__ = ("differing", "problems", "shipped_revision", "vendored_revision")

    def __init__(
        self,
        vendored_revision: str | None,
        shipped_revision: str,
        problems: list[str],
        differing: list[str],
    ) -> None:
        self.vendored_revision = vendored_revision
        self.shipped_revision = shipped_revision
        self.problems = problems  # the vendored copy against its own manifest
        self.differing = differing  # package-relative files that differ from the shipped package


def shipped() -> Path:
    path = share.path("standard", VENDOR)
    if not (path / rulepkg.MANIFEST).is_file():
        raise InternalError(f"broken install: {path} ships no rule package")
    return path


def vendored(layer: Layer) -> Path:
    path = layer.section("rules") / "vendor" / VENDOR
    if not (path / rulepkg.MANIFEST).is_file():
        raise MissingArtifact(
            f"{layer.relative(path)}/: nothing vendored — `majordomus rules vendor update` "
            "copies the shipped package"
        )
    return path


def files(package: Path) -> list[str]:
    """Package-relative paths of every file in a package (manifest and rules/)."""
    found = [rulepkg.MANIFEST] if (package / rulepkg.MANIFEST).is_file() else []
    rules = package / "rules"
    if rules.is_dir():
        found += sorted(f"rules/{p.name}" for p in rules.iterdir() if p.is_file())
    return found


def _revision(package: Path) -> str | None:
    try:
        doc = yamlstrict.load_file(package / rulepkg.MANIFEST, str(package / rulepkg.MANIFEST))
    except MjError:
        return None
    return str(doc.data.get("source_revision")) if isinstance(doc.data, dict) else None


def integrity(package: Path) -> list[str]:
    """How a package differs from its own manifest: `<file>: <what>` lines, empty when intact."""
    try:
        doc = yamlstrict.load_file(package / rulepkg.MANIFEST, rulepkg.MANIFEST)
        listed = {str(e["file"]): str(e["sha256"]) for e in doc.data["rules"]}
    except (MjError, KeyError, TypeError) as exc:
        return [f"{rulepkg.MANIFEST}: unreadable ({exc})"]
    problems = []
    for relative, digest in listed.items():
        path = package / relative
        if not path.is_file():
            problems.append(f"{relative}: listed but missing")
        elif rulepkg.sha256(path) != digest:
            problems.append(f"{relative}: sha256 differs from the manifest")
    problems += [f"{f}: not in the manifest" for f in files(package)[1:] if f not in listed]
    return problems


def status(layer: Layer) -> Status:
    ours, theirs = vendored(layer), shipped()
    names = sorted(set(files(ours)) | set(files(theirs)))
    differing = [n for n in names if _bytes(ours / n) != _bytes(theirs / n)]
    return Status(_revision(ours), str(_revision(theirs)), integrity(ours), differing)


def _bytes(path: Path) -> bytes | None:
    return path.read_bytes() if path.is_file() else None


def diff(layer: Layer) -> str:
    import difflib

    ours, theirs = vendored(layer), shipped()
    shown = layer.relative(ours)
    out: list[str] = []
    for name in status(layer).differing:
        old = (ours / name).read_text(encoding="utf-8") if (ours / name).is_file() else ""
        new = (theirs / name).read_text(encoding="utf-8") if (theirs / name).is_file() else ""
        out += difflib.unified_diff(
            old.splitlines(keepends=True),
            new.splitlines(keepends=True),
            fromfile=f"{shown}/{name}",
            tofile=f"share/standard/{VENDOR}/{name}",
        )
    return "".join(line if line.endswith("\n") else line + "\n" for line in out)


def swap(target: Path, source: Path) -> None:
    """Build the new copy beside the old one, then exchange them by renames within the vendor
    directory, reached as every write is (`mj_core.write.confine`: no link followed on the way)."""
    from mj_core import ids
    from mj_core.write import atomic
    from mj_core.write import confine

    suffix = ids.random_hex(8)
    fresh = f".{VENDOR}.new-{suffix}"
    for name in files(source):
        atomic.create(target.parent / fresh / name, (source / name).read_bytes())
    vendor = confine.opened(target, None)
    try:
        with confine.Faults(vendor.shown):
            if not _present(vendor):
                os.rename(fresh, VENDOR, src_dir_fd=vendor.fd, dst_dir_fd=vendor.fd)
                return
            old = f".{VENDOR}.old-{suffix}"
            os.rename(VENDOR, old, src_dir_fd=vendor.fd, dst_dir_fd=vendor.fd)
            os.rename(fresh, VENDOR, src_dir_fd=vendor.fd, dst_dir_fd=vendor.fd)
            _remove_package(vendor.fd, old)
    finally:
        vendor.close()


def _present(vendor: Place) -> bool:
    """Whether the package directory exists (a link there is refused: never followed)."""
    try:
        found = os.stat(vendor.name, dir_fd=vendor.fd, follow_symlinks=False)
    except FileNotFoundError:
        return False
    if stat.S_ISLNK(found.st_mode):
        raise Refused(f"{vendor.shown}: is a symbolic link; nothing was written through it")
    return True


def _remove_package(vendor_fd: int, old: str) -> None:
    """Remove the swapped-out copy file by file; anything unexpected is left in place."""
    flags = os.O_RDONLY | os.O_DIRECTORY | os.O_NOFOLLOW | os.O_CLOEXEC
    package = os.open(old, flags, dir_fd=vendor_fd)
    try:
        rules = os.open("rules", flags, dir_fd=package)
        try:
            with os.scandir(rules) as entries:
                names = [e.name for e in entries if not e.is_dir(follow_symlinks=False)]
            for name in names:
                os.unlink(name, dir_fd=rules)
        finally:
            os.close(rules)
        os.rmdir("rules", dir_fd=package)
        os.unlink(rulepkg.MANIFEST, dir_fd=package)
    except OSError:
        return
    finally:
        os.close(package)
    try:
        os.rmdir(old, dir_fd=vendor_fd)
    except OSError:
        return
