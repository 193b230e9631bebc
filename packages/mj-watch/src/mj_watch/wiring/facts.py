"""The `hooks` fact: everything the wiring judge reads about how enforcement is wired here.

Where git looks for hooks (shown as a reproduce command names it), every hook file there and
in its `<hook>.d/` folders with its body and whether it is executable, each hook an entry names
(present or not), the CI files, toolchain files and git settings entries name, the pre-commit
configuration's text, whether each declared command resolves (on PATH, or as a path a hook
line names), and — under `doctor --prove` — the verdict of running each hook in a scratch
worktree. Read here, judged by `wiring` alone.
"""

from __future__ import annotations

from mj_core.git import questions as git

from mj_watch.wiring import files as hookfiles
from mj_watch.wiring import path_lookup as pathlookup

TYPE_CHECKING = False  # `typing` is not imported at run time on a start-up path
if TYPE_CHECKING:
    from pathlib import Path
    from typing import Any

    from mj_watch.wiring.check import Entry

    Record = dict[str, Any]


def gather(root: Path, entries: list[Entry], *, prove: bool = False) -> Record:
    directory = hookfiles.hooks_dir(root)
    files: dict[str, Record] = {}
    everything = [p.relative_to(directory).as_posix() for p in hookfiles.all_hook_files(directory)]
    wanted = list(everything)
    subs: dict[str, list[str]] = {}
    ci: dict[str, Record] = {}
    toolchain: dict[str, Record] = {}
    config: dict[str, str | None] = {}
    framework = None
    if any(e.wired_by.startswith("pre-commit:") for e in entries):
        from mj_watch.wiring import precommit  # the framework's judge: only when an entry names it

        wanted += precommit.HOOK_TYPES
        framework = precommit.config_text(root)
    for entry in entries:
        kind, _, value = entry.wired_by.partition(":")
        if kind == "git-hook":
            wanted.append(value)
            below = hookfiles.sub_hooks(directory / value)
            subs[value] = [p.relative_to(directory).as_posix() for p in below]
            wanted += subs[value]
        elif kind == "ci":
            ci[value] = _file(root, root / value)
        elif kind == "toolchain" and _inside(value):
            toolchain[value] = _file(root, root / value)
        elif kind == "git-config":
            config[value] = git.out("config", "--local", "--get", value, cwd=root)
    for name in dict.fromkeys(wanted):
        files[name] = _file(root, directory / name)
    read = [*files.values(), *ci.values(), *toolchain.values()]
    texts = [str(f.get("text") or "") for f in read]
    return {
        "kind": "fact",
        "fact": "hooks",
        "dir": hookfiles.shown(root, directory),
        "files": files,
        "all": everything,
        "subs": subs,
        "ci": ci,
        "toolchain": toolchain,
        "config": config,
        "precommit": framework,
        **pathlookup.lookups(root, [e.path for e in entries], texts),
        "proofs": _proofs(root, entries, directory) if prove else None,
    }


def _inside(value: str) -> bool:
    """A repository-relative path that stays inside the repository (nothing else is read)."""
    return bool(value) and not value.startswith("/") and ".." not in value.split("/")


def _file(root: Path, path: Path) -> Record:
    found: Record = {"shown": hookfiles.shown(root, path)}
    if not path.is_file():
        found["type"] = "directory" if path.is_dir() else "absent"
        return found
    found.update(type="file", exec=hookfiles.executable(path), text=hookfiles.read(path))
    return found


def _proofs(root: Path, entries: list[Entry], directory: Path) -> dict[str, Record]:
    from mj_watch.wiring import proving  # spawns processes: only on `doctor --prove`

    proven = proving.prove(root, entries, directory)
    return {name: finding.record() for name, finding in proven.items()}
