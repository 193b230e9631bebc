"""`mj-policy init-facts [--extend] [--ci github|gitlab]`: what `mj-policy init-judge` judges,
as one `init` fact: whether `.ai/` is there (a directory or something else) and holds a
manifest, which of the layer's files are there, each of its directories as it stands, whether
`.gitignore` may be written and already ignores `.ai/local`, whether the bootstrap hatch is open
(no ledger yet); with `--ci` only the CI job's file. With `--import` it passes the pieces of
`mj-policy instructions` on and carries them, with the policy's text when there is one.
Nothing is judged here.
"""

from __future__ import annotations

from mj_core.stream.stage import Stage
from mj_core.write import confine

from mj_policy.layer import skeleton

TYPE_CHECKING = False  # `typing` is not imported at run time on a start-up path
if TYPE_CHECKING:
    import argparse
    from collections.abc import Iterator
    from pathlib import Path
    from typing import Any

    from mj_core.stream.stage import Context

    Record = dict[str, Any]


def run(options: argparse.Namespace, context: Context) -> Iterator[Record]:
    ci = getattr(options, "ci", None) or None
    pieces = None
    if getattr(options, "imports", False):  # `init --import`: the pieces of `instructions`
        pieces = []
        for record in context.records(getattr(options, "input", None)):
            if record.get("kind") == "piece":
                pieces.append(record)
            yield record
    yield gather(context.root(), extend=bool(options.extend), ci=ci, pieces=pieces)


def there(path: Path) -> bool:
    """A path taken: a file, a directory or a link (a dangling one too)."""
    return path.exists() or path.is_symlink()


def gather(
    root: Path, *, extend: bool, ci: str | None, pieces: list[Record] | None = None
) -> Record:
    """The `init` fact (the writer gathers it again, the same way). `pieces`: those `init
    --import` adopts, carried with the policy as it is (None when there is none yet)."""
    fact: Record = {"kind": "fact", "fact": "init", "root": str(root), "extend": extend, "ci": ci}
    if pieces is not None:
        fact["import"] = {"pieces": pieces, "policy": _policy(root)}
    if ci is not None:  # the CI job alone (`hooks.ci_setup`): no layer, no ledger line
        from mj_policy.hooks import ci_setup as cisetup

        relative = cisetup.TARGETS[ci]
        fact["job"] = {
            "path": relative,
            "refusal": confine.check(root, relative) or "",
            "there": there(root / relative),
        }
        return fact
    ai = root / ".ai"
    fact["ai"] = "absent" if not there(ai) else "directory" if ai.is_dir() else "other"
    fact["manifest"] = (ai / "manifest.yaml").exists()
    fact["hatch_open"] = skeleton.hatch_open(root)
    fact["files"] = [{"path": rel, "there": there(root / rel)} for rel, _ in skeleton.sources()]
    fact["directories"] = [_directory(root, rel) for rel in skeleton.directories()]
    fact["gitignore"] = _gitignore(root)
    return fact


def _directory(root: Path, relative: str) -> Record:
    path = root / relative
    return {
        "path": relative,
        "exists": path.exists(),
        "filled": path.is_dir() and any(path.iterdir()),
        "keep": there(path / skeleton.KEEP),
    }


def _gitignore(root: Path) -> Record:
    refusal = confine.check(root, ".gitignore")
    path = root / ".gitignore"
    if refusal or not path.exists():
        return {"refusal": refusal or "", "ignored": False}
    lines = path.read_bytes().decode("utf-8", "replace").splitlines()
    return {"refusal": "", "ignored": any(line.strip() in skeleton.IGNORE_FORMS for line in lines)}


def _policy(root: Path) -> str | None:
    from mj_core.yaml import strict as yamlstrict

    from mj_policy.adoption import policy as importpolicy

    path = root / importpolicy.POLICY
    if not there(path):
        return None
    return yamlstrict.read_text(path, importpolicy.POLICY)


STAGES = {"init-facts": Stage(run)}
