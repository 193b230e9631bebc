"""The rules a task is judged by: the manifest, the policy, the task's profile (and, for
`ratchet check`, the ratchet declaration) as committed at the task's head.

`start` records each one's git object id (`record`); `check`, `finish`, `finish --check` and
`ratchet check` read them back in one `git cat-file --batch` of `<head>:<path>` (`at_start`):
a file the working tree holds otherwise — edited, deleted, hidden from `git status` by an index
flag, or absent at the head — is a change to the rules, which the scope judges count as a
touched path of the layer (`mj_core.paths.claimed`), and the task is judged by the old text.
An object id other than the one `start` recorded is refused (10): the head no longer holds what
the task started under.
"""

from __future__ import annotations

from mj_core.errors import ContractUnmet
from mj_core.yaml import strict as yamlstrict

TYPE_CHECKING = False  # `typing` is not imported at run time on a start-up path
if TYPE_CHECKING:
    from typing import Any

    from mj_policy.layer.loader import Layer

    Record = dict[str, Any]

MANIFEST = ".ai/manifest.yaml"
RATCHET = ".ai/repo/ratchet.yaml"


def governing(layer: Layer, profile: str) -> list[str]:
    """The files whose text judges a task of `profile`: manifest, policy, profile."""
    from mj_policy.layer.loader import section_value

    policy = f".ai/{section_value(layer.manifest, 'policy')}"
    return [MANIFEST, policy, f".ai/{section_value(layer.manifest, 'profiles')}/{profile}.yaml"]


def record(layer: Layer, head: str, profile: str) -> Record:
    """`{path: object id}` of the governing files, the ratchet declaration and the rules'
    directory at `head`, as `start` writes them into `task.started` (absent ones left out)."""
    from mj_policy.layer.loader import section_value

    wanted = [*governing(layer, profile), RATCHET, f".ai/{section_value(layer.manifest, 'rules')}"]
    code, out, _ = _batch(layer, "--batch-check", head, wanted)
    found: Record = {}
    for path, line in zip(wanted, out.decode("utf-8", "replace").splitlines(), strict=False):
        oid, _, kind = line.partition(" ")
        if code == 0 and kind.split(" ")[0] in ("blob", "tree"):
            found[path] = oid
    return found


class Rules:
    """What `at_start` found: the layer to judge by, the changed paths, each file's old text."""

    __slots__ = ("changed", "layer", "texts")

    def __init__(self, layer: Layer, changed: list[str], texts: dict[str, str | None]) -> None:
        self.layer = layer
        self.changed = changed
        self.texts = texts


def at_start(layer: Layer, task: Record, *, extra: tuple[str, ...] = ()) -> Rules:
    """The rules `task` started under: the layer to judge it by, the governing paths whose text
    changed since its head, and each file's text at the head (None: absent there). `task` is the
    ledger's task fields (`head`, `profile`, and `rules` when start recorded them); `extra`
    names more files to hold to the head."""
    head = str(task.get("head") or "")
    wanted = [*governing(layer, str(task["profile"])), *extra]
    then = _read(layer, head, wanted, task.get("rules"))
    changed = [p for p in wanted if head and then.get(p) != _on_disk(layer, p)]
    if not changed:
        return Rules(layer, changed, then)
    return Rules(_layer(layer, head, wanted, then), changed, then)


def _layer(layer: Layer, head: str, wanted: list[str], then: dict[str, str | None]) -> Layer:
    """The layer as the head held it (a file absent there is judged as the working tree's)."""
    from mj_policy.layer import loader as layers

    docs = [_parsed(layer, head, path, then.get(path)) for path in wanted[:3]]
    manifest, policy, profile = docs
    old = layers.Layer(
        layer.root,
        layers.close(manifest, "manifest") if manifest else layer.manifest,
        layers.close(policy, "policy") if policy else layer.policy,
    )
    name = wanted[2].rsplit("/", 1)[-1].removesuffix(".yaml")
    if profile is not None:
        old._profiles[name] = layers.close(profile, "profile")
    return old


def _parsed(layer: Layer, head: str, path: str, text: str | None) -> yamlstrict.Document | None:
    if text is None:
        return None
    doc = yamlstrict.parse(text, f"{path} at {head[:12]}")
    if doc.data is None:
        raise ContractUnmet(f"{doc.name}:1:1: empty — the task's rules cannot be read")
    return doc


def _read(layer: Layer, head: str, wanted: list[str], recorded: object) -> dict[str, str | None]:
    """Each path's text at `head` (None when the head has no such file), in one batch."""
    if not head:
        return {}
    code, out, err = _batch(layer, "--batch", head, wanted)
    if code != 0:
        shown = err.decode("utf-8", "replace").strip() or code
        raise ContractUnmet(f"git cat-file {head[:12]}: {shown} — cannot read the rules the task "
                            "started under")  # fmt: skip
    found: dict[str, str | None] = {}
    at = 0
    marks = recorded if type(recorded) is dict else {}
    for path in wanted:
        end = out.find(b"\n", at)
        oid, kind, size = [*out[at:end].decode("ascii", "replace").split(" "), "", ""][:3]
        if kind != "blob" or not size.isdigit():
            found[path], at = None, end + 1
            continue
        if path in marks and marks[path] != oid:
            raise ContractUnmet(
                f"{path} at {head[:12]} is object {oid[:12]}, not the {str(marks[path])[:12]} "
                "the task's start recorded — the rules it started under cannot be read"
            )
        found[path] = out[end + 1 : end + 1 + int(size)].decode("utf-8", "replace")
        at = end + 1 + int(size) + 1
    return found


def _batch(layer: Layer, mode: str, head: str, wanted: list[str]) -> tuple[int, bytes, bytes]:
    """`git cat-file <mode>` of `<head>:<path>` for each path (the spawn runner: a hook's
    `check` does not import `subprocess`)."""
    from mj_core import spawn
    from mj_core.git import questions as git

    argv = ["git", *git.SAFE, "-C", str(layer.root), "cat-file", mode]
    asked = "".join(f"{head}:{path}\n" for path in wanted).encode()
    return spawn.run_input(argv, git.clean_env(), asked)


def _on_disk(layer: Layer, path: str) -> str | None:
    try:
        return (layer.root / path).read_bytes().decode("utf-8", "replace")
    except OSError:
        return None
