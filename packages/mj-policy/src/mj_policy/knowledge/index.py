"""The reference graph compiled from the repository: the index fact and the graph built from it.

The index is the one question asked of git: both sources files' texts and the index as git
lists it (`git ls-files -s -z`: mode, blob id, stage and path of every entry) as one
`knowledge-index` fact, with the digest of all three that keys the cache (and
`cache.VERSION`, raised whenever what a file is read into changes). The graph is read from the
cache when the key matches, else from the source files' blobs not seen before (`git cat-file
--batch`, once), and written back only when asked. `mj-knowledge index` and `graph` are its
stages; the briefing's pointers and `search` read the graph through it without writing.
"""

from __future__ import annotations

from mj_core.errors import InternalError

from mj_policy.knowledge import cache
from mj_policy.knowledge import sources

TYPE_CHECKING = False  # `typing` is not imported at run time on a start-up path
if TYPE_CHECKING:
    from pathlib import Path
    from typing import Any

    Record = dict[str, Any]

FACT = "knowledge-index"


def index_fact(root: Path) -> Record:
    from mj_core.git import questions as git

    texts = sources.read(root)
    code, stdout, stderr = git.run("ls-files", "-s", "-z", cwd=root)
    if code != 0:
        raise InternalError(f"git ls-files -s: {stderr.strip() or f'exit {code}'}")
    key = cache.key(material(texts, stdout))
    return {"kind": "fact", "fact": FACT, "key": key, "sources": texts, "listing": stdout}


def material(texts: dict[str, str], listing: str) -> str:
    """What the cache is keyed by: the cache's version, both sources files and the listing."""
    return "\0".join((str(cache.VERSION), texts["shared"], texts["operational"], listing))


def blobs(root: Path, wanted: list[str]) -> dict[str, bytes]:
    """The content of each blob id, read from git's object store in one call."""
    from mj_core import spawn
    from mj_core import timing
    from mj_core.git import questions as git

    if not wanted:
        return {}
    timing.count("git")
    argv = ["git", *git.SAFE, "-C", str(root), "cat-file", "--batch"]
    code, data, _ = spawn.run_input(
        argv, git.clean_env(), "".join(f"{b}\n" for b in wanted).encode()
    )
    if code != 0:
        raise InternalError(f"git cat-file --batch: exit {code}")
    out, at = {}, 0
    for blob in wanted:
        end = data.index(b"\n", at)
        header = data[at:end].split(b" ")
        if len(header) != 3:
            raise InternalError(f"git cat-file --batch: {blob} is missing from the object store")
        size = int(header[2])
        out[blob] = data[end + 1 : end + 1 + size]
        at = end + 2 + size
    return out


def compute(
    root: Path, fact: Record, parts: tuple[str, ...] = cache.PARTS, *, store: bool = True
) -> Record:
    """The packed graph of the index fact (`cache.pack`), from the cache when its key matches
    (then with the `parts` asked for only); written back only when `store` (the readings
    that write nothing, `check` and the briefing's pointers, only read it)."""
    key = str(fact["key"])
    said = material(dict(fact["sources"]), str(fact["listing"]))
    hit = cache.graph(root, key, parts, said) if cache.key(said) == key else None
    if hit is not None:
        return hit
    from mj_policy.knowledge import extract  # only a miss reads a file
    from mj_policy.knowledge import graph

    index = sources.parse_index(str(fact["listing"]))  # parsed only when the cache misses
    files, problems = sources.classify(sources.load(dict(fact["sources"])), index)
    seen = cache.files(root)
    names = [f"{f['blob']} {f['kind']} {f['path']}" for f in files]
    missing = [f["blob"] for f, n in zip(files, names, strict=True) if n not in seen]
    content = blobs(root, sorted(set(missing)))
    kept: dict[str, Record] = {}
    extracted = []
    for item, name in zip(files, names, strict=True):
        got = seen.get(name)
        if got is None:
            text = content[item["blob"]].decode("utf-8", "replace")
            got = extract.extract(item["path"], item["kind"], text)
        kept[name] = got
        extracted.append(got)
    tracked = sorted(p for p, _ in index)
    result = cache.pack(files, problems, graph.build(files, extracted, tracked))
    result["findings"] = graph.findings_of(result["findings"], problems)  # kept as records
    if store:
        kept_or_none = kept if missing or len(kept) != len(seen) else None
        cache.store(root, key, said, result, kept_or_none)
    return result
