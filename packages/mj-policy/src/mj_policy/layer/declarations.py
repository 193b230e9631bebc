"""Workspaces and deployments as checked declarations (SCHEMAS: workspace/v1, deployment/v1):
`.ai/repo/workspaces/<id>.yaml` and `.ai/repo/deployments/<id>.yaml`, declared and nothing more
(CLI-REFERENCE Decision 14: there is no deployment machinery).

`fact` reads every declaration's text for doctor (the judge never opens the repository);
`problems` judges one: the strict YAML subset, the allow list, the schema, its id equal to its
file name, a deployment's `min_running` within its `count` — and no credential anywhere. A
value the one detector finds a credential in (`mj_core.credentials.detect`: vendors' keys and
tokens,
a URL's password, a JSON web token, …), an `Authorization`-style header value, and a key named
like a secret, are each a problem naming the file, the line and the key; the value itself is
never repeated, and no schema message about that place is shown (it could quote the value).
`workspaces_for` is what `context` says: the declared workspaces of the task's scope.
"""

from __future__ import annotations

import re

from mj_core.errors import MjError
from mj_core.schema import full as schema
from mj_core.schema import keys
from mj_core.schema import required
from mj_core.yaml import strict as yamlstrict

TYPE_CHECKING = False  # `typing` is not imported at run time on a start-up path
if TYPE_CHECKING:
    from collections.abc import Iterator
    from pathlib import Path
    from typing import Any

KINDS = {"workspace": ".ai/repo/workspaces", "deployment": ".ai/repo/deployments"}
_SKIP = ("required", "additionalProperties")
_HEADER = r"(?i)^(?:bearer|basic|token)\s+\S{8,}"  # an `Authorization` header's value
_SECRET_KEY = r"(?i)(passw(or)?d|secret|token|api[_-]?key|private[_-]?key|credential|cookie)"


def fact(root: Path) -> dict[str, Any]:
    """Every declaration's text as read (or why it could not be), in kind and name order."""
    found: list[dict[str, Any]] = []
    for kind, directory in KINDS.items():
        base = root / directory
        names = sorted(p.name for p in base.glob("*.yaml") if p.is_file()) if base.is_dir() else []
        for name in names:
            shown = f"{directory}/{name}"
            try:
                found.append({"kind": kind, "path": shown,
                              "text": yamlstrict.read_text(base / name, shown)})  # fmt: skip
            except MjError as exc:
                found.append({"kind": kind, "path": shown, "problem": exc.message})
    return {"kind": "fact", "fact": "declarations", "files": found}


def _strings(
    value: Any, path: tuple[str | int, ...]
) -> Iterator[tuple[tuple[str | int, ...], str]]:
    if isinstance(value, dict):
        for key, child in value.items():
            yield from _strings(child, (*path, key))
    elif isinstance(value, list):
        for index, child in enumerate(value):
            yield from _strings(child, (*path, index))
    elif isinstance(value, str):
        yield path, value


def _shape(text: str) -> str | None:
    from mj_core.credentials import detect as credentials

    found = credentials.find(text)
    if found:
        return found[0].kind
    return "authorization header value" if re.search(_HEADER, text) else None


def _dotted(path: tuple[str | int, ...]) -> str:
    return "".join(f"[{p}]" if isinstance(p, int) else (f".{p}" if i else p)
                   for i, p in enumerate(path))  # fmt: skip


def credentials_in(doc: yamlstrict.Document) -> list[tuple[str, str]]:
    """(where, message) for every credential-shaped value or secret-named key; never the value."""
    found = []
    for path, text in _strings(doc.data, ()):
        shape = _shape(text)
        if shape:
            message = f"{_dotted(path)}: a credential-shaped value ({shape}) — remove it; "
            found.append((doc.where(path), message + "credentials never belong in a declaration"))
    for path, _ in _keys(doc.data, ()):
        if re.search(_SECRET_KEY, str(path[-1])):
            message = f"{_dotted(path)}: a key named like a credential — remove it and its value"
            found.append((doc.where(path), message))
    return found


def _keys(value: Any, path: tuple[str | int, ...]) -> Iterator[tuple[tuple[str | int, ...], Any]]:
    if isinstance(value, dict):
        for key, child in value.items():
            yield (*path, key), child
            yield from _keys(child, (*path, key))
    elif isinstance(value, list):
        for index, child in enumerate(value):
            yield from _keys(child, (*path, index))


def problems(kind: str, shown: str, text: str) -> list[tuple[str, str]]:
    """(where, message) for every defect of one declaration, credential first."""
    try:
        doc = yamlstrict.parse(text, shown)
    except MjError as exc:
        return [(shown, unquoted(exc.message))]
    if not isinstance(doc.data, dict):
        return [(f"{shown}:1:1", "not a mapping — write `key: value` lines")]
    found = credentials_in(doc)
    secret = {where for where, _ in found}
    for where, key in keys.unknown_keys(doc, kind):
        if where not in secret:
            found.append((where, f"unknown key '{key}' (share/allow/{kind}.txt)"))
    for where, key in required.missing_keys(doc, kind):
        found.append((where, f"missing key '{key}'"))
    for where, message in schema.quick_violations(doc, kind, skip=_SKIP):
        if where not in secret:
            found.append((where, message))
    stem = shown.rsplit("/", 1)[-1].removesuffix(".yaml")
    if isinstance(doc.data.get("id"), str) and doc.data["id"] != stem:
        found.append((doc.where(("id",)), f"id {doc.data['id']} is not the file name ({stem})"))
    machines = doc.data.get("machines")
    if kind == "deployment" and isinstance(machines, dict):
        low, count = machines.get("min_running"), machines.get("count")
        if type(low) is int and type(count) is int and low > count:
            found.append((doc.where(("machines", "min_running")), "min_running is over count"))
    return found


def unquoted(message: str) -> str:
    """A parser's message, without any quoted scalar it names (it could be a secret)."""
    return re.sub(r"'[^']*'", "a value", message)


def workspaces_for(root: Path, scope: list[str]) -> dict[str, Any] | None:
    """The declared workspaces whose `scope` overlaps the task's (a valid declaration that is
    not retired; doctor names what is wrong with any other), or None when none is declared."""
    from mj_core import paths

    base = root / KINDS["workspace"]
    if not base.is_dir():
        return None
    declared, matched = 0, []
    for entry in fact(root)["files"]:
        if entry["kind"] != "workspace" or "text" not in entry:
            continue
        declared += 1
        if problems("workspace", entry["path"], entry["text"]):
            continue
        data = yamlstrict.parse(entry["text"], entry["path"]).data
        mine = [str(p) for p in data.get("scope") or []]
        if data["status"] != "retired" and any(paths.overlaps(a, b) for a in mine for b in scope):
            matched.append({"id": data["id"], "title": data["title"], "status": data["status"],
                            "vendor": data["vendor"]["name"], "url": data["upstream"]["url"],
                            "path": entry["path"]})  # fmt: skip
    return {"kind": "fact", "fact": "workspaces", "declared": declared, "matched": matched}
