"""`mj-watch facts --for ratchet`: each declared metric counted now, the accepted counts, and
every secret-shaped string in the tracked tree, as one `ratchet` fact.

The declaration (`.ai/repo/ratchet.yaml`; with an active task, as the task's head held it, and
whether it or the rules changed since: `altered`) and the baseline
(`.ai/repo/ratchet-baseline.yaml`) are read strictly (unknown keys and wrong types are 10,
naming file, line and key). A `command` metric is its argument vector run without a shell in
the repository root, with a deadline; its stdout must be one integer. A `lines-containing`
metric counts the lines of tracked files (under `under`, when given) that contain `text`. The
secret scan reads every tracked file once, with the builtin counts, and keeps where a
credential is and its kind, never the value (`mj_watch.ratchet.secret_scan`, the one detector of
`mj_core.credentials.detect`).
"""

from __future__ import annotations

import os
import re
import stat

from mj_core.errors import ContractUnmet
from mj_core.git import questions as git
from mj_core.yaml import strict as yamlstrict

TYPE_CHECKING = False  # `typing` is not imported at run time on a start-up path
if TYPE_CHECKING:
    from collections.abc import Iterator
    from pathlib import Path
    from typing import Any

    from mj_policy.layer.loader import Layer

    Record = dict[str, Any]

DECLARATION = ".ai/repo/ratchet.yaml"
BASELINE = ".ai/repo/ratchet-baseline.yaml"
COMMAND_SECONDS = 300.0
LARGEST = 4 << 20  # a tracked file larger than this is not read (a build artefact, data)


def gather(root: Path) -> Iterator[Record]:
    from mj_policy.layer.loader import load

    layer = load(root)
    then, altered = _at_start(layer)
    metrics = _declared(root, then)
    baseline = _baseline(root)
    tracked = git.ls_files(root)
    builtin = [m for m in metrics if "builtin" in m]
    counts, secrets = _read_tracked(root, tracked, builtin)
    measured = []
    for metric in metrics:
        if "command" in metric:
            count, problem = _run(root, metric["command"])
        else:
            count, problem = counts[metric["name"]], None
        measured.append({**_shown(metric), "count": count, "problem": problem})
    yield {
        "kind": "fact",
        "fact": "ratchet",
        "declared": (root / DECLARATION).is_file() if then is None else then[0] is not None,
        "metrics": measured,
        "baseline": baseline,
        "recorded": _recorded(layer),
        "secrets": secrets,
        "altered": altered,
    }


def _at_start(layer: Layer) -> tuple[tuple[str | None] | None, Record | None]:
    """With an active task: the declaration as the task's head held it (a 1-tuple, None inside
    when absent there), and `{"paths", "scope", "base"}` of the rules' files changed since its start
    (`mj_state.task.rules`); without one, (None, None): the working tree's declaration."""
    from mj_state.task import rules as startrules
    from mj_state.task import state as taskstate

    active = taskstate.read_task(layer).active
    if active is None:
        return None, None
    rules = startrules.at_start(layer, active.fields, extra=(DECLARATION,))
    scope = [str(claim) for claim in active.fields.get("scope") or []]
    return (rules.texts.get(DECLARATION),), {
        "paths": rules.changed,
        "scope": scope,
        "base": str(active.fields.get("head") or ""),
    }


def _recorded(layer: Layer) -> Record | None:
    """The counts the newest `ratchet.updated` line of this checkout's ledger records, with its
    line number: what `ratchet update` last wrote here (None when it never ran here)."""
    from mj_state.ledger import store as ledger

    for number, raw, _ in ledger.newest_first(ledger.path(layer.state)):
        if b"ratchet.updated" not in raw:
            continue
        value = ledger.parse_line(number, raw).record
        if type(value) is dict and value.get("event") == "ratchet.updated":
            counts = value.get("counts")
            return {"line": number, "counts": counts if type(counts) is dict else None}
    return None


def _declared(root: Path, then: tuple[str | None] | None) -> list[Record]:
    """The declared metrics: the working tree's, or (`then`) the text the task started under."""
    if then is not None:
        if then[0] is None:
            return []
        doc = yamlstrict.parse(then[0], DECLARATION)
        if doc.data is None:
            raise ContractUnmet(f"{DECLARATION}:1:1: empty — this file needs content")
    elif not (root / DECLARATION).is_file():
        return []
    else:
        doc = yamlstrict.load_file(root / DECLARATION, DECLARATION)
    _valid(doc, "ratchet")
    metrics: list[Record] = list(doc.data["metrics"] or [])
    seen: set[str] = set()
    for index, metric in enumerate(metrics):
        where = doc.where(("metrics", index))
        if metric["name"] in seen:
            raise ContractUnmet(f"{where}: metric {metric['name']!r} is declared twice")
        seen.add(metric["name"])
        counted = "command" in metric
        builtin = {"builtin" in metric, "text" in metric}  # both or neither, and not with `command`
        if counted in builtin or len(builtin) > 1 or (counted and "under" in metric):
            raise ContractUnmet(
                f"{where}: metric {metric['name']!r} has `command`, or `builtin` and `text` "
                "(with `under` if it wants one) — never both, never neither"
            )
    return metrics


def _baseline(root: Path) -> dict[str, int] | None:
    if not (root / BASELINE).is_file():
        return None
    doc = yamlstrict.load_file(root / BASELINE, BASELINE)
    _valid(doc, "ratchet-baseline")
    counts = dict(doc.data["counts"])
    for name, count in counts.items():
        if (
            not re.fullmatch(r"[a-z0-9][a-z0-9-]*", str(name))
            or type(count) is not int
            or count < 0
        ):
            where = doc.where(("counts", name))
            raise ContractUnmet(f"{where}: counts.{name}: a metric's name and a count of 0 or more")
    return counts


def _valid(doc: yamlstrict.Document, kind: str) -> None:
    """10 at the first violation of `kind`'s schema; jsonschema words it, imported only then."""
    from mj_core.schema import full as schema

    if not schema.quick_violations(doc, kind):
        return
    for where, message in schema.violations(doc, kind)[:1]:
        raise ContractUnmet(f"{where}: {message} — see docs/FORMATS.md (ratchet)")


def _shown(metric: Record) -> Record:
    """The metric as the judge names it: its name and how it is counted."""
    if "command" in metric:
        return {"name": metric["name"], "command": list(metric["command"])}
    how = {"builtin": metric["builtin"], "text": metric["text"]}
    return {"name": metric["name"], **how, "under": metric.get("under")}


def _read_tracked(
    root: Path, tracked: list[str], builtin: list[Record]
) -> tuple[dict[str, int], list[Record]]:
    """Each builtin metric's count and every credential (path, line, class), from one read of
    each tracked file."""
    from mj_watch.ratchet import secret_scan as secretscan

    counts = {m["name"]: 0 for m in builtin}
    needles = [(m["name"], m["text"].encode("utf-8"), _prefix(m.get("under"))) for m in builtin]
    scan = secretscan.Scan(root)
    base = str(root)
    for relative in tracked:
        data = _contents(os.path.join(base, relative))
        if data is None:
            continue
        for name, text, under in needles:
            inside = under is None or relative == under or relative.startswith(under + "/")
            if inside and text in data:
                counts[name] += sum(1 for line in data.split(b"\n") if text in line)
        scan.file(relative, data)
    scan.save()
    return counts, scan.hits


def _contents(path: str) -> bytes | None:
    """A tracked regular file's bytes (None for a link, a special file, one over LARGEST or
    gone), opened without following a link and without waiting on a pipe."""
    try:
        fd = os.open(path, os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK)
    except OSError:
        return None
    try:
        found = os.fstat(fd)
        if not stat.S_ISREG(found.st_mode) or found.st_size > LARGEST:
            return None
        return os.read(fd, found.st_size + 1)
    except OSError:
        return None
    finally:
        os.close(fd)


def _prefix(under: str | None) -> str | None:
    if under is None:
        return None
    cleaned = under.strip("/")
    return None if cleaned in ("", ".") else cleaned


def _run(root: Path, argv: list[str]) -> tuple[int | None, str | None]:
    """The metric command's count, or why there is none (it failed, or printed no integer)."""
    import subprocess

    try:
        done = subprocess.run(
            argv,
            cwd=root,
            stdin=subprocess.DEVNULL,
            capture_output=True,
            timeout=COMMAND_SECONDS,
            check=False,
        )
    except FileNotFoundError:
        return None, f"{argv[0]}: command not found"
    except subprocess.TimeoutExpired:
        return None, f"did not finish within {COMMAND_SECONDS:g} s and was stopped"
    except OSError as exc:
        return None, f"could not be run: {exc.strerror}"
    if done.returncode != 0:
        return None, f"exited {done.returncode}"
    text = done.stdout.decode("utf-8", "replace").strip()
    if not re.fullmatch(r"[0-9]{1,18}", text):
        return None, "its stdout is not one integer"
    return int(text), None
