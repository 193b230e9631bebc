"""Obligations: the tokens a task promises (`start --requires`) and what discharges each.

The vocabulary is `share/obligations.yaml`. A token with `inputs` is discharged by a
`task.evidence` ledger line (`evidence --covers`) whose result is `pass` and whose
`inputs_hash` — SHA-256 over the path and working-tree bytes of every tracked file the token
names, in path order — still equals the hash recomputed now: a change to any of those files
makes the evidence stale. A `bound` token's evidence holds while HEAD is the commit it was
recorded at. A `settled` token is judged live at finish (commit, push: from git here; verify:
the finish's own verification), whatever was recorded for it.

`facts` is what the finish contract's `obligations_covered` line judges: one entry per
promised token, with its state (covered, stale, failed, uncovered, settled, unsettled, or
verify — left to the verification's verdict) and the ledger line that decided it.
"""

from __future__ import annotations

from mj_core import share
from mj_core.errors import InternalError
from mj_core.errors import UsageError
from mj_core.git import questions as git
from mj_core.yaml import strict as yamlstrict

TYPE_CHECKING = False  # `typing` is not imported at run time on a start-up path
if TYPE_CHECKING:
    from pathlib import Path
    from typing import Any

    from mj_policy.layer.loader import Layer

    Record = dict[str, Any]

_KEYS = {"help", "inputs", "settled", "bound"}
_loaded: dict[str, Record] | None = None


def vocabulary() -> dict[str, Record]:
    """token → its declaration, from share/obligations.yaml (a malformed file is 13: it ships)."""
    global _loaded
    if _loaded is None:
        doc = yamlstrict.parse(share.read_text("obligations.yaml"), "share/obligations.yaml")
        data = doc.data if isinstance(doc.data, dict) else {}
        tokens = data.get("tokens")
        if data.get("version") != 1 or not isinstance(tokens, dict):
            raise InternalError("share/obligations.yaml: version 1 with a tokens mapping expected")
        for name, spec in tokens.items():
            kinds = [k for k in ("inputs", "settled", "bound") if k in (spec or {})]
            if not isinstance(spec, dict) or set(spec) - _KEYS or len(kinds) != 1:
                raise InternalError(f"share/obligations.yaml: tokens.{name}: malformed")
        _loaded = dict(tokens)
    return _loaded


def checked(text: str | list[str], what: str) -> list[str]:
    """Tokens from a comma-separated text (or a list), each in the vocabulary; else 2."""
    given = text if isinstance(text, list) else [t.strip() for t in text.split(",")]
    known = vocabulary()
    out: list[str] = []
    for token in given:
        if token not in known:
            listed = ", ".join(known)
            raise UsageError(f"{what} {token!r}: not an obligation token ({listed})")
        if token not in out:
            out.append(token)
    return out


def inputs(layer: Layer, task: Record, token: str) -> list[str]:
    """The tracked files `token` names, sorted."""
    specs: list[str] = []
    for spec in vocabulary()[token]["inputs"]:
        if spec == "@scope":
            specs += [f":(literal){p}" for p in task.get("scope") or []]
        elif spec == "@projections":
            targets = [p.get("target") for p in layer.policy.data.get("projections") or []]
            specs += [f":(literal){t}" for t in targets if isinstance(t, str)]
        else:
            specs.append(spec)
    return sorted(set(git.ls_files(layer.root, *specs))) if specs else []


def inputs_hash(root: Path, names: list[str]) -> str:
    """SHA-256 over each file's path, NUL, length, NUL and bytes (a file gone: its path and
    `-`), in the order given."""
    import hashlib

    digest = hashlib.sha256()
    for name in names:
        digest.update(name.encode("utf-8", "surrogateescape") + b"\0")
        try:
            data = (root / name).read_bytes()
        except OSError:
            digest.update(b"-\0")
            continue
        digest.update(str(len(data)).encode() + b"\0" + data)
    return "sha256:" + digest.hexdigest()


def current_hash(layer: Layer, task: Record, token: str) -> str:
    return inputs_hash(layer.root, inputs(layer, task, token))


def evidence_lines(layer: Layer, task_id: str) -> list[tuple[int, Record]]:
    """(line number, value) of the task's `task.evidence` lines, oldest first."""
    from mj_state.ledger import scan as ledgerscan
    from mj_state.ledger import store as ledger

    rows = ledgerscan.task_rows(ledger.path(layer.state))
    return [
        (number, value)
        for number, value in rows
        if type(value) is dict
        and value.get("event") == "task.evidence"
        and value.get("task_id") == task_id
    ]


def facts(layer: Layer, task: Record, head: str) -> list[Record]:
    """One entry per token the task promised: its state and what decided it."""
    promised = [t for t in task.get("requires") or [] if t in vocabulary()]
    if not promised:
        return []
    lines = evidence_lines(layer, str(task["id"]))
    out = []
    for token in promised:
        spec = vocabulary()[token]
        newest = next((n for n in reversed(lines) if n[1].get("covers") == token), None)
        entry: Record = {"token": token, "line": newest[0] if newest else None}
        if "settled" in spec:
            entry.update(_settled(layer, task, str(spec["settled"]), head))
        elif newest is None:
            entry.update(state="uncovered", why="no evidence recorded")
        elif newest[1].get("result") != "pass":
            entry.update(
                state="failed", why=f"the newest evidence's result is {newest[1].get('result')!r}"
            )
        elif "bound" in spec:
            at = newest[1].get("head")
            fresh = at == head
            entry.update(state="covered" if fresh else "stale", why=f"recorded at {str(at)[:12]}")
        else:
            now = current_hash(layer, task, token)
            fresh = newest[1].get("inputs_hash") == now
            entry.update(
                state="covered" if fresh else "stale",
                why="its input files changed" if not fresh else "inputs unchanged",
            )
        out.append(entry)
    return out


def _settled(layer: Layer, task: Record, how: str, head: str) -> Record:
    root = layer.root
    if how == "verify":
        return {"state": "verify", "why": "the finish's verification decides"}
    if how == "commit":
        scope = [f":(literal){p}" for p in task.get("scope") or []]
        code, out, _ = git.run(
            "status", "--porcelain", "--untracked-files=all", "--", *scope, cwd=root
        )
        start = str(task.get("head") or "")  # an active task's head is its start
        if code != 0:
            return {"state": "unsettled", "why": "git status failed"}
        if out.strip():
            return {"state": "unsettled", "why": "changes in scope are not committed"}
        if start and head == start:
            return {"state": "unsettled", "why": "no commit since the task started"}
        return {"state": "settled", "why": "every change in scope is committed"}
    code, out, _ = git.run("rev-list", "--count", "@{upstream}..HEAD", cwd=root)
    if code != 0:
        return {"state": "unsettled", "why": "the branch has no upstream"}
    if out.strip() != "0":
        return {"state": "unsettled", "why": f"{out.strip()} commit(s) not on the upstream"}
    return {"state": "settled", "why": "HEAD is on its upstream"}
