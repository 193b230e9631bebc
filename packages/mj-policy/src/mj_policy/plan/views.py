"""What the plan's listings said, kept for the next run while git vouches that the plan is the
one they were computed from: `.ai/local/cache/plan-views.json`.

The key is BLAKE2b over the cache's format, this tool's version, the plan's directory, the
tree git records for that directory at HEAD and the manifest's bytes (which map the directory).
It exists only when `git status` reports nothing changed, staged or untracked under the
directory, so the files on disk, the index and HEAD agree and the tree names every byte of
them. Two git questions ask it (`questions`), both at once: the model cache (`plan.cache`) and
the listings kept here share the key.

`remember` keeps one listing — the records `mj-policy plan --view <view>` emitted for a
milestone filter, and the error it stopped with — under the key; a new key starts the file
afresh. `recall` gives them back for the same key, so the dispatcher can answer `plan ready`
without parsing its arguments, loading the layer or deriving a status (`majordomus.plan_fast`).
Like the model cache, this file is this checkout's own and shapes a listing only: `validate`,
`show`, `body`, every writer and every check read the files.
"""

from __future__ import annotations

import json
import os

from mj_core import files
from mj_core import line_hash as linehash
from mj_core import share

TYPE_CHECKING = False  # `typing` is not imported at run time on a start-up path
if TYPE_CHECKING:
    from typing import Any

FORMAT = 3
NAME = "plan-views.json"
CACHE = (".ai", "local", "cache")
MANIFEST = (".ai", "manifest.yaml")
VIEWS = ("status", "list", "ready", "blocked", "graph", "next")  # one stage, nothing else read
KEPT = 32  # listings kept under one key (each milestone filter is one)


def questions(section: str) -> list[tuple[str, ...]]:
    """The git arguments whose answers make the key (`section` relative to the top level):
    the top level with the directory's tree at HEAD, and the directory's status."""
    return [
        ("rev-parse", "--show-toplevel", "--verify", "-q", f"HEAD:{section}"),
        ("status", "--porcelain", "-z", "--untracked-files=all", "--",
         f":(top,literal){section}"),
    ]  # fmt: skip


def key_of(
    answers: list[tuple[int, str, str]], section: str, manifest: bytes
) -> tuple[str | None, str | None]:
    """(the top level git names, the key) from the answers to `questions`; the key is None
    when git cannot vouch for the directory (not committed, changed, staged, untracked)."""
    (code, said, _), (status_code, status, _) = answers
    lines = said.split("\n")
    top = lines[0] or None
    if code != 0 or status_code != 0 or status or len(lines) < 2 or not lines[1]:
        return top, None
    text = f"{FORMAT}\0{share.version()}\0{section}\0{lines[1]}\0"
    return top, linehash.hexdigest(text.encode("utf-8", "surrogateescape") + manifest)


def manifest_bytes(root: str | os.PathLike[str]) -> bytes:
    return files.read_bytes(os.path.join(root, *MANIFEST))


def path(root: str | os.PathLike[str]) -> str:
    return os.path.join(root, *CACHE, NAME)


def slot(view: str, milestone: str | None) -> str:
    return f"{view}\0{milestone or ''}"


def read(root: str | os.PathLike[str]) -> dict[str, Any] | None:
    """The kept listings as stored, or None when there are none that read."""
    try:
        data = json.loads(files.read_bytes(path(root)))
    except (OSError, ValueError):
        return None
    ok = type(data) is dict and isinstance(data.get("answers"), dict)
    return data if ok and isinstance(data.get("section"), str) else None


def recall(data: dict[str, Any], key: str, view: str, milestone: str | None) -> Any:
    """The listing kept for `view` and `milestone` under `key` ("" for whichever key the file
    holds): {records, error}, or None."""
    if key and data.get("key") != key:
        return None
    found = data["answers"].get(slot(view, milestone))
    return found if type(found) is dict and isinstance(found.get("records"), list) else None


def remember(
    root: Any,
    key: str,
    section: str,
    *,
    view: str,
    milestone: str | None,
    records: list[dict[str, Any]],
    error: tuple[int, str] | None,
) -> None:
    """Keep one listing under `key` (atomically, 0600); a listing that cannot be kept is
    only a slower next run."""
    from mj_core.errors import MjError
    from mj_core.write import atomic

    data = read(root)
    if data is None or data.get("key") != key or data.get("section") != section:
        data = {"key": key, "section": section, "answers": {}}
    answers = data["answers"]
    if len(answers) >= KEPT:
        answers.clear()
    answers[slot(view, milestone)] = {"records": records, "error": list(error) if error else None}
    try:
        text = json.dumps(data, separators=(",", ":"), ensure_ascii=False).encode()
        atomic.create(_target(root), text, mode=0o600, replace=True, root=root, durable=False)
    except (MjError, OSError, TypeError, ValueError):
        pass


def _target(root: Any) -> Any:
    from pathlib import Path

    return Path(path(root))
