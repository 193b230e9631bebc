"""How git is run (for `git`, `git.where` and `git.stdin`): one runner, `GIT_*` scrubbed, several
processes started at once, and questions begun ahead of the reader that asks them.

Inside a git hook, git exports `GIT_DIR`, `GIT_INDEX_FILE` and friends; a tool that inherits
them would answer for the wrong repository, so the runner removes them (keeping the few that
configure identity and behaviour, not location).

Every command the tool runs only reads, and none may start a program the repository's
configuration names: `core.fsmonitor` is switched off (status, diff and ls-files would run it),
signatures are not verified (`log.showSignature` runs `gpg.program`), there is no pager, and the
diffs the tool asks for are name lists, which run no external diff or textconv driver
(`--no-ext-diff --no-textconv` say so anyway). Git is read as it is: replace objects (`git
replace`) and grafts (`info/grafts`) are switched off for every call, so nothing a worker adds
under `refs/replace/` makes a commit look other than it is. `-c` settings reach the git
processes git itself starts (submodules) through `GIT_CONFIG_PARAMETERS`. Every git process has
the `spawn.TIMEOUT` deadline. (Clean filters named in `.gitattributes` and defined in the
repository's configuration can still run under `git status` on a racily clean file: git before
2.40 has no switch that turns attributes off.)
"""

from __future__ import annotations

import os

from mj_core import spawn
from mj_core import timing

TYPE_CHECKING = False  # pathlib only where a Path is made: `plan ready` asks git before it
if TYPE_CHECKING:
    from pathlib import Path

_KEEP = {
    "GIT_AUTHOR_NAME", "GIT_AUTHOR_EMAIL", "GIT_AUTHOR_DATE",
    "GIT_COMMITTER_NAME", "GIT_COMMITTER_EMAIL", "GIT_COMMITTER_DATE",
    "GIT_CONFIG_GLOBAL", "GIT_CONFIG_NOSYSTEM", "GIT_CONFIG_SYSTEM",
    "GIT_TEMPLATE_DIR", "GIT_EXEC_PATH",
    "GIT_SSH", "GIT_SSH_COMMAND", "GIT_ASKPASS", "GIT_TERMINAL_PROMPT",
}  # fmt: skip


SAFE = (
    "--no-pager",
    "--no-replace-objects",
    "-c",
    "core.fsmonitor=false",
    "-c",
    "log.showSignature=false",
)
NO_DRIVERS = ("--no-ext-diff", "--no-textconv")


def clean_env() -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith("GIT_") or k in _KEEP}
    env["GIT_OPTIONAL_LOCKS"] = "0"  # read-only commands must not take the index lock
    env["GIT_NO_REPLACE_OBJECTS"] = "1"  # git as it is: no replacement object stands in
    env["GIT_GRAFT_FILE"] = os.devnull  # for a commit, nor an `info/grafts` line for its parents
    env.setdefault("LC_ALL", "C")
    return env


_AHEAD: dict[tuple[str, tuple[str, ...]], tuple[spawn.Running, int]] = {}  # process, position
_ANSWERS: dict[tuple[str, tuple[str, ...]], tuple[int, str, str]] = {}
_TIMES: dict[tuple[str, tuple[str, ...]], int] = {}  # readers an answer begun ahead is left for


def ahead(calls: list[tuple[tuple[str, ...], Path | str]], *, times: int = 1) -> None:
    """Begin several questions at once that `run` will be asked later, one by one: a reader
    that knows its questions (doctor's facts) waits for one round of git, not for each. Each
    answer is given `times` times (to as many readers of one run, e.g. a briefing's facts and
    the episode opened after them); asked again, git is asked again. A question begun again is
    begun afresh: the earlier process is reaped and its answer dropped, since a write may have
    come between. Only for reads: a write between `ahead` and its readers would leave the
    answer stale."""
    keys = list(dict.fromkeys((os.fspath(cwd), tuple(args)) for args, cwd in calls))
    for key in keys:
        earlier = _AHEAD.pop(key, None)
        if earlier is not None:
            earlier[0].wait()
        _ANSWERS.pop(key, None)
        _TIMES[key] = times
    running = start_many([(args, cwd) for cwd, args in keys])
    for position, key in enumerate(keys):
        _AHEAD[key] = (running, position)


def settle() -> None:
    """Wait for every question begun `ahead` and forget the answers nobody asked for."""
    for running in {id(r): r for r, _ in _AHEAD.values()}.values():
        running.wait()
    _AHEAD.clear()
    _ANSWERS.clear()
    _TIMES.clear()


def _answer(key: tuple[str, tuple[str, ...]]) -> tuple[int, str, str] | None:
    if key not in _ANSWERS:
        begun = _AHEAD.pop(key, None)
        if begun is None:
            return None
        running, position = begun
        _ANSWERS[key] = decoded([running.wait()[position]])[0]
    left = _TIMES.get(key, 1) - 1
    if left > 0:
        _TIMES[key] = left
        return _ANSWERS[key]
    _TIMES.pop(key, None)
    return _ANSWERS.pop(key)


def run_many(calls: list[tuple[tuple[str, ...], Path | str]]) -> list[tuple[int, str, str]]:
    """Run several `git <args>` at once (each in its own cwd); results in call order.

    For independent questions to several worktrees: the processes overlap instead of queueing.
    A missing `cwd` is a git failure (128), like any other.
    """
    return begin(calls).wait()


class Pending:
    """`run_many` begun: the questions begun `ahead` are answered from those processes, the
    others start now; `wait` gives every answer in call order. `reap` (for a caller that may
    leave before asking) waits only for what this started."""

    __slots__ = ("_answers", "_keys", "_own", "_running")

    def __init__(self, calls: list[tuple[tuple[str, ...], Path | str]]) -> None:
        self._keys = [(os.fspath(cwd), tuple(args)) for args, cwd in calls]
        begun = _AHEAD.keys() | _ANSWERS.keys() if (_AHEAD or _ANSWERS) else set()
        self._own = [index for index, key in enumerate(self._keys) if key not in begun]
        self._running = start_many([calls[index] for index in self._own])
        self._answers: list[tuple[int, str, str]] | None = None

    def wait(self) -> list[tuple[int, str, str]]:
        if self._answers is None:
            answers: list[tuple[int, str, str] | None] = [None] * len(self._keys)
            for index, answer in zip(self._own, decoded(self._running.wait()), strict=True):
                answers[index] = answer
            late = []  # begun ahead, then settled: asked now
            for index, key in enumerate(self._keys):
                if answers[index] is None:
                    answers[index] = _answer(key)
                    if answers[index] is None:
                        late.append(index)
            if late:
                again = decoded(start_many([_call(self._keys[i]) for i in late]).wait())
                for index, answer in zip(late, again, strict=True):
                    answers[index] = answer
            self._answers = [answer for answer in answers if answer is not None]
        return self._answers

    def reap(self) -> None:
        self._running.wait()


def begin(calls: list[tuple[tuple[str, ...], Path | str]]) -> Pending:
    """`run_many` without the wait, answering from what `ahead` began (`Pending`)."""
    return Pending(calls)


def _call(key: tuple[str, tuple[str, ...]]) -> tuple[tuple[str, ...], str]:
    return key[1], key[0]


def start_many(calls: list[tuple[tuple[str, ...], Path | str]]) -> spawn.Running:
    """`run_many` without the wait: the caller works while git answers, then `decoded(.wait())`."""
    for _ in calls:
        timing.count("git")
    argv = [("git", *SAFE, "-C", str(cwd), *args) for args, cwd in calls]
    return spawn.start_all(argv, clean_env())


def decoded(done: list[spawn.Result]) -> list[tuple[int, str, str]]:
    """(exit code, stdout, stderr) as text, undecodable bytes kept as surrogates."""
    return [
        (code, stdout.decode("utf-8", "surrogateescape"), stderr.decode("utf-8", "surrogateescape"))
        for code, stdout, stderr in done
    ]


def run_bounded(
    args: tuple[str, ...],
    cwd: Path | str,
    *,
    timeout: float = spawn.TIMEOUT,
    data: bytes | None = None,
    env: dict[str, str] | None = None,
) -> spawn.Result:
    """One `git <args>` with the safe settings and the scrubbed environment (plus `env`), its
    output as bytes, `data` on its standard input when given, stopped after `timeout` seconds
    (ContractUnmet naming it, `spawn`). For the remote's commands: each network call is bounded
    by the policy's `remote.timeout`, and object plumbing reads binary output."""
    timing.count("git")
    merged = {**clean_env(), **(env or {})}
    argv = ("git", *SAFE, "-C", str(cwd), *args)
    if data is None:
        return spawn.start_all([argv], merged, timeout).wait()[0]
    return spawn.run_input(argv, merged, data, timeout)
