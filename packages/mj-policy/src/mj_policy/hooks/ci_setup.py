"""`mj-policy init --ci github|gitlab`: the CI job that runs `majordomus verify` where the worker
cannot reach, written from the shipped template (`share/ci/<name>.yml`) with this majordomus's
version pinned: `.github/workflows/majordomus.yml` or `.gitlab-ci.yml`. The file is created
atomically, its directories one level at a time (none through a symbolic link), and an existing
file is never overwritten (15, naming it): a repository's own CI file is its own to merge."""

from __future__ import annotations

from mj_core import share
from mj_core.errors import Refused
from mj_core.write import atomic
from mj_core.write import confine

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Iterator
    from pathlib import Path

TARGETS = {"github": ".github/workflows/majordomus.yml", "gitlab": ".gitlab-ci.yml"}


def write(root: Path, ci: str) -> Iterator[str]:
    relative = TARGETS[ci]
    target = root / relative
    refusal = confine.check(root, relative)
    if refusal:
        raise Refused(refusal)
    if target.exists() or target.is_symlink():
        raise Refused(
            f"{relative} exists; `init --ci {ci}` never overwrites it — merge the job from "
            f"share/ci/{ci}.yml into it by hand, or move it aside"
        )
    version = share.read_text("version.txt").strip()
    text = share.read_text("ci", f"{ci}.yml").replace("{version}", version)
    atomic.make_dirs(target.parent, root=root)
    atomic.create(target, text.encode("utf-8"), mode=0o644, root=root)
    yield relative
