"""The plan's lifecycle markers against the ledger: a status is derived from the markers in
the issue files (SCHEMAS), so a marker nobody's `majordomus plan` wrote would move an issue
by hand. This is where that is caught.

A marker (`started_at`, `verified_at`, `completed_at`, an `evidence` entry) counts when git
holds it — HEAD's version of the file has the same value (it reached history; a merge, a
cherry-pick or a rebase in progress brings its own head's version too) — or when this
checkout's ledger recorded the write that made it: `plan.started`, `plan.verified`,
`plan.done` of that issue at that second, or `plan.evidence` of that token at its
`recorded_at`, with the same type, command, result, artifact and commit where the line names
them. Only the issue files git reports changed, staged or untracked are read, each both as it
is on disk and as it is staged, so a file restored after `git add` hides nothing. Every other
marker is a FAIL (10) naming the file and line, the value there, and what the ledger and HEAD
hold. `cancelled` is a person's decision, written by hand by design, and leaves no issue DONE.

The reverse — a ledger event whose marker is not in the file — is not judged: the ledger is
this checkout's, across branches, and a marker written on another branch is absent here.
"""

from __future__ import annotations

from mj_core.errors import MjError
from mj_core.findings import Finding
from mj_core.git import questions as git
from mj_core.stream.stage import Stage
from mj_core.yaml import strict as yamlstrict

from mj_state.ledger import read as ledgerread
from mj_state.ledger import store as ledger

TYPE_CHECKING = False  # `typing` is not imported at run time on a start-up path
if TYPE_CHECKING:
    import argparse
    from collections.abc import Iterator
    from pathlib import Path
    from typing import Any

    from mj_core.git.run import Pending
    from mj_core.stream.stage import Context
    from mj_policy.layer.loader import Layer

MARKERS = {"started_at": "plan.started", "verified_at": "plan.verified",
           "completed_at": "plan.done"}  # fmt: skip
ACTIONS = {"plan.started": "start", "plan.verified": "verify", "plan.done": "done"}
ENTRY = ("type", "command", "result", "artifact", "commit")  # what plan.evidence carries
HEADS = ("HEAD", "MERGE_HEAD", "CHERRY_PICK_HEAD", "REBASE_HEAD")
REPRODUCE = "majordomus plan validate"


def findings(lay: Layer, changed: list[str] | None = None) -> list[Finding]:
    """A FAIL for each marker in a changed issue file that neither git nor the ledger holds
    (`changed`: the issue files git reports, when the caller has asked)."""
    if changed is None:
        base = _base(lay)
        changed = _changed(base, git.run(*_status(base), cwd=lay.root))
    if not changed:
        return []
    events = _events(lay)
    heads = _heads(lay.root)
    stored = objects(lay.root, [f"{ref}:{p}" for p in changed for ref in (*heads, "")])
    out: list[Finding] = []
    for path in changed:
        held = [_doc(stored.get(f"{ref}:{path}"), path) for ref in heads]
        committed = [d.data for d in held if d is not None and isinstance(d.data, dict)]
        seen: set[tuple[str, str]] = set()
        for doc in (_disk(lay.root, path), _doc(stored.get(f":{path}"), path)):
            if doc is not None and isinstance(doc.data, dict):
                out += [f for f in _judged(doc, committed, events) if _once(seen, f)]
    return out


def _once(seen: set[tuple[str, str]], finding: Finding) -> bool:
    key = (finding.subject, finding.message)
    fresh = key not in seen
    seen.add(key)
    return fresh


def _judged(
    doc: yamlstrict.Document, committed: list[dict[str, Any]], events: dict[Any, list[Any]]
) -> list[Finding]:
    data = doc.data
    ident = str(data.get("id"))
    out: list[Finding] = []
    for marker, event in MARKERS.items():
        value = data.get(marker)
        if value is None or any(c.get(marker) == value for c in committed):
            continue
        recorded = events.get((event, ident), [])
        if str(value) in recorded:
            continue
        head = next((str(c[marker]) for c in committed if c.get(marker) is not None), "none")
        said = ", ".join(recorded) or "none"
        message = (
            f"{ident} {marker}: {value} is in the file, but this checkout's ledger records "
            f"{event} of {ident} at {said} and HEAD holds {head} — lifecycle markers are "
            f"written by `majordomus plan {ACTIONS[event]} {ident}` only, never by hand"
        )
        out.append(Finding("FAIL", "plan", doc.where((marker,)), message, REPRODUCE))
    held = [e for c in committed for e in c.get("evidence") or []]
    for index, entry in enumerate(data.get("evidence") or []):
        if not isinstance(entry, dict) or entry in held:
            continue
        recorded = events.get(("plan.evidence", ident, str(entry.get("covers"))), [])
        if any(_same(entry, line) for line in recorded):
            continue
        said = "; ".join(_shown(line) for line in recorded) or "none"
        message = (
            f"{ident} evidence for {entry.get('covers')}: {_shown(entry, 'recorded_at')} is in "
            f"the file, but this checkout's ledger records plan.evidence of it as {said} and "
            f"HEAD holds no such entry — evidence is appended by `majordomus plan evidence "
            f"{ident}` only, never by hand"
        )
        out.append(Finding("FAIL", "plan", doc.where(("evidence", index)), message, REPRODUCE))
    return out


def _same(entry: dict[str, Any], line: dict[str, Any]) -> bool:
    """The entry is the one the line recorded: its time, and each field the line names."""
    if str(entry.get("recorded_at")) != line["ts"]:
        return False
    return all(str(entry.get(k)) == str(line[k]) for k in ENTRY if k in line)


def _shown(item: dict[str, Any], stamp: str = "ts") -> str:
    fields = [f"{k} {item[k]!r}" for k in ENTRY if k in item]
    return f"at {item.get(stamp)}" + (f" ({', '.join(fields)})" if fields else "")


def _events(lay: Layer) -> dict[Any, list[Any]]:
    """The plan lines of this checkout's ledger: the times of each marker write, and each
    evidence line, by issue (and token)."""
    out: dict[Any, list[Any]] = {}
    for line in ledgerread.read(ledger.path(lay.state)):
        record = line.record
        if record is None or not str(record.get("event", "")).startswith("plan."):
            continue
        event, ident = record["event"], str(record.get("issue"))
        if event == "plan.evidence":
            out.setdefault((event, ident, str(record.get("covers"))), []).append(record)
        else:
            out.setdefault((event, ident), []).append(str(record.get("ts")))
    return out


def _base(lay: Layer) -> str:
    return f"{lay.relative(lay.section('project'))}/issues"


def _status(base: str) -> tuple[str, ...]:
    return (*git.STATUS_ARGS, "--", f":(literal){base}")


def _changed(base: str, answer: tuple[int, str, str]) -> list[str]:
    """The issue files under `base` git's answer to `_status` reports."""
    code, said, _ = answer
    if code != 0:
        return []
    found = git.parse_status(said)
    return sorted({p for p in found if p.startswith(f"{base}/") and p.endswith(".yaml")})


def _heads(root: Path) -> tuple[str, ...]:
    """HEAD and the heads of an operation in progress (their files in the git directory)."""
    where = git.git_dir(root)
    return ("HEAD", *(h for h in HEADS[1:] if (where / h).is_file()))


def objects(root: Path, names: list[str]) -> dict[str, bytes]:
    """The bytes of each object name git holds (`HEAD:path`, `:path`), from one
    `git cat-file --batch`; a name git does not hold is left out."""
    from mj_core import spawn

    if not names:
        return {}
    argv = ["git", *git.SAFE, "-C", str(root), "cat-file", "--batch"]
    asked = "".join(f"{n}\n" for n in names).encode()
    code, data, _ = spawn.run_input(argv, git.clean_env(), asked)
    out: dict[str, bytes] = {}
    at = 0
    for name in names if code == 0 else []:
        end = data.index(b"\n", at)
        header = data[at:end].rsplit(b" ", 2)
        at = end + 1
        if len(header) != 3 or not header[2].isdigit():
            continue  # "<name> missing"
        size = int(header[2])
        out[name] = data[at : at + size]
        at += size + 1
    return out


def _doc(raw: bytes | None, path: str) -> yamlstrict.Document | None:
    if raw is None:
        return None
    try:
        return yamlstrict.parse(raw.decode("utf-8"), path)
    except (MjError, UnicodeDecodeError):
        return None  # a file that does not parse is `plan validate`'s to name


def _disk(root: Path, path: str) -> yamlstrict.Document | None:
    try:
        return yamlstrict.load_file(root / path, path)
    except (MjError, OSError):
        return None


def run(options: argparse.Namespace, context: Context) -> Iterator[dict[str, Any]]:
    """`mj-state plan-markers`: `plan validate`'s findings passed on, then a FAIL for each
    marker neither git nor the ledger holds (an OK naming how many changed files were read).
    Git is asked while the upstream stage works (that stage only reads the plan)."""
    from mj_policy.layer.loader import load

    early = _early(context)
    try:
        yield from context.records(options.input)
    except BaseException:
        if early is not None:
            early[1].reap()
        raise
    lay = early[0] if early is not None else load(context.root())
    base = _base(lay)
    answer = early[1].wait()[0] if early is not None else git.run(*_status(base), cwd=lay.root)
    changed = _changed(base, answer)
    found = findings(lay, changed)
    yield from (f.record() for f in found)
    if not found and changed:
        said = f"{len(changed)} changed issue file(s): every lifecycle marker is git's or "
        said += "this checkout's ledger's"
        yield Finding("OK", "plan", base, said).record()


def _early(context: Context) -> tuple[Layer, Pending] | None:
    """The layer, and `git status` of its issue files begun; None when the layer does not load
    (it is loaded again after the upstream stage, as ever, to say why)."""
    from mj_policy.layer.loader import load

    try:
        lay = load(context.root())
        return lay, git.begin([(_status(_base(lay)), lay.root)])
    except (MjError, OSError):
        return None


STAGES = {"plan-markers": Stage(run)}
