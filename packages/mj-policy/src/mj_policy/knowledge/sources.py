"""The declared knowledge sources: `.ai/repo/knowledge/sources.yaml` (scope shared) and the
shipped `share/knowledge-sources.yaml` (scope operational, paths relative to the state
directory), each read strictly and held to `share/schemas/knowledge-sources.schema.json`.

Discovery is git's index: one `git ls-files -s` gives every tracked path with its blob id, and
each class's `:(glob)` pathspec is matched against those paths with git's own wildmatch rules
for that magic (`*` and `?` never cross a `/`; `**/`, `/**/` and `/**` span directories), so
the one call serves every class and the check of every link's target alike.
"""

from __future__ import annotations

import re

from mj_core.errors import ContractUnmet
from mj_core.errors import MissingArtifact
from mj_core.yaml import strict as yamlstrict

TYPE_CHECKING = False  # `typing` is not imported at run time on a start-up path
if TYPE_CHECKING:
    from pathlib import Path
    from typing import Any

    Record = dict[str, Any]

SHARED = ".ai/repo/knowledge/sources.yaml"
OPERATIONAL = "share/knowledge-sources.yaml"
STATE = ".ai/local/state/"
KIND = "knowledge-sources"
GLOB = ":(glob)"


def _close(doc: yamlstrict.Document) -> yamlstrict.Document:
    """Refuse (10) a sources file with an unknown or missing key or a wrong value (the schema's
    modules are imported here: a cache hit reads the files, it does not parse them)."""
    from mj_core.schema import full as schema
    from mj_core.schema import keys
    from mj_core.schema import required

    if not isinstance(doc.data, dict):
        raise ContractUnmet(f"{doc.name}:1:1: not a mapping — write `key: value` lines")
    for where, key in keys.unknown_keys(doc, KIND):
        raise ContractUnmet(
            f"{where}: unknown key '{key}' — remove it or fix its spelling "
            f"(the keys a source may carry: share/allow/{KIND}.txt)"
        )
    for where, key in required.missing_keys(doc, KIND):
        raise ContractUnmet(f"{where}: missing key '{key}' — add it (no key has a default)")
    for where, message in schema.quick_violations(doc, KIND, skip=("required",)):
        raise ContractUnmet(
            f"{where}: {message} — fix the value (share/schemas/{KIND}.schema.json)"
        )
    return doc


def parse(text: str, name: str, scope: str) -> list[Record]:
    """The classes a sources file declares, in its order; 10 on any defect, a class id
    declared twice included."""
    doc = _close(yamlstrict.parse(text, name))
    prefix = STATE if scope == "operational" else ""
    out: list[Record] = []
    seen: dict[str, str] = {}
    for index, item in enumerate(doc.data["sources"]):
        where = doc.where(("sources", index, "id"))
        if item["id"] in seen:
            raise ContractUnmet(
                f"{where}: class '{item['id']}' is already declared at {seen[item['id']]}"
            )
        seen[item["id"]] = where
        pattern = prefix + item["pathspec"][len(GLOB) :]
        out.append({"id": item["id"], "kind": item["kind"], "scope": scope,
                    "required": item["required"], "pathspec": GLOB + pattern,
                    "where": where})  # fmt: skip
    return out


def read(root: Path) -> dict[str, str]:
    """Both sources files' texts, by scope (12 when the repository declares none)."""
    from mj_core import share

    path = root / SHARED
    if not path.is_file():
        raise MissingArtifact(f"{SHARED}: no knowledge sources — run `majordomus init`")
    return {"shared": yamlstrict.read_text(path, SHARED),
            "operational": share.read_text("knowledge-sources.yaml")}  # fmt: skip


def load(texts: dict[str, str]) -> list[Record]:
    """Every class, shared first; 10 on any defect, one class id declared twice included."""
    classes = parse(texts["shared"], SHARED, "shared")
    classes += parse(texts["operational"], OPERATIONAL, "operational")
    seen: dict[str, str] = {}
    for item in classes:
        if item["id"] in seen:
            raise ContractUnmet(
                f"{item['where']}: class '{item['id']}' is already declared at {seen[item['id']]}"
            )
        seen[item["id"]] = item["where"]
    return classes


def parse_index(stdout: str) -> list[tuple[str, str]]:
    """(path, blob id) of each stage-0 entry of `git ls-files -s -z` (a conflicted path is
    listed once, by its first stage)."""
    out: list[tuple[str, str]] = []
    last = ""
    for entry in stdout.split("\0"):
        if not entry:
            continue
        meta, _, path = entry.partition("\t")
        fields = meta.split(" ")
        if len(fields) != 3 or path == last or fields[0] == "160000":
            continue
        out.append((path, fields[1]))
        last = path
    return out


def classify(
    classes: list[Record], index: list[tuple[str, str]]
) -> tuple[list[Record], list[Record]]:
    """(each source file with its class, the problems): a file two classes claim is a FAIL
    naming both; a required class that discovers nothing is a WARN."""
    from mj_core.wildmatch import wildmatch  # only a run that classifies paths

    matchers = [(item, wildmatch(item["pathspec"][len(GLOB) :])) for item in classes]
    # one pass of every pattern at once first: most tracked files are no class's, and one
    # match of the alternation is far cheaper than one match per class
    anyone = re.compile("|".join(f"(?:{rx.pattern})" for _, rx in matchers) or "(?!)")
    files: list[Record] = []
    problems: list[Record] = []
    found = {item["id"]: 0 for item in classes}
    for path, blob in index:
        if not anyone.match(path):
            continue
        claims = [item for item, rx in matchers if rx.match(path)]
        if not claims:
            continue
        first = claims[0]
        found[first["id"]] += 1
        files.append({"path": path, "blob": blob, "class": first["id"], "kind": first["kind"],
                      "scope": first["scope"]})  # fmt: skip
        for other in claims[1:]:
            problems.append({"level": "FAIL", "subject": path,
                             "message": f"claimed by class {first['id']} ({first['where']}) and "
                                        f"by class {other['id']} ({other['where']}) — narrow "
                                        "one pathspec so one class owns each file"})  # fmt: skip
    for item in classes:
        if item["required"] and not found[item["id"]]:
            problems.append({"level": "WARN", "subject": item["where"],
                             "message": f"required class {item['id']} discovers no tracked file "
                                        f"({item['pathspec']})"})  # fmt: skip
    return files, problems
