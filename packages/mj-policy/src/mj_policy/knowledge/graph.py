"""The graph from what every source file states: nodes, edges with provenance, findings.

A reference to a node resolves by id; one to a file resolves to the node whose source it is,
else to `file:<path>` when git tracks it (or tracks something below it). A declared reference
that resolves to nothing is a FAIL; a dead Markdown link a WARN. Two files giving one node id
is a FAIL (so `nodes` and `edges` both end 10). A target in the ledger or in git (a session,
decision, task or commit) is external: the graph neither carries nor judges it, and
`mj_state.records.refs` resolves it. Nodes, edges and findings come out sorted, so
two runs over one index say the same lines in the same order.
"""

from __future__ import annotations

from mj_core.wildmatch import wildmatch

TYPE_CHECKING = False  # `typing` is not imported at run time on a start-up path
if TYPE_CHECKING:
    from typing import Any

    Record = dict[str, Any]

CHECK = "majordomus knowledge check"
EXTERNAL = ("session", "decision", "task", "commit")  # targets outside the graph (SCHEMAS)


def _below(tracked: list[str], path: str) -> bool:
    """Whether git tracks something strictly below directory `path` (tracked is sorted)."""
    import bisect

    prefix = path.rstrip("/") + "/"
    at = bisect.bisect_left(tracked, prefix)
    return at < len(tracked) and tracked[at].startswith(prefix)


def build(files: list[Record], extracted: list[Record], tracked: list[str]) -> Record:
    """{nodes, edges, findings} of the source files (`files[i]` was read into `extracted[i]`)."""
    nodes: dict[str, Record] = {}
    by_path: dict[str, str] = {}
    findings: list[Record] = []
    for meta, got in zip(files, extracted, strict=True):
        node = dict(got["node"], **{"class": meta["class"], "scope": meta["scope"]})
        findings.extend(got["problems"])
        ident = node["id"]
        if ident in nodes:
            findings.append({"level": "FAIL", "subject": meta["path"],
                             "message": f"duplicate node id {ident}: {nodes[ident]['path']} "
                                        "gives it too — one file, one id"})  # fmt: skip
            continue
        nodes[ident] = node
        by_path[meta["path"]] = ident
    known = set(tracked)
    edges: list[Record] = []
    for meta, got in zip(files, extracted, strict=True):
        source = by_path.get(meta["path"])
        if source is None:
            continue
        for ref in got["refs"]:
            if ref["to"] == "node" and ref["target"].partition(":")[0] in EXTERNAL:
                continue  # the ledger's or git's: `mj_state.records.refs` resolves it
            target = _resolve(ref, nodes, by_path, known, tracked)
            where = {"path": meta["path"], "line": ref["line"]}
            if "field" in ref:
                where["field"] = ref["field"]
            if target is None:
                findings.append(_dangling(ref, meta["path"], where))
                continue
            edges.append({"kind": "edge", "type": ref["type"], "source": source,
                          "target": target, "ref": ref["ref"], "provenance": where})  # fmt: skip
    ordered = [dict(kind="node", **nodes[i]) for i in sorted(nodes)]
    edges.sort(key=lambda e: (e["source"], e["type"], e["target"], e["provenance"]["line"]))
    findings.sort(key=lambda f: (f["subject"], f["message"]))
    return {"nodes": ordered, "edges": edges, "findings": findings}


def _resolve(ref: Record, nodes: dict[str, Record], by_path: dict[str, str], known: set[str],
             tracked: list[str]) -> str | None:  # fmt: skip
    target = ref["target"]
    if ref["to"] == "node":
        return target if target in nodes else None
    if not target:
        return None
    if target in by_path:
        return by_path[target]
    if target in known or _below(tracked, target):
        return f"file:{target}"
    if ref["declared"] and any(c in target for c in "*?["):
        pattern = wildmatch(target)
        if any(pattern.match(p) for p in tracked):
            return f"file:{target}"
    return None


def _dangling(ref: Record, path: str, where: Record) -> Record:
    at = f"{path}:{where['line']}"
    if ref["declared"]:
        return {"level": "FAIL", "subject": at,
                "message": f"{where['field']} names {ref['ref']}, which is not "
                           f"{'a node' if ref['to'] == 'node' else 'a tracked file'} — "
                           "fix the reference or add its target"}  # fmt: skip
    target = ref["target"] or ref["ref"]
    return {"level": "WARN", "subject": at,
            "message": f"dead link {ref['ref']}: {target} is not tracked by git"}  # fmt: skip


def findings_of(found: list[Record], problems: list[Record]) -> list[Record]:
    """Every finding as a record: the index's problems, then the graph's."""
    from mj_core.findings import Finding

    out = []
    for item in [*problems, *found]:
        again = CHECK if item["level"] == "FAIL" else None
        said = Finding(item["level"], "knowledge", item["subject"], item["message"], again)
        out.append(said.record())
    return out
