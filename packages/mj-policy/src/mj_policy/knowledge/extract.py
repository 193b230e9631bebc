"""What one source file states: its node and the references it makes, each with provenance.

The node's id is canonical (`issue:I0801`, `rule:<id>`, `profile:<name>`, …) when its class
and declared fields give one, else `document:<path>`; never a hash. Its title is `title`, else
`description`, else the first H1, else empty. A reference is either declared (a field naming
another node or a file: a missing target is a FAIL) or a Markdown link (a dead one is a WARN).
The result depends only on the file's path, class kind and bytes, so it is cached by blob id.
"""

from __future__ import annotations

import posixpath

from mj_core.errors import MjError
from mj_core.yaml import strict as yamlstrict

from mj_policy.knowledge import mdlinks

TYPE_CHECKING = False  # `typing` is not imported at run time on a start-up path
if TYPE_CHECKING:
    from typing import Any

    Record = dict[str, Any]

# the node kinds a class may declare, and how each names its node
KNOWN = frozenset(
    ("document", "context", "policy", "profile", "rule", "prompt", "skill", "adr", "knowledge",
     "issue", "milestone", "handover", "checkpoint", "decisions", "questions", "workspace",
     "deployment")
)  # fmt: skip
FRONT_ID = {"context": "context", "rule": "rule", "adr": "adr", "knowledge": "knowledge"}
FIELD_ID = {"issue": "id", "milestone": "id", "profile": "name", "workspace": "id",
            "deployment": "id"}  # fmt: skip
STEM_ID = {"policy", "prompt"}
EDGE_TYPES = ("part_of", "depends_on", "declares", "specified_by", "implemented_by",
              "tested_by", "supports", "references")  # fmt: skip


def _stem(path: str) -> str:
    return posixpath.splitext(posixpath.basename(path))[0]


def _split(text: str, path: str) -> tuple[yamlstrict.Document | None, str, int]:
    if not text.startswith("---\n") and not text.startswith("---\r\n"):
        return None, text, 1
    doc, body, first = yamlstrict.split_front_matter(text, path)
    return doc, body, first


def extract(path: str, kind: str, text: str) -> Record:
    """{node, refs, problems} of one file (JSON-native, so it can be cached as it is)."""
    problems: list[Record] = []
    refs: list[Record] = []
    doc: yamlstrict.Document | None = None
    body, first = "", 1
    try:
        if path.endswith(".md"):
            doc, body, first = _split(text, path)
        elif path.endswith((".yaml", ".yml")):
            doc = yamlstrict.parse(text, path)
    except MjError as exc:
        problems.append({"level": "WARN", "subject": path,
                         "message": f"not read as knowledge: {exc.message}"})  # fmt: skip
        doc = None
    data = doc.data if doc is not None and isinstance(doc.data, dict) else {}
    node_kind = kind if kind in KNOWN else "unknown"
    if node_kind == "unknown":
        problems.append({"level": "WARN", "subject": path,
                         "message": f"class kind '{kind}' is not a node kind this tool knows: "
                                    "kind unknown"})  # fmt: skip
    ident = _ident(path, node_kind, data)
    title = next((str(data[k]) for k in ("title", "description") if isinstance(data.get(k), str)),
                 "") or (mdlinks.heading(body) if body else "")  # fmt: skip
    node = {"id": ident, "node_kind": node_kind, "path": path, "title": title}
    if doc is not None:
        refs.extend(_declared(node_kind, doc, data))
        if node_kind == "knowledge":
            problems.extend(_refused(doc, data))
    for line, written, target in mdlinks.links(body, first) if body else ():
        refs.append({"type": "references", "to": "file", "target": _join(path, target),
                     "ref": written, "line": line, "declared": False})  # fmt: skip
    return {"node": node, "refs": refs, "problems": problems}


def _ident(path: str, kind: str, data: Record) -> str:
    if kind in FRONT_ID and isinstance(data.get("id"), str) and data["id"]:
        return f"{FRONT_ID[kind]}:{data['id']}"
    if kind in FIELD_ID and isinstance(data.get(FIELD_ID[kind]), str) and data[FIELD_ID[kind]]:
        return f"{kind}:{data[FIELD_ID[kind]]}"
    if kind in STEM_ID:
        return f"{kind}:{_stem(path)}"
    if kind == "skill":
        return f"skill:{posixpath.basename(posixpath.dirname(path))}"
    return f"document:{path}"


def _join(path: str, target: str) -> str:
    joined = posixpath.normpath(posixpath.join(posixpath.dirname(path), target))
    return "" if joined.startswith("../") or joined == ".." else joined.removeprefix("./")


def _ref(doc: yamlstrict.Document, field: tuple[Any, ...], *how: str) -> Record:
    """A declared reference: `how` is (edge type, `node` or `file`, target, as written)."""
    kind, to, target, written = how
    shown = ".".join(str(p) if isinstance(p, str) else f"[{p}]" for p in field).replace(".[", "[")
    return {"type": kind, "to": to, "target": target, "ref": written,
            "line": doc.line(field), "field": shown, "declared": True}  # fmt: skip


def _strings(data: Record, key: str) -> list[tuple[int, str]]:
    values = data.get(key)
    if not isinstance(values, list):
        return []
    return [(i, v) for i, v in enumerate(values) if isinstance(v, str) and v]


def _declared(kind: str, doc: yamlstrict.Document, data: Record) -> list[Record]:
    out: list[Record] = []
    if kind == "issue":
        if isinstance(data.get("milestone"), str) and data["milestone"]:
            m = data["milestone"]
            out.append(_ref(doc, ("milestone",), "part_of", "node", f"milestone:{m}", m))
        for i, dep in _strings(data, "depends_on"):
            out.append(_ref(doc, ("depends_on", i), "depends_on", "node", f"issue:{dep}", dep))
    elif kind == "rule":
        for i, dep in _strings(data, "depends_on"):
            ident = dep.split("@", 1)[0]  # `id@version`: the node is the rule's id
            out.append(_ref(doc, ("depends_on", i), "depends_on", "node", f"rule:{ident}", dep))
    elif kind == "context":
        for i, other in _strings(data, "supersedes"):
            out.append(
                _ref(doc, ("supersedes", i), "references", "node", f"context:{other}", other)
            )
        for i, tracked in _strings(data, "tracks"):
            target = tracked.rstrip("/")
            out.append(_ref(doc, ("tracks", i), "supports", "file", target, tracked))
    elif kind == "knowledge":
        out.extend(_relations(doc, data))
    return out


def _relations(doc: yamlstrict.Document, data: Record) -> list[Record]:
    out: list[Record] = []
    relations = data.get("relations")
    for i, item in enumerate(relations if isinstance(relations, list) else []):
        if not isinstance(item, dict) or item.get("type") not in EDGE_TYPES:
            continue
        target = item.get("target")
        if not isinstance(target, str) or ":" not in target:
            continue
        if target.startswith("file:"):
            path = target[len("file:") :]
            out.append(_ref(doc, ("relations", i, "target"), item["type"], "file", path, target))
        else:
            out.append(_ref(doc, ("relations", i, "target"), item["type"], "node", target, target))
    return out


def _refused(doc: yamlstrict.Document, data: Record) -> list[Record]:
    """A relation that is not an edge: a type outside the closed set, or no `<kind>:` target
    (WARN: the note says it, the graph does not carry it)."""
    out: list[Record] = []
    relations = data.get("relations")
    for i, item in enumerate(relations if isinstance(relations, list) else []):
        kind = item.get("type") if isinstance(item, dict) else None
        target = item.get("target") if isinstance(item, dict) else None
        if kind in EDGE_TYPES and isinstance(target, str) and ":" in target:
            continue
        why = (f"type {kind!r} is not one of {', '.join(EDGE_TYPES)}" if kind not in EDGE_TYPES
               else f"target {target!r} names no `<kind>:` or `file:`")  # fmt: skip
        at = f"{doc.name}:{doc.line(('relations', i))}"
        out.append(
            {"level": "WARN", "subject": at, "message": f"relations[{i}]: {why} — not an edge"}
        )
    return out
