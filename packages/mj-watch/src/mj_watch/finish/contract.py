"""The finish contract: pure judges from facts to one finding per line, in policy order.

`facts` is a JSON-native mapping gathered by `mj_state.finish.steps.facts` (scope, the verification
run, the state label, blockers, the note, profile flags). Each key of
`verification.finish_requires` names one judge; a key no judge defines is itself a failing line.
Profile extras (`regression_test_required`, `decision_record_required`) apply to `completed`.
Every line is `pass`, `fail` or `skipped`, and a failing line names its blocking doctrine — but
an outcome that ends the task without claiming it done (`blocked`, `no_match`, `failed`) can
always be recorded: its failing scope line is `recorded` (a WARN; `fail` in the ledger's
contract), and the paths outside the scope go onto the finish instead of refusing it.
"""

from __future__ import annotations

from mj_core import paths
from mj_core.findings import Finding

TYPE_CHECKING = False  # `typing` is not imported at run time on a start-up path
if TYPE_CHECKING:
    from collections.abc import Callable
    from typing import Any

    Facts = dict[str, Any]

TEST_MARKS = ("test/", "tests/", "spec/", "_test.", ".spec.", "test_")


class Line:
    """One line of the contract: its key, the doctrine it enforces, and the verdict."""

    __slots__ = ("doctrine", "finding", "key", "status")

    def __init__(self, key: str, doctrine: str, status: str, finding: Finding) -> None:
        self.key = key
        self.doctrine = doctrine
        self.status = status  # pass | fail | skipped | recorded (failed, and not refusing)
        self.finding = finding


class Judge:
    """How one contract key is judged, and for which outcomes."""

    __slots__ = ("category", "doctrine", "outcomes", "run")

    def __init__(
        self,
        doctrine: str,
        category: str,
        run: Callable[[Facts], tuple[bool, str, str]],  # (passed, message, reproduce)
        outcomes: tuple[str, ...],  # the outcomes this line applies to
    ) -> None:
        self.doctrine = doctrine
        self.category = category
        self.run = run
        self.outcomes = outcomes


def _scope(f: Facts) -> tuple[bool, str, str]:
    claims = ", ".join(f["scope"])
    repro = (
        f"git status --porcelain --untracked-files=all; git diff --name-only {f['base'][:7]} HEAD"
    )
    pushed = f.get("pushed")  # `--check`: the commits a push sends, never the working tree
    if pushed:
        repro = str(pushed["reproduce"])
    outside = outside_scope(f)
    if outside:
        shown = ", ".join(outside[:5]) + (" …" if len(outside) > 5 else "")
        unlike = [str(path) for path, _ in f.get("unlike") or [] if path in outside]
        stale = f"; {', '.join(unlike[:3])} not as majordomus writes it" if unlike else ""
        where = f" (in {pushed['what']})" if pushed else ""
        layer = next((paths.unclaimed_why(p) for p in outside if paths.unclaimed_why(p)), "")
        return False, f"{shown}{where} — outside claimed scope ({claims}){stale}{layer}", repro
    own = len(f.get("own") or [])
    mine = f" ({own} written by majordomus as it writes them)" if own else ""
    where = f" in {pushed['what']}" if pushed else ""
    return True, f"{len(f['touched'])} file(s){where}, all within {claims}{mine}", repro


def outside_scope(f: Facts) -> list[str]:
    """The touched paths no claim, no always-allowed path and no own write of the tool holds."""
    claims_and_allowed = [*f["scope"], *(f.get("allowed") or [])]
    own = set(f.get("own") or [])
    return [p for p in f["touched"] if p not in own and not paths.claimed(p, claims_and_allowed)]


def _verification(f: Facts) -> tuple[bool, str, str]:
    run = f.get("verify")
    again = f"majordomus finish --outcome {f['outcome']}"
    if f.get("verify_problem"):
        repro = "grep -n -A6 '^verification:' .ai/repo/policy.yaml"
        return False, str(f["verify_problem"]), repro
    if not run or not run.get("runs"):
        return False, "no --verify-command given; the tool must run the verification", again
    failed = next((r for r in run["runs"] if r["exit"] != 0), run["runs"][-1])
    command = failed["command"]
    repro = f"{command}; echo exit=$?"
    if failed.get("error"):
        return False, f"{command} — could not run ({failed['error']})", repro
    if run["exit"] != 0:
        return False, f"{command} — exit {failed['exit']}, {failed['seconds']}s", repro
    shown = run["command"]
    return True, f"{shown} — exit 0, {run['seconds']}s", f"{shown.replace('; ', ' && ')}; echo $?"


def _state(f: Facts) -> tuple[bool, str, str]:
    state = f["state"]
    short = state["recorded_head"][:7]
    repro = f"git merge-base --is-ancestor {short} HEAD; echo $?"
    passed = state["label"] in ("exact", "advanced")
    return passed, f"{state['label']} (head {short})", repro


def _blockers(f: Facts) -> tuple[bool, str, str]:
    path = f["paths"]["questions"]
    ledger = ".ai/local/state/ledger.jsonl"
    if f["question_problems"]:
        bad = f["question_problems"][0]
        more = (
            f" (+{len(f['question_problems']) - 1} more)" if len(f["question_problems"]) > 1 else ""
        )
        text = f"{bad['where']}: {bad['message']}{more} — the gate cannot be read, so it is shut"
        return False, text, f"grep -n 'resolved' {path}; grep -n question {ledger}"
    if f["blockers"]:
        first = f["blockers"][0]
        more = f" (+{len(f['blockers']) - 1} more)" if len(f["blockers"]) > 1 else ""
        text = f'{first["where"]}: "{first["question"]}" unresolved{more}'
        return False, text, f"majordomus question list --task {f['task_id']}"
    return True, "none open", f"majordomus question list --task {f['task_id']}"


def note_needs(f: Facts) -> list[str]:
    if f["outcome"] == "completed":
        return list(f["required_sections"])
    return ["Next Action"] if f["outcome"] in ("partial", "blocked") else ["Reason"]


def _note(f: Facts) -> tuple[bool, str, str]:
    note = f["note"]
    repro = "majordomus handover --resolve"
    if not note["source"]:
        return False, f"no handover for {f['task_id']} and no --note", repro
    missing = [s for s in note_needs(f) if s not in note["sections"]]
    if missing:
        listed = ", ".join(f"# {s}" for s in missing)
        return False, f"{note['source']} lacks {listed}", f"grep -n '^# ' {note['path']}"
    return True, note["source"], repro


def _regression(f: Facts) -> tuple[bool, str, str]:
    tests = [p for p in f["touched"] if any(mark in p for mark in TEST_MARKS)]
    repro = (
        f"git status --porcelain --untracked-files=all; git diff --name-only {f['base'][:7]} HEAD"
    )
    if tests:
        return True, f"test touched: {tests[0]}", repro
    return False, "profile requires a regression test; no touched path looks like a test", repro


def _decision(f: Facts) -> tuple[bool, str, str]:
    path = f["paths"]["decisions"]
    repro = f"grep -n 'Task: {f['task_id']}' {path}"
    if f["decision_recorded"]:
        return True, f"{path} has an entry for {f['task_id']}", repro
    lacking = f.get("decision_unrecorded") or []
    if lacking:  # written by hand: no `decision add` recorded it
        said = f"{lacking[0]} names {f['task_id']} but has no decision.recorded line in the ledger"
        return False, f"profile requires a decision record; {said}", repro
    return False, f"profile requires a decision record; none names {f['task_id']}", repro


def _obligations(f: Facts) -> tuple[bool, str, str]:
    """Each promised obligation covered by fresh evidence, or settled live (CLI-REFERENCE
    §2.12); `verify` is the verification's own verdict."""
    repro = f"majordomus history --task {f['task_id']} --event task.evidence --all"
    open_ = []
    for entry in f["obligations"]:
        state = entry["state"]
        if state == "verify":
            state = "settled" if _verification(f)[0] else "unsettled"
        if state not in ("covered", "settled"):
            where = f", line {entry['line']}" if entry.get("line") else ""
            open_.append(f"{entry['token']} {state} ({entry['why']}{where})")
    if open_:
        return False, "; ".join(open_), repro
    tokens = ", ".join(e["token"] for e in f["obligations"])
    return True, f"{len(f['obligations'])} obligation(s) met: {tokens}", repro


ALL = ("completed", "partial", "blocked", "no_match", "failed")
ABANDON = ("blocked", "no_match", "failed")  # a scope line failing there is recorded, not refused
JUDGES: dict[str, Judge] = {
    "scope_respected": Judge("majordomus.scope-integrity", "scope", _scope, ALL),
    "verification_ran": Judge(
        "majordomus.verification-ran", "verification", _verification, ("completed",)
    ),
    "state_updated": Judge("majordomus.state-freshness", "state", _state, ALL),
    "no_open_blockers": Judge(
        "majordomus.blocker-resolution",
        "blockers",
        _blockers,
        tuple(o for o in ALL if o != "blocked"),
    ),
    "note_present": Judge("majordomus.note-present", "note", _note, ALL),
}
EXTRAS: dict[str, Judge] = {
    "regression_test_required": Judge(
        "majordomus.regression-test-required", "regression", _regression, ("completed",)
    ),
    "decision_record_required": Judge(
        "majordomus.decision-record-required", "decision", _decision, ("completed",)
    ),
}
OBLIGATIONS = Judge("majordomus.obligations-covered", "obligations", _obligations, ("completed",))
CHECK_ONLY = ("scope_respected", "state_updated")


def evaluate(facts: Facts) -> list[Line]:
    """Every contract line for `facts`, in `finish_requires` order, then the profile extras."""
    keys = list(facts["finish_requires"])
    check_only = bool(facts.get("check_only"))
    if check_only:
        keys = [key for key in keys if key in CHECK_ONLY or key not in JUDGES]
    completed = facts["outcome"] == "completed" and not check_only
    if completed and facts["profile"].get("verify_command_required"):
        keys += [] if "verification_ran" in keys else ["verification_ran"]
    lines = [_distrusted(finding) for finding in facts.get("trust") or []]
    lines += [line(key, JUDGES[key], facts) if key in JUDGES else _unknown(key) for key in keys]
    for key, judge in EXTRAS.items():
        if completed and facts["profile"].get(key):
            lines.append(line(key, judge, facts))
    if completed and facts.get("obligations"):  # the task promised some (start --requires)
        lines.append(line("obligations_covered", OBLIGATIONS, facts))
    return lines


def line(key: str, judge: Judge, facts: Facts) -> Line:
    """One contract line: skipped for an outcome the judge does not apply to, else judged."""
    subject = str(facts["task_id"])
    if facts["outcome"] not in judge.outcomes:
        message = f"not required for outcome {facts['outcome']}"
        return Line(
            key, judge.doctrine, "skipped", Finding("INFO", judge.category, subject, message)
        )
    passed, message, repro = judge.run(facts)
    if not passed and key == "scope_respected" and records_scope(facts):
        said = f"{message}; recorded on the finish (outcome {facts['outcome']})"
        finding = Finding("WARN", judge.category, subject, said, repro)
        return Line(key, judge.doctrine, "recorded", finding)
    finding = Finding("OK" if passed else "FAIL", judge.category, subject, message, repro)
    return Line(key, judge.doctrine, "pass" if passed else "fail", finding)


def records_scope(facts: Facts) -> bool:
    """Whether a scope line failing is recorded on the finish rather than refusing it."""
    return facts["outcome"] in ABANDON and not facts.get("check_only")


def _distrusted(found: dict[str, Any]) -> Line:
    """A FAIL on the task's record itself (a copy departing from the ledger, a broken chain):
    the state doctrine's, whatever the outcome claimed."""
    finding = Finding(
        "FAIL", found["category"], found["subject"], found["message"], found["reproduce"]
    )
    return Line("state_updated", "majordomus.state-freshness", "fail", finding)


def _unknown(key: str) -> Line:
    finding = Finding(
        "FAIL",
        "policy",
        "verification.finish_requires",
        f"{key!r} — no doctrine defines this check, so the contract cannot be evaluated",
        "grep -n -A8 'finish_requires' .ai/repo/policy.yaml",
    )
    return Line(key, f"finish_requires:{key}", "fail", finding)


def blocking(lines: list[Line]) -> list[str]:
    """The doctrine ids of failing lines, once each, in line order."""
    return list(dict.fromkeys(line.doctrine for line in lines if line.status == "fail"))


def verdicts(lines: list[Line]) -> dict[str, str]:
    """doctrine id → pass | fail | skipped, as the ledger's `task.finished.contract` records it
    (a doctrine with several lines fails when any of them does)."""
    out: dict[str, str] = {}
    for line in lines:
        if out.get(line.doctrine) != "fail":
            out[line.doctrine] = "fail" if line.status == "recorded" else line.status
    return out


def recorded(lines: list[Line], facts: Facts) -> list[str]:
    """The paths outside the scope a finish records (none unless its scope line is recorded)."""
    if not any(line.status == "recorded" for line in lines):
        return []
    return outside_scope(facts)
