"""`doctor --prove`: each declared hook is run, and what it does is the proof.

In a throw-away detached worktree of HEAD (created with hooks switched off, always removed with
its administrative entry, also on error or timeout) each `git-hook:` entry's hook, and the
pre-commit framework's hook for `pre-commit:` entries, runs the way git would run it: from the
checkout's root, with the hook type's arguments and standard input, `GIT_*` scrubbed as the
git runner does. A `majordomus` shim placed first on PATH (and over a repository-relative
`path`) records its arguments and exits with SENTINEL when they are the entry's (0 for any
other call, so a hook with several lines runs on to the one proven); a hook that names its
majordomus by an absolute path (as `init` prints it; that this is doctor's own file the static
check proves) runs as a copy, beside its `.d/` folder, with that path turned into the shim's.
The hook is wired when the shim ran with the declared arguments and the hook exited with
SENTINEL; the pre-commit framework reports any failing hook as 1, so there a non-zero exit is
the shim's. A hook that runs longer than TIMEOUT seconds is killed with everything it started,
and is not wired. The user's worktree, index and HEAD are never touched.
"""

from __future__ import annotations

import os
import shlex
from pathlib import Path

from mj_core.findings import Finding
from mj_core.git import questions as git

from mj_watch.wiring import call as hookcall
from mj_watch.wiring import files as hookfiles
from mj_watch.wiring import precommit
from mj_watch.wiring import proving_run as provingrun

TYPE_CHECKING = False  # `typing` is not imported at run time on a start-up path
if TYPE_CHECKING:
    from collections.abc import Iterator

    from mj_watch.wiring.check import Entry

SENTINEL = 97
TIMEOUT = 20.0
REPRODUCE = "majordomus doctor --prove"


def prove(
    root: Path, entries: list[Entry], directory: Path, timeout: float = TIMEOUT
) -> dict[str, Finding]:
    """entry name → the verdict of running its hook, for every entry a hook can prove."""
    jobs = [job for job in (_job(root, e, directory) for e in entries) if job is not None]
    if not jobs:
        return {}
    import tempfile  # with shutil and random: loaded only on this path, never by plain doctor

    with (
        tempfile.TemporaryDirectory(prefix="mj-prove-", ignore_cleanup_errors=True) as scratch,
        _Worktree(root, Path(scratch)) as tree,
    ):
        if tree is None:
            message = "cannot check out HEAD to run the hooks in (no commit yet?)"
            return {e.name: _fail(e, message) for e, _, _ in jobs}
        place = _Place(root, tree, Path(scratch), timeout)
        return {entry.name: place.verdict(entry, path, kind) for entry, path, kind in jobs}


def _job(root: Path, entry: Entry, directory: Path) -> tuple[Entry, Path, str] | None:
    """(entry, the hook file to run, its hook type) when running a hook can prove the entry."""
    kind, _, value = entry.wired_by.partition(":")
    if kind == "git-hook":
        path = directory / value
        return (entry, path, value) if hookfiles.executable(path) else None
    if kind == "pre-commit":
        for name in precommit.hook_types_for(root, value):
            path = directory / name
            if hookfiles.executable(path) and precommit.MARKER in hookfiles.read(path):
                return entry, path, name
    return None


class _Worktree:
    """A detached worktree of HEAD under `scratch`, and its removal whatever happens."""

    def __init__(self, root: Path, scratch: Path) -> None:
        self.root = root
        self.tree = scratch / "tree"
        self.admin: str | None = None

    def __enter__(self) -> Path | None:
        add = ("-c", "core.hooksPath=/dev/null", "worktree", "add", "--detach", "--quiet")
        code, _, _ = git.run(*add, str(self.tree), "HEAD", cwd=self.root)
        if code != 0:
            return None
        self.admin = git.out("rev-parse", "--absolute-git-dir", cwd=self.tree)
        return self.tree

    def __exit__(self, *exc: object) -> None:
        git.run("worktree", "remove", "--force", str(self.tree), cwd=self.root)
        if self.admin and os.path.isdir(self.admin):
            import shutil

            shutil.rmtree(self.admin, ignore_errors=True)  # the entry of this worktree only


class _Place:
    """Where the hooks run: the scratch worktree, the shims, the time limit."""

    def __init__(self, root: Path, tree: Path, scratch: Path, timeout: float) -> None:
        self.root = root
        self.tree = tree
        self.scratch = scratch
        self.timeout = timeout

    def verdict(self, entry: Entry, path: Path, kind: str) -> Finding:
        where = hookfiles.shown(self.root, path)
        shims = self.scratch / "bin"
        calls = self.scratch / f"calls-{len(list(self.scratch.glob('calls-*')))}"
        calls.mkdir()
        _shims(entry, shims, self.tree, calls)
        hook = _named_shim(entry, path, shims / "majordomus", self.scratch / f"{calls.name}-hooks")
        run = provingrun.run_hook(
            hook, kind, tree=self.tree, shims=shims, scratch=self.scratch, timeout=self.timeout
        )
        argv = [c[1:] for c in _read_calls(calls)]
        if run.timed_out:
            return _fail(entry, f"{where} was still running after {self.timeout:g} s: stopped")
        if run.code is None:
            return _fail(entry, f"{where} could not be run: {run.output}")
        ran = any(hookcall.same_args(a, entry.args) for a in argv)
        framework = entry.wired_by.startswith("pre-commit:")
        if ran and (run.code == SENTINEL or (framework and run.code != 0)):
            message = f"`{entry.command}` proven by running {where}: it exited {run.code}"
            return Finding("OK", "wiring", entry.name, message + " with the call's status")
        return _fail(entry, _why(entry, where, argv, run))


def _why(entry: Entry, where: str, argv: list[list[str]], run: provingrun.Run) -> str:
    code, out = run.code, run.output
    if any(hookcall.same_args(a, entry.args) for a in argv):
        return f"{where} ran `{entry.command}`, which exited {SENTINEL}, and then exited {code}"
    if argv:
        shown = "; ".join(shlex.join(["majordomus", *a]) for a in argv)
        return f"{where} ran `{shown}`, never `{entry.command}`, and exited {code}"
    tail = out.strip().splitlines()[-1:] if out.strip() else []
    said = f" ({tail[0][:120]})" if tail else ""
    return f"{where} exited {code} without running `{entry.command}` in a checkout of HEAD{said}"


def _fail(entry: Entry, message: str) -> Finding:
    return Finding("FAIL", "wiring", entry.name, message, REPRODUCE)


def _shims(entry: Entry, shim: Path, tree: Path, calls: Path) -> None:
    shim.mkdir(exist_ok=True)
    from mj_policy.hooks.lines import PRINTING

    forms = [entry.args, [*entry.args, *PRINTING.get(tuple(entry.args), ())]]
    wanted = "|".join(dict.fromkeys(shlex.quote(" ".join(form)) for form in forms))
    body = (  # the entry's own call (as `wiring.call.same_args` reads it) exits SENTINEL; others 0
        "#!/bin/sh\n"
        f'{{ printf \'%s\\0\' "$0" "$@"; }} > {shlex.quote(str(calls))}/$$\n'
        f'case "$*" in {wanted}) exit {SENTINEL};; esac\n'
        "exit 0\n"
    )
    targets = [shim / "majordomus"]
    if "/" not in entry.path and entry.path != "majordomus":
        targets.append(shim / entry.path)
    elif "/" in entry.path and not os.path.isabs(entry.path):
        targets.append(tree / entry.path)  # the checkout's own copy of a repository tool
    for target in targets:
        target.parent.mkdir(parents=True, exist_ok=True)
        if target.is_symlink() or target.exists():
            target.unlink()
        target.write_text(body, encoding="utf-8")
        target.chmod(0o755)


def _named_shim(entry: Entry, path: Path, shim: Path, copies: Path) -> Path:
    """The hook to run: `path`, or its copy (with its `.d/` files) in `copies` where every
    absolute path to a `majordomus` (or to the entry's program) is the shim's."""
    names = {"majordomus", Path(entry.path).name}
    files = [path, *hookfiles.sub_hooks(path)]
    texts = {f: hookfiles.read(f) for f in files}
    found = {w for text in texts.values() for w in _absolute_words(text) if Path(w).name in names}
    if not found:
        return path
    for source, original in texts.items():
        text = original
        for word in sorted(found, key=len, reverse=True):
            text = text.replace(shlex.quote(word), shlex.quote(str(shim)))
            text = text.replace(word, str(shim))
        target = copies / source.relative_to(path.parent)
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(text, encoding="utf-8")
        target.chmod(0o755 if hookfiles.executable(source) else 0o644)
    return copies / path.name


def _absolute_words(text: str) -> Iterator[str]:
    for line in text.splitlines():
        try:
            words = shlex.split(line, comments=True)
        except ValueError:
            words = line.split()
        yield from (w for w in words if os.path.isabs(w))


def _read_calls(calls: Path) -> Iterator[list[str]]:
    for record in sorted(calls.iterdir()):
        data = record.read_bytes().decode("utf-8", "surrogateescape")
        yield data.split("\0")[:-1]
