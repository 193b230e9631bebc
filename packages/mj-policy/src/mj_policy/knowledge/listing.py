"""The graph's records as a person reads them, and the edge listing kept written.

`line` is the one text form of a `source`, `node` or `edge` record (the dispatcher's renderer
uses it). `edge_listing` writes every edge once as the JSON Lines a tool emits and as those
text lines; the cache keeps both, so an unchanged index lists its edges by copying bytes
(`mj_core.stream.protocol.written`), never rebuilding an object an edge. `of_type` keeps the lines
of
one edge type: a JSON line starts `{"kind":"edge","type":"<type>",` (the record's key order).
"""

from __future__ import annotations

from mj_core.sanitise import ESCAPE  # how the tools' text streams print an undecodable name

TYPE_CHECKING = False  # `typing` is not imported at run time on a start-up path
if TYPE_CHECKING:
    from typing import Any

    Record = dict[str, Any]


def edge(row: list[Any]) -> Record:
    """The `edge` record of one packed row (`cache.pack`)."""
    kind, source, target, ref, path, line_number, field = row
    where: Record = {"path": path, "line": line_number}
    if field is not None:
        where["field"] = field
    return {"kind": "edge", "type": kind, "source": source, "target": target, "ref": ref,
            "provenance": where}  # fmt: skip


def line(record: Record) -> str:
    """One record as the line a person reads (without its newline)."""
    kind = record.get("kind")
    if kind == "source":
        return (
            f"{record['class']} {record['scope']} {record['node_kind']} "
            f"{record['blob'][:12]} {record['path']}"
        )
    if kind == "node":
        title = f"  {record['title']}" if record["title"] else ""
        return f"{record['id']}  {record['node_kind']}  {record['path']}{title}"
    where = record["provenance"]
    field = f" ({where['field']})" if "field" in where else ""
    return (
        f"{record['source']} {record['type']} {record['target']}  "
        f"{where['path']}:{where['line']}{field}"
    )


def edge_listing(rows: list[list[Any]]) -> tuple[bytes, bytes]:
    """(the JSON Lines, the text lines) of every edge row, in the rows' order; the text as a
    text stream of the tools writes it (`sanitise.ESCAPE`: an undecodable byte reads `\\xNN`)."""
    from mj_core import sanitise
    from mj_core.stream import jsonl

    sanitise.register()  # the text is the bytes a text stream of the tools would write
    records = [edge(row) for row in rows]
    lines = b"".join(jsonl.dumps(r) for r in records)
    text = "".join(f"{line(r)}\n" for r in records).encode("utf-8", ESCAPE)
    return lines, text


def of_type(lines: bytes, wanted: str) -> tuple[int, bytes, bytes]:
    """(count, JSON Lines, text lines) of the edges of type `wanted` only; the text is made
    again from the lines kept (a path may hold a newline, so the text lines need not align)."""
    from mj_core import sanitise
    from mj_core.stream import jsonl

    sanitise.register()
    prefix = b'{"kind":"edge","type":"' + wanted.encode() + b'",'
    kept = [one + b"\n" for one in lines.split(b"\n") if one.startswith(prefix)]
    text = "".join(f"{line(jsonl.loads_line(one))}\n" for one in kept)
    return len(kept), b"".join(kept), text.encode("utf-8", ESCAPE)
