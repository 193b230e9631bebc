"""One object of the catalogue (`catalogue` lists them, `identities` keeps their ids unique):
its kind and id, the file that holds it, and a one-line title."""

from __future__ import annotations


class Entry:
    """One object: its kind and id, the file that holds it, and a one-line title."""

    __slots__ = ("alias", "id", "kind", "line", "path", "title")

    def __init__(self, kind: str, ident: str, path: str, title: str, line: int = 0) -> None:
        self.kind = kind
        self.id = ident
        self.path = path  # repository-relative
        self.title = title
        self.line = line  # the first line of an entry of an index or the ledger; 0: a file
        self.alias = ""  # another id that names it too (a rule's `<id>@<version>`)

    @property
    def uri(self) -> str:
        """`majordomus://<kind>/<id>`, the id percent-encoded (a node's `:` and `/` kept)."""
        from urllib.parse import quote

        return f"majordomus://{self.kind}/{quote(self.id, safe=':/@')}"
