"""Doctor's wiring check: every declared enforcement really runs, and its exit code survives.

Declared but not wired is the default end state of every governance layer; this check is the
product. Each `policy.enforcement[]` entry gets one finding: OK naming the file and line that
runs it, FAIL (10) with a command that shows what is missing, or INFO for `manual`. A git hook
is judged by the static proof of `wiring.prove` (a `<hook>.d/` runner and the sub-hook holding the
call both proven); with `doctor --prove` the hooks are also run (`proving`) and that verdict
is the entry's. Judged over the `hooks` fact (`wiring.facts`): the judge reads no file.
"""

from __future__ import annotations

import shlex

from mj_core.findings import Finding

from mj_watch.wiring import call as hookcall
from mj_watch.wiring.path_lookup import another_program
from mj_watch.wiring.path_lookup import resolved

TYPE_CHECKING = False  # `typing` is not imported at run time on a start-up path
if TYPE_CHECKING:
    from collections.abc import Iterator
    from typing import Any

    from mj_watch.doctor.facts_view import Facts
    from mj_watch.wiring.call import Verdict

    Record = dict[str, Any]
    Hooks = Record  # the `hooks` fact (`wiring.facts.gather`)

    Proofs = dict[str, Finding]  # entry name → the verdict of running its hook
    Judged = tuple[Finding, bool]  # a finding, and whether it is about what the script does

CATEGORY = "wiring"
PROVE = "`majordomus doctor --prove` runs the hook to show what it does"


class Entry:
    def __init__(self, data: dict[str, Any]) -> None:
        self.name = str(data.get("name", "?"))
        self.path = str(data.get("path", "majordomus"))
        self.args = [str(a) for a in data.get("args") or []]
        self.wired_by = str(data.get("wired_by", ""))

    @property
    def declared(self) -> list[str]:
        return [self.path, *self.args]

    @property
    def names(self) -> list[str]:
        """What the hook may call it: the entry's path, or `majordomus` from any directory."""
        return [self.path, "majordomus"] if self.path != "majordomus" else [self.path]

    @property
    def command(self) -> str:
        return shlex.join(self.declared)


def fail(entry: Entry, message: str, reproduce: str) -> Finding:
    return Finding("FAIL", CATEGORY, entry.name, message, reproduce)


def enforcement_wiring(facts: Facts) -> Iterator[Finding]:
    """Doctrine majordomus.enforcement-wiring: each declared enforcement runs, and no hook
    that calls majordomus throws its exit code away."""
    told = facts.get("hooks")
    captured = facts.facts.get("capture")  # the provider hooks' states (doctor's facts)
    if captured is not None:
        told = {**told, "providers": captured.get("providers") or {}}
    if facts.layer is not None:
        policy = facts.layer.policy.data
        proofs = None
        if facts.prove:
            found = told.get("proofs") or {}
            proofs = {name: Finding.from_record(record) for name, record in found.items()}
        yield from check(told, policy, proofs)
    yield from swallowing_hooks(told)


def entries(policy: dict[str, Any]) -> list[Entry]:
    return [Entry(data) for data in policy.get("enforcement") or [] if isinstance(data, dict)]


def check(told: Hooks, policy: dict[str, Any], proofs: Proofs | None = None) -> Iterator[Finding]:
    """One finding per enforcement entry, judged over the `hooks` fact (`wiring.facts`)."""
    for entry in entries(policy):
        found = list(_entry(told, entry))
        proof = (proofs or {}).get(entry.name)
        if proof is None:
            yield from (finding for finding, _ in found)
        else:
            yield from _with_proof(found, proof)


def _with_proof(found: list[Judged], proof: Finding) -> Iterator[Finding]:
    """The verdict of running the hook replaces a static verdict about the script."""
    for finding, script in found:
        if finding.level == "FAIL" and not script:
            yield finding  # missing, not executable, does not resolve: running cannot fix that
            return
    yield proof
    for finding, _ in found:
        if finding.level == "FAIL" and proof.level == "OK":
            message = (
                f"the static proof fails, so plain `majordomus doctor` does: {finding.message}"
            )
            yield Finding("WARN", CATEGORY, finding.subject, message, finding.reproduce)


def swallowing_hooks(told: Hooks) -> Iterator[Finding]:
    """Every hook script calling majordomus that can discard its code, named or not in the
    policy."""
    for name in told.get("all") or []:
        hook = _hook(told, name)
        text = str(hook.get("text") or "")
        if "majordomus" not in text or hookcall.printed(text) is not None:
            continue  # no call, or the printed line: nothing of a status is lost
        from mj_watch.wiring import (
            prove as hookproof,  # the shell parser: only for a hook it is needed for
        )

        for verdict in hookproof.losses(text):
            where = str(hook.get("shown"))
            reproduce = f"grep -n majordomus {shlex.quote(where)}"
            message = f"line {verdict.line} calls majordomus and can lose its exit code: "
            yield Finding("FAIL", "hooks", where, message + verdict.reason, reproduce)


def _hook(told: Hooks, name: str) -> Record:
    """A hook file as the facts stage saw it (one it did not look at is absent)."""
    found: Record = (told.get("files") or {}).get(name) or {
        "type": "absent",
        "shown": f"{told.get('dir')}/{name}",
    }
    return found


def _entry(told: Hooks, entry: Entry) -> Iterator[Judged]:
    kind, _, value = entry.wired_by.partition(":")
    if kind == "manual":
        info = Finding("INFO", CATEGORY, entry.name, f"{entry.command}: manual — unverified")
        yield info, False
        return
    handler = _HANDLERS.get(kind)
    if handler is None:
        reproduce = f"grep -n 'wired_by: {entry.wired_by}' .ai/repo/policy.yaml"
        message = f"wired_by {entry.wired_by} cannot be verified by this majordomus"
        yield fail(entry, message, reproduce), False
        return
    yield from handler(told, entry, value)


def _git_hook(told: Hooks, entry: Entry, name: str) -> Iterator[Judged]:
    hook = _hook(told, name)
    where = str(hook["shown"])
    if hook.get("type") != "file":
        yield fail(entry, f"{where} does not exist", f"ls -l {shlex.quote(where)}"), False
        return
    if not hook.get("exec"):
        yield fail(entry, f"{where} is not executable", f"ls -l {shlex.quote(where)}"), False
        return
    text = str(hook.get("text") or "")
    verdict = hookcall.proven(text, entry.declared, entry.names)
    if verdict is None:
        from mj_watch.wiring import (
            prove as hookproof,  # the shell parser: only for a hook not as printed
        )

        verdict = hookproof.prove(text, entry.declared, entry.names)
    subs = [_hook(told, sub) for sub in (told.get("subs") or {}).get(name) or []]
    if verdict.kind == "absent" and subs:
        yield from _runner(told, entry, hook, subs)
    else:
        yield _judged(told, entry, hook, verdict)


def _runner(told: Hooks, entry: Entry, hook: Record, subs: list[Record]) -> Iterator[Judged]:
    """The call lives in `<hook>.d/`: the runner and the sub-hook must both be proven."""
    from mj_watch.wiring import prove as hookproof

    verdicts = [
        (s, hookproof.prove(str(s.get("text") or ""), entry.declared, entry.names)) for s in subs
    ]
    holding = [(s, v) for s, v in verdicts if v.kind != "absent"]
    where = str(hook["shown"])
    if not holding:
        grep = f"grep -rn {shlex.quote(entry.command)} {shlex.quote(where)}*"
        yield fail(entry, f"{where} does not invoke `{entry.command}`", grep), True
        return
    proven = [(s, v) for s, v in holding if v.ok and s.get("exec")]
    sub, verdict = (proven or holding)[0]
    runner = hookproof.prove_runner(str(hook.get("text") or ""))
    if not sub.get("exec") or not verdict.ok or runner.ok:
        yield _judged(told, entry, sub, verdict)
        return
    message = f"{where}:{runner.line} runs {sub['shown']} unproven: {runner.reason}"
    yield fail(entry, f"{message}; {PROVE}", _line(where, runner.line)), True


def _judged(told: Hooks, entry: Entry, hook: Record, verdict: Verdict) -> Judged:
    where = str(hook["shown"])
    if not hook.get("exec"):
        message = f"{where} holds the call but is not executable"
        return fail(entry, message, f"ls -l {shlex.quote(where)}"), False
    if verdict.kind == "absent":
        grep = f"grep -n -e {shlex.quote(entry.command)} {shlex.quote(where)}"
        return fail(entry, f"{where} does not invoke `{entry.command}`", grep), True
    if not verdict.ok:
        what = "swallows the exit code" if verdict.kind == "swallow" else "unproven"
        message = f"{where}:{verdict.line} {what}: {verdict.reason}; {PROVE}"
        return fail(entry, message, _line(where, verdict.line)), True
    line = _text_line(str(hook.get("text") or ""), verdict.line)
    if not resolved(told, entry.path, line):
        message = f"path {entry.path} does not resolve"
        return fail(entry, message, f"command -v {shlex.quote(entry.path)}"), False
    other = another_program(told, entry.names, line)
    if other is not None:
        return fail(entry, f"{where}:{verdict.line} {other[0]}", other[1]), False
    message = f"`{entry.command}` runs from {where}:{verdict.line}"
    return Finding("OK", CATEGORY, entry.name, message), False


def _line(where: str, line: int) -> str:
    return f"sed -n {max(line, 1)}p {shlex.quote(where)}"


def _text_line(text: str, line: int) -> str:
    lines = text.splitlines()
    return lines[line - 1] if 0 < line <= len(lines) else ""


def _ci(told: Hooks, entry: Entry, value: str) -> Iterator[Judged]:
    found_file = (told.get("ci") or {}).get(value) or {}
    if found_file.get("type") != "file":
        yield fail(entry, f"{value} does not exist", f"ls -l {shlex.quote(value)}"), False
        return
    from mj_watch.wiring import ci_call as cicall

    found = cicall.find(str(found_file.get("text") or ""), entry.declared, entry.names)
    grep = f"grep -n -e {shlex.quote(entry.command)} {shlex.quote(value)}"
    if found is None:
        yield fail(entry, f"{value} does not invoke `{entry.command}`", grep), False
        return
    line, swallow = found
    if swallow:
        message = f"{value}:{line} swallows the exit code: `{swallow}` after the call"
        yield fail(entry, message, grep), False
        return
    message = f"`{entry.command}` runs from {value}:{line}"
    yield Finding("OK", CATEGORY, entry.name, message), False


def _git_config(told: Hooks, entry: Entry, key: str) -> Iterator[Judged]:
    value = (told.get("config") or {}).get(key)
    reproduce = f"git config --local --get {shlex.quote(key)}"
    if not value or "majordomus" not in value:
        message = f"git config {key} does not name majordomus ({value or 'unset'})"
        yield fail(entry, message, reproduce), False
        return
    yield Finding("OK", CATEGORY, entry.name, f"git config {key} = {value}"), False


def _pre_commit(told: Hooks, entry: Entry, hook_id: str) -> Iterator[Judged]:
    from mj_watch.wiring import precommit

    problem, detail = precommit.judge(told, hook_id, entry.declared, entry.names)
    if problem:
        yield fail(entry, problem, detail), True
        return
    yield Finding("OK", CATEGORY, entry.name, detail), False


def _provider_hook(told: Hooks, entry: Entry, value: str) -> Iterator[Judged]:
    from mj_watch.doctor.capture_check import provider_wired

    yield provider_wired(told, entry.name, value), False


def _toolchain(told: Hooks, entry: Entry, value: str) -> Iterator[Judged]:
    from mj_watch.wiring import (
        toolchain,  # the files' own readers: only for an entry that names one
    )

    yield toolchain.wired(told, entry.name, entry.declared, entry.names, value), False


_HANDLERS = {
    "git-hook": _git_hook,
    "ci": _ci,
    "toolchain": _toolchain,
    "git-config": _git_config,
    "pre-commit": _pre_commit,
    "provider-hook": _provider_hook,
}
