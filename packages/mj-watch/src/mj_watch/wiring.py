"""Doctor's wiring check: every declared enforcement really runs, and its exit code survives.

Declared but not wired is the default end state of every governance layer; this check is the
product. Each `policy.enforcement[]` entry gets one finding: OK naming the file and line that
runs it, FAIL (10) with a command that shows what is missing, or INFO for `manual`.
"""

from __future__ import annotations

import shlex

from mj_core import git
from mj_core.findings import Finding

from mj_watch import hooks
from mj_watch import hookscan
from mj_watch import precommit
from mj_watch.resolve import resolves

TYPE_CHECKING = False  # `typing` is not imported at run time on a start-up path
if TYPE_CHECKING:
    from collections.abc import Iterator
    from pathlib import Path
    from typing import Any

    from mj_watch.facts import Facts

CATEGORY = "wiring"


class Entry:
    def __init__(self, data: dict[str, Any]) -> None:
        self.name = str(data.get("name", "?"))
        self.path = str(data.get("path", "majordomus"))
        self.args = [str(a) for a in data.get("args") or []]
        self.wired_by = str(data.get("wired_by", ""))

    @property
    def command(self) -> str:
        return f"majordomus {self.args[0]}" if self.args else "majordomus"

    def pattern(self) -> Any:
        names = sorted({"majordomus", self.path})
        return hookscan.call_pattern(names, self.args[0] if self.args else None)


def fail(entry: Entry, message: str, reproduce: str) -> Finding:
    return Finding("FAIL", CATEGORY, entry.name, message, reproduce)


def enforcement_wiring(facts: Facts) -> Iterator[Finding]:
    """Doctrine majordomus.enforcement-wiring: each declared enforcement runs, and no hook
    that calls majordomus throws its exit code away."""
    directory = hooks.hooks_dir(facts.root)  # asked of git once per run, shared by every judge
    if facts.layer is not None:
        yield from check(facts.root, facts.layer.policy.data, directory)
    yield from swallowing_hooks(facts.root, directory)


def check(root: Path, policy: dict[str, Any], directory: Path | None = None) -> Iterator[Finding]:
    """One finding per enforcement entry; `directory` is the hooks directory when known."""
    directory = hooks.hooks_dir(root) if directory is None else directory
    for data in policy.get("enforcement") or []:
        entry = Entry(data)
        yield from _entry(root, entry, directory)


def swallowing_hooks(root: Path, directory: Path | None = None) -> Iterator[Finding]:
    """Every hook script calling majordomus that discards its code, named or not in the policy."""
    pattern = hookscan.call_pattern(["majordomus"], None)
    directory = hooks.hooks_dir(root) if directory is None else directory
    for path in hooks.all_hook_files(directory):
        for call in hookscan.calls(hooks.read(path), pattern):
            if call.swallow:
                where = hooks.shown(root, path)
                reproduce = f"grep -n majordomus {shlex.quote(where)}"
                message = (
                    f"line {call.lineno} calls majordomus and loses its exit code: {call.swallow}"
                )
                yield Finding("FAIL", "hooks", where, message, reproduce)


def _entry(root: Path, entry: Entry, directory: Path) -> Iterator[Finding]:
    kind, _, value = entry.wired_by.partition(":")
    if kind == "manual":
        yield Finding("INFO", CATEGORY, entry.name, f"{entry.command}: manual — unverified")
        return
    handler = _HANDLERS.get(kind)
    if handler is None:
        reproduce = f"grep -n 'wired_by: {entry.wired_by}' .ai/repo/policy.yaml"
        message = f"wired_by {entry.wired_by} cannot be verified by this majordomus"
        yield fail(entry, message, reproduce)
        return
    yield from handler(root, entry, value, directory)


def _git_hook(root: Path, entry: Entry, name: str, directory: Path) -> Iterator[Finding]:
    hook = directory / name
    where = hooks.shown(root, hook)
    if not hook.is_file():
        yield fail(entry, f"{where} does not exist", f"ls -l {shlex.quote(where)}")
        return
    if not hooks.executable(hook):
        yield fail(entry, f"{where} is not executable", f"ls -l {shlex.quote(where)}")
        return
    yield from _judge_files(root, entry, [hook, *hooks.sub_hooks(hook)], where)


def _judge_files(root: Path, entry: Entry, files: list[Path], where: str) -> Iterator[Finding]:
    pattern = entry.pattern()
    for path in files:
        found = hookscan.calls(hooks.read(path), pattern)
        if found:
            yield from _judge_call(root, entry, path, found[0])
            return
    grep = f"grep -rn {shlex.quote(entry.command)} {shlex.quote(where)}*"
    yield fail(entry, f"{where} does not invoke `{entry.command}`", grep)


def _judge_call(root: Path, entry: Entry, path: Path, call: hookscan.Call) -> Iterator[Finding]:
    where = hooks.shown(root, path)
    grep = f"grep -n {shlex.quote(entry.command)} {shlex.quote(where)}"
    if not hooks.executable(path):
        yield fail(entry, f"{where} holds the call but is not executable", f"ls -l {where}")
    elif call.swallow:
        yield fail(entry, f"{where}:{call.lineno} swallows the exit code: {call.swallow}", grep)
    elif not resolves(root, entry.path, call.line):
        yield fail(entry, f"path {entry.path} does not resolve", f"command -v {entry.path}")
    else:
        yield Finding(
            "OK", CATEGORY, entry.name, f"`{entry.command}` runs from {where}:{call.lineno}"
        )


def _ci(root: Path, entry: Entry, value: str, directory: Path) -> Iterator[Finding]:
    del directory  # a CI file is named from the root
    path = root / value
    if not path.is_file():
        yield fail(entry, f"{value} does not exist", f"ls -l {shlex.quote(value)}")
        return
    found = hookscan.calls(hooks.read(path), entry.pattern())
    if not found:
        grep = f"grep -n {shlex.quote(entry.command)} {shlex.quote(value)}"
        yield fail(entry, f"{value} does not invoke `{entry.command}`", grep)
        return
    call = found[0]
    if call.explicit:
        grep = f"grep -n {shlex.quote(entry.command)} {shlex.quote(value)}"
        yield fail(entry, f"{value}:{call.lineno} swallows the exit code: {call.swallow}", grep)
        return
    yield Finding("OK", CATEGORY, entry.name, f"`{entry.command}` runs from {value}:{call.lineno}")


def _git_config(root: Path, entry: Entry, key: str, directory: Path) -> Iterator[Finding]:
    del directory  # the setting lives in git config
    value = git.out("config", "--local", "--get", key, cwd=root)
    reproduce = f"git config --local --get {shlex.quote(key)}"
    if not value or "majordomus" not in value:
        yield fail(
            entry, f"git config {key} does not name majordomus ({value or 'unset'})", reproduce
        )
        return
    yield Finding("OK", CATEGORY, entry.name, f"git config {key} = {value}")


def _pre_commit(root: Path, entry: Entry, hook_id: str, directory: Path) -> Iterator[Finding]:
    problem, detail = precommit.judge(root, hook_id, entry.command, directory)
    if problem:
        yield fail(entry, problem, detail)
        return
    yield Finding("OK", CATEGORY, entry.name, detail)


_HANDLERS = {
    "git-hook": _git_hook,
    "ci": _ci,
    "git-config": _git_config,
    "pre-commit": _pre_commit,
}
