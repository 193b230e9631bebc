"""`adr propose` judged: a pure function from the `adr-propose` fact (`mj_state.records.adr_facts`)
to the verdict `mj-state adr-propose-write` writes, or the refusal.

It opens no file: `mj-watch adr-propose` runs it over the facts on its stdin, and the writer
runs it again over the facts it gathers under the ADR directories' lock, so a verdict it was
not given by this judge, over the repository as it is then, writes nothing. Refusals, in
order: `--status` (15: acceptance is a person's edit), a title with no words or no letters or
digits (2), a `--from` that is not `<type>:<value>` (2) or names a path outside the repository
(15), one that names nothing (10), a `--supersedes` that names no record (12) or one whose front
matter does not parse, or would change more than its `superseded_by` (15).
"""

from __future__ import annotations

import re

from mj_core.errors import ContractUnmet
from mj_core.errors import MissingArtifact
from mj_core.errors import MjError
from mj_core.errors import Refused
from mj_core.errors import UsageError
from mj_core.exit_codes import ExitCode

TYPE_CHECKING = False  # `typing` is not imported at run time on a start-up path
if TYPE_CHECKING:
    from typing import Any

    Record = dict[str, Any]

NOTE = "acceptance is a person's edit: set `status: accepted` in the file when it is decided"
PLACEHOLDER = "adr-0000"  # the successor's id while judging; the writer knows the real one


def judge(fact: Record) -> Record:
    """The verdict: what to write (title, tags, evidence, the record superseded)."""
    if fact.get("status"):
        raise Refused(f"--status {fact['status']}: propose writes `status: proposed` only — {NOTE}")
    title = " ".join(str(fact.get("title") or "").split())
    if not title:
        raise UsageError("adr propose: give the title, one line")
    slug(title)
    evidence = _evidence(fact.get("sources") or [])
    old = fact.get("old")
    if old is not None:
        _supersedable(old)
    return {
        "kind": "verdict",
        "action": "adr-propose",
        "title": title,
        "tags": list(dict.fromkeys(str(t) for t in fact.get("tags") or [])),
        "derived_from": evidence,
        "supersedes": str(old["id"]) if old is not None else None,
    }


def slug(title: str) -> str:
    found = re.sub(r"[^a-z0-9]+", "-", title.lower()).strip("-")[:60].rstrip("-")
    if not found:
        raise UsageError(f"title {title!r}: gives no file name (use letters or digits)")
    return found


def _evidence(sources: list[Record]) -> list[str]:
    """Each `--from` as it will be written; the first that could not be read stops it with its
    own code, then the first that names nothing (10)."""
    for source in sources:
        error = source.get("error")
        if error:
            raise MjError(str(error["message"]), ExitCode(int(error["code"])))
    for source in sources:
        if source.get("dangling"):
            raise ContractUnmet(
                f"--from {source['given']}: dangling — {source['dangling']}; nothing was written"
            )
    return [str(source["ref"]) for source in sources]


def _supersedable(old: Record) -> None:
    if not old.get("found"):
        raise MissingArtifact(f"--supersedes {old['id']}: no such record in {old['directory']}")
    if not old.get("parses"):
        raise Refused(
            f"{old['path']}: its front matter does not parse; fix it before superseding it"
        )
    successor(str(old["path"]), dict(old["data"]), str(old["text"]), PLACEHOLDER)


def successor(path: str, data: Record, text: str, ident: str) -> str:
    """The old record's text with `ident` added to its `superseded_by` (every other line kept);
    refused (15, nothing written) when that would change anything else."""
    lines = text.split("\n")
    if "---" not in lines[1:]:
        raise Refused(f"{path}: its front matter does not end with a '---' line")
    close = lines.index("---", 1)
    said = data.get("superseded_by")
    have = [str(v) for v in said] if isinstance(said, list) else []
    start = next((i for i in range(1, close) if lines[i].startswith("superseded_by:")), None)
    block = ["superseded_by:"] + [f"  - {v}" for v in [*have, ident]]
    if start is None:
        lines[close:close] = block
    else:
        end = start + 1
        while end < close and lines[end].startswith((" ", "-")):
            end += 1
        lines[start:end] = block
    new = "\n".join(lines)
    from mj_core.yaml import strict as yamlstrict

    try:
        parsed = yamlstrict.split_front_matter(new, path)[0].data
    except MjError:
        parsed = None
    if parsed != {**data, "superseded_by": [*have, ident]}:
        raise Refused(f"{path}: adding superseded_by would change more than that key")
    return new
