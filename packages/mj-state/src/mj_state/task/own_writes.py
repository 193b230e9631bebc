"""The tool's own writes among the paths a task touched: the one place that says which changed
files a majordomus command wrote, exactly as it writes them, so that no scope judge counts them
against the worker (`check`, `finish`, `finish --check`, `watch`, doctor).

A path is the tool's own only when both hold: a command declares it writes there
(`mj_policy.projection.tool_writes`: a planned projection target, a capture shim or settings file,
an MCP
client's configuration), and the file as the task leaves it — in the working tree, or at the
commit judged — is what some sequence of those commands makes of the file as it stood at the
task's start. A stamp or a marker line proves nothing by itself (a worker's script can write
either); a symbolic link, a directory or bytes that are not UTF-8 are never the tool's. What
`.ai/` holds is exempt from scope as a whole, for now: this is where the tool's records under
`.ai/local/` would be recognised when it no longer is.
"""

from __future__ import annotations

from mj_core.git import questions as git

TYPE_CHECKING = False  # `typing` is not imported at run time on a start-up path
if TYPE_CHECKING:
    from collections.abc import Iterable
    from pathlib import Path
    from typing import Any

    from mj_policy.layer.loader import Layer
    from mj_policy.projection.tool_writes import Writer

    Record = dict[str, Any]


class _Foreign:
    """What no command writes: a link, a directory, a submodule, bytes that do not decode."""

    __slots__ = ()


FOREIGN = _Foreign()


def recognise(layer: Layer, base: str, places: Iterable[tuple[str | None, list[str]]]) -> Record:
    """`{"own": [paths], "unlike": [[path, command], …]}` over the paths of `places`, each a
    (where, paths) pair: where is None for the working tree, else the commit whose file is
    judged. A path is the tool's own only when it is so at every place it appears; `unlike`
    names each path a command writes whose file is not as the command would leave it."""
    places = [(where, list(paths)) for where, paths in places]
    everything = list(dict.fromkeys(p for _, paths in places for p in paths))
    if not everything:  # nothing touched: no writer's table is needed
        return {"own": [], "unlike": []}
    from mj_policy.projection import tool_writes as toolwrites

    kinds = toolwrites.writers(layer, everything)
    if not kinds:
        return {"own": [], "unlike": []}
    wanted = [(base, list(kinds))] + [(w, [p for p in ps if p in kinds]) for w, ps in places]
    read = _read(layer.root, wanted)
    before = read[0]
    verdict = dict.fromkeys(kinds, True)
    for (_, paths), now in zip(places, read[1:], strict=True):
        for path in (p for p in paths if p in kinds):
            verdict[path] = verdict[path] and _reached(now[path], before[path], kinds[path])
    return {
        "own": [p for p in everything if verdict.get(p)],
        "unlike": [[p, kinds[p][0].command] for p in everything if verdict.get(p) is False],
    }


def _reached(now: object, before: object, writers: list[Writer]) -> bool:
    """Whether some sequence of `writers` makes `now` of `before` (each at most once)."""
    if isinstance(now, _Foreign) or isinstance(before, _Foreign) or now == before:
        return False
    assert now is None or isinstance(now, str)
    assert before is None or isinstance(before, str)
    reached: set[str | None] = {before}
    frontier: set[str | None] = {before}
    for _ in writers:
        frontier = {writer.after(text) for text in frontier for writer in writers} - reached
        reached |= frontier
    return any(writer.same(now) in reached for writer in writers) or now in reached


def _read(root: Path, wanted: list[tuple[str | None, list[str]]]) -> list[dict[str, object]]:
    """Each place's files: the working tree's (None) read from disk, a commit's from git
    (one `ls-tree` per commit, started together, then one `cat-file --batch`)."""
    commits = [(where, paths) for where, paths in wanted if where is not None and paths]
    listed = git.run_many(
        [(("--literal-pathspecs", "ls-tree", "-z", w, "--", *ps), root) for w, ps in commits]
    )
    entries = {where: _entries(out if code == 0 else "") for (where, _), (code, out, _) in
               zip(commits, listed, strict=True)}  # fmt: skip
    blobs = _blobs(root, [sha for found in entries.values() for sha in found.values() if sha])
    out: list[dict[str, object]] = []
    for where, paths in wanted:
        if where is None:
            out.append({path: _on_disk(root, path) for path in paths})
            continue
        found = entries.get(where, {})
        out.append({p: _decoded(blobs.get(found[p] or "")) if p in found else None for p in paths})
    return out


def _entries(listing: str) -> dict[str, str | None]:
    """path → blob id of `ls-tree -z` output; None for what is not a file (link, tree, …)."""
    found: dict[str, str | None] = {}
    for entry in filter(None, listing.split("\0")):
        meta, _, path = entry.partition("\t")
        mode, kind, sha = [*meta.split(" "), "", "", ""][:3]
        found[path] = sha if kind == "blob" and mode in ("100644", "100755") else None
    return found


def _blobs(root: Path, shas: list[str]) -> dict[str, bytes]:
    if not shas:
        return {}
    from mj_core.git import stdin as gitstdin

    wanted = list(dict.fromkeys(shas))
    code, out, _ = gitstdin.run("cat-file", "--batch", data="".join(f"{s}\n" for s in wanted)
                                .encode(), cwd=root)  # fmt: skip
    found: dict[str, bytes] = {}
    at = 0
    while code == 0 and 0 <= at < len(out):
        end = out.find(b"\n", at)
        sha, kind, size = [*out[at:end].decode("ascii", "replace").split(" "), "", ""][:3]
        if end < 0 or kind != "blob" or not size.isdigit():
            break
        found[sha] = out[end + 1 : end + 1 + int(size)]
        at = end + 1 + int(size) + 1
    return found


def _on_disk(root: Path, path: str) -> object:
    """The file's text; None when it is not there; FOREIGN for anything but a regular file
    reached through directories that are not links."""
    import os
    import stat

    parts = path.split("/")
    try:
        for depth in range(1, len(parts)):
            if not stat.S_ISDIR(os.lstat(root.joinpath(*parts[:depth])).st_mode):
                return FOREIGN
        mode = os.lstat(root / path).st_mode
    except FileNotFoundError:
        return None
    except OSError:
        return FOREIGN
    if not stat.S_ISREG(mode):
        return FOREIGN
    try:
        return _decoded((root / path).read_bytes())
    except OSError:
        return FOREIGN


def _decoded(data: bytes | None) -> object:
    if data is None:
        return FOREIGN  # listed by git, yet not there to read
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError:
        return FOREIGN
