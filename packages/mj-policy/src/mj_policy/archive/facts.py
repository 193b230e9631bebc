"""`mj-policy archive-facts [PROFILE] [--list] [--out PATH] [--format F] [--force] [--dry-run]`:
what `mj-policy archive-judge` judges, as one `archive` fact: the profiles (`share/archive.yaml`,
then `.ai/repo/archive.yaml`, which adds a profile or replaces one by name; both
schema-checked, unknown keys 10), the profile asked for, the format, where the archive would go
and whether something is there, git's index under the profile's paths (`git ls-files -s`: mode,
blob, stage, path — never the working tree, never an untracked file) and, under `derived:
drop`, the paths whose `merge` attribute is `derived` in the index's `.gitattributes`. Nothing
is judged here.
"""

from __future__ import annotations

import os

from mj_core import clock
from mj_core import share
from mj_core.errors import ContractUnmet
from mj_core.errors import UsageError
from mj_core.git import questions as git
from mj_core.git import stdin as gitstdin
from mj_core.stream.stage import Stage
from mj_core.yaml import strict as yamlstrict

TYPE_CHECKING = False  # `typing` is not imported at run time on a start-up path
if TYPE_CHECKING:
    import argparse
    from collections.abc import Iterator
    from pathlib import Path
    from typing import Any

    from mj_core.stream.stage import Context

    Record = dict[str, Any]

OVERRIDE = ".ai/repo/archive.yaml"
DEFAULT_DIR = ".ai/local/archives"
SUFFIX = {"zip": ".zip", "tar.gz": ".tar.gz"}


def run(options: argparse.Namespace, context: Context) -> Iterator[Record]:
    yield gather(context.root(), options, context.cwd)


def gather(root: Path, options: argparse.Namespace, cwd: Path) -> Record:
    """The `archive` fact (the writer gathers it again, for the plan's own options)."""
    known = profiles(root)
    fact: Record = {"kind": "fact", "fact": "archive", "profiles": list(known.values()),
                    "list": bool(getattr(options, "list", False))}  # fmt: skip
    if fact["list"]:
        return fact
    name = getattr(options, "profile", None) or "context"
    profile = known.get(name)
    if profile is None:  # nothing more to gather: the judge's 12
        return {**fact, "profile": name}
    fmt = _fmt(options)
    path = _output(root, getattr(options, "out", None), name, fmt, cwd)
    entries = _index(root, list(profile["paths"]))
    drop = profile["derived"] == "drop"
    real, top = os.path.realpath(path), os.path.realpath(root)
    local = os.path.realpath(root / ".ai" / "local")
    return {
        **fact,
        "profile": name,
        "format": fmt,
        "given_out": getattr(options, "out", None),
        "out": str(path),
        "shown": shown(root, path),
        "inside": real == top or real.startswith(top + os.sep),
        "local": real.startswith(local + os.sep),
        "exists": path.exists(),
        "force": bool(getattr(options, "force", False)),
        "dry_run": bool(getattr(options, "dry_run", False)),
        "entries": entries,
        "derived": sorted(_derived(root, [e[3] for e in entries])) if drop else [],
    }


def profiles(root: Path) -> dict[str, Record]:
    """Profile name → profile with its `source` file: the shipped ones, then the override."""
    found: dict[str, Record] = {}
    shipped = share.path("archive.yaml")
    for path, named in ((shipped, "share/archive.yaml"), (root / OVERRIDE, OVERRIDE)):
        if path.is_file():
            for profile in _read(path, named):
                found[profile["name"]] = {**profile, "source": named}
    return found


def _read(path: Path, named: str) -> list[Record]:
    from mj_core.schema import full as schema

    doc = yamlstrict.load_file(path, named)
    for where, message in schema.violations(doc, "archive")[:1]:
        raise ContractUnmet(f"{where}: {message} — see docs/FORMATS.md (archive)")
    seen: set[str] = set()
    for index, profile in enumerate(doc.data["profiles"]):
        if profile["name"] in seen:
            where = doc.where(("profiles", index, "name"))
            raise ContractUnmet(f"{where}: profile {profile['name']!r} is declared twice")
        seen.add(profile["name"])
    return list(doc.data["profiles"])


def _index(root: Path, paths: list[str]) -> list[list[str]]:
    """[mode, blob, stage, path] of each index entry under `paths` (all of them when empty)."""
    code, out, err = git.run("ls-files", "-s", "-z", "--", *paths, cwd=root)
    if code != 0:
        raise UsageError(f"git ls-files: {err.strip() or 'failed'}")
    entries = []
    for item in git.zsplit(out):
        info, _, path = item.partition("\t")
        mode, blob, stage = info.split(" ")
        entries.append([mode, blob, stage, path])
    return entries


def _derived(root: Path, paths: list[str]) -> set[str]:
    """The paths whose `merge` attribute is `derived`, read from the index's .gitattributes."""
    if not paths:
        return set()
    data = b"".join(p.encode("utf-8", "surrogateescape") + b"\0" for p in paths)
    code, out, err = gitstdin.run("check-attr", "--cached", "-z", "--stdin", "merge", data=data,
                                   cwd=root)  # fmt: skip
    if code != 0:
        raise UsageError(f"git check-attr: {err.strip() or 'failed'}")
    words = out.decode("utf-8", "surrogateescape").split("\0")
    return {words[i] for i in range(0, len(words) - 2, 3) if words[i + 2] == "derived"}


def _fmt(options: argparse.Namespace) -> str:
    """The format from `--format`, else from `--out`'s name, else zip; the two must agree."""
    out = getattr(options, "out", None)
    named = None
    if out:
        named = next((f for f, s in SUFFIX.items() if out.endswith(s)), None)
        named = named or ("tar.gz" if out.endswith(".tgz") else None)
    given = getattr(options, "format", None)
    if given and named and given != named:
        raise UsageError(f"--format {given} and --out {out} disagree")
    return str(given or named or "zip")


def _output(root: Path, out: str | None, name: str, fmt: str, cwd: Path) -> Path:
    """Where the archive goes: `--out`, or a dated name under `.ai/local/archives/`."""
    if not out:
        head = (git.head(root) or "0" * 7)[:7]
        stamp = clock.compact(clock.now())
        return root / DEFAULT_DIR / f"{name}-{stamp}-{head}{SUFFIX[fmt]}"
    return (cwd / str(out)).absolute()


def shown(root: Path, path: Path) -> str:
    try:
        return path.relative_to(root).as_posix()
    except ValueError:
        return str(path)


STAGES = {"archive-facts": Stage(run)}
