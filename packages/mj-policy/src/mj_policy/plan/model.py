"""The plan as files: `project/project.yaml`, `milestones/<ID>.yaml`, `issues/<ID>.yaml`, read
strictly, and every defect of the model as a whole (CLI-REFERENCE §2.25, SCHEMAS).

Each file is read under the strict YAML subset and checked against its schema (unknown keys,
`status:` among them, are errors); its id must be its file name. Across the model: an id
declared twice, an issue naming a milestone or a dependency that does not exist, an issue
depending on itself, a dependency cycle, an issue started before a dependency was done, and
an issue without acceptance criteria (a placeholder) are each a problem naming file and line.
"""

from __future__ import annotations

from mj_core.errors import MissingArtifact
from mj_core.errors import MjError
from mj_core.yaml import strict as yamlstrict

TYPE_CHECKING = False  # `typing` is not imported at run time on a start-up path
if TYPE_CHECKING:
    from pathlib import Path
    from typing import Any

    from mj_policy.layer.loader import Layer


class Item:
    """One milestone or issue file, parsed."""

    __slots__ = ("doc", "kind", "path")

    def __init__(self, kind: str, path: str, doc: yamlstrict.Document) -> None:
        self.kind = kind
        self.path = path
        self.doc = doc

    @property
    def data(self) -> dict[str, Any]:
        data: dict[str, Any] = self.doc.data
        return data

    @property
    def id(self) -> str:
        return str(self.data["id"])

    def where(self, *path: str | int) -> str:
        return self.doc.where(tuple(path))


class Flat(Item):
    """An item read without positions; its document is parsed in full when a position is asked."""

    __slots__ = ("_data", "_file")

    def __init__(self, kind: str, path: str, data: dict[str, Any], file: Path | str) -> None:
        self.kind, self.path, self._data, self._file = kind, path, data, file

    @property
    def data(self) -> dict[str, Any]:
        return self._data

    def where(self, *path: str | int) -> str:
        """The position of `path`, the file parsed in full for it."""
        from pathlib import Path

        try:
            return yamlstrict.load_file(Path(self._file), self.path).where(tuple(path))
        except MjError:  # changed since it was read: the file, without a position
            return f"{self.path}:1:1"


class Problem:
    __slots__ = ("cls", "message", "where")

    def __init__(self, cls: str, where: str, message: str) -> None:
        self.cls, self.where, self.message = cls, where, message


class Model:
    __slots__ = ("directory", "issues", "milestones", "problems", "project")

    def __init__(self, directory: str) -> None:
        self.directory = directory
        self.project: dict[str, Any] | None = None
        self.milestones: dict[str, Item] = {}
        self.issues: dict[str, Item] = {}
        self.problems: list[Problem] = []


def load(lay: Layer) -> Model:
    """The plan of the layer; 12 when the repository keeps none."""
    base = lay.section("project")
    shown = lay.relative(base)
    if not (base / "project.yaml").is_file():
        raise MissingArtifact(f"{shown}/project.yaml: this repository keeps no plan")
    from mj_policy.plan.flat import data as flat

    model = Model(shown)
    project = _read(model, base / "project.yaml", f"{shown}/project.yaml", "project")
    model.project = project.data if project is not None else None
    folders = (("milestone", "milestones", model.milestones), ("issue", "issues", model.issues))
    for kind, folder, into in folders:
        where = f"{base / folder}/"  # joined as text: a path object only for a file read in full
        told = f"{shown}/{folder}/"
        for name in _names(base / folder):
            file = where + name
            data = flat(file, kind)  # flat and valid: positions only if a problem names one
            item: Item | None = Flat(kind, told + name, data, file) if data is not None else None
            item = item or _full(model, file, told + name, kind)
            if item is None:
                continue
            stem = name[:-5] if name != ".yaml" else name  # `Path.stem`
            ident = item.id
            if ident in into:
                said = f"{ident} is already declared at {into[ident].where('id')}"
                model.problems.append(Problem("duplicate-id", item.where("id"), said))
            elif ident != stem:
                said = f"id {ident} is not the file's name {stem}"
                model.problems.append(Problem("id-mismatch", item.where("id"), said))
            else:
                into[ident] = item
    _cross(model)
    return model


def _names(folder: Path) -> list[str]:
    """The names `sorted(folder.glob("*.yaml"))` gives, without a path object for each."""
    import os

    try:
        return sorted(name for name in os.listdir(folder) if name.endswith(".yaml"))
    except OSError:  # no folder, or one that cannot be listed: as a glob finds nothing there
        return []


def _read(model: Model, file: Path | str, shown: str, kind: str) -> Item | None:
    from mj_policy.plan import flat as planflat

    data = planflat.data(file, kind)
    if data is not None:  # flat and valid: its positions are read only if a problem names one
        return Flat(kind, shown, data, file)
    return _full(model, file, shown, kind)


def _full(model: Model, file: Path | str, shown: str, kind: str) -> Item | None:
    """The file read in full, with positions; None (and its problems) when it does not hold."""
    from pathlib import Path

    from mj_core.schema import full as schema

    path = Path(file)
    try:
        doc = yamlstrict.load_file(path, shown)
    except MjError as exc:
        model.problems.append(Problem("invalid-yaml", shown, exc.message))
        return None
    found = schema.violations(doc, kind) if schema.quick_violations(doc, kind) else []
    for where, message in found:
        cls = "unknown-key" if "additional" in message.lower() else "invalid"
        model.problems.append(Problem(cls, where, message))
    return None if found else Item(kind, shown, doc)


def _cross(model: Model) -> None:
    def add(cls: str, where: str, message: str) -> None:
        model.problems.append(Problem(cls, where, message))

    for item in model.issues.values():
        data, ident = item.data, item.id
        if data["milestone"] not in model.milestones:
            said = f"{ident} names milestone {data['milestone']}, which is not declared"
            add("unknown-milestone", item.where("milestone"), said)
        for index, dep in enumerate(data["depends_on"]):
            if dep == ident:
                add(
                    "self-dependency", item.where("depends_on", index), f"{ident} depends on itself"
                )
            elif dep not in model.issues:
                said = f"{ident} depends on {dep}, which is not declared"
                add("unknown-dependency", item.where("depends_on", index), said)
        if not data["acceptance_criteria"]:
            said = f"{ident} has no acceptance criteria: a placeholder, not a contract"
            add("placeholder", item.where("acceptance_criteria"), said)
    for cycle in cycles(model):
        first = model.issues[cycle[0]]
        add("cycle", first.where("depends_on"), "dependency cycle " + " → ".join(cycle))
    for item in model.issues.values():
        if item.data.get("started_at") is None:
            continue
        for index, dep in enumerate(item.data["depends_on"]):
            other = model.issues.get(dep)
            if other is not None and other.data.get("completed_at") is None:
                said = f"{item.id} was started while {dep} is not done"
                add(
                    "ahead-of-dependency",
                    item.where("started_at"),
                    f"{said} ({item.where('depends_on', index)})",
                )


def cycles(model: Model) -> list[list[str]]:
    """Each dependency cycle once, as the ids along it, starting from its smallest id."""
    found: list[list[str]] = []
    seen: set[tuple[str, ...]] = set()
    state: dict[str, int] = {}

    def visit(node: str, trail: list[str]) -> None:
        state[node] = 1
        trail.append(node)
        for dep in model.issues[node].data["depends_on"]:
            if dep not in model.issues or dep == node:
                continue
            if state.get(dep) == 1:
                loop = trail[trail.index(dep) :]
                turn = loop.index(min(loop))
                ordered = loop[turn:] + loop[:turn]
                if tuple(ordered) not in seen:
                    seen.add(tuple(ordered))
                    found.append([*ordered, ordered[0]])
            elif dep not in state:
                visit(dep, trail)
        trail.pop()
        state[node] = 2

    for node in sorted(model.issues):
        if node not in state:
            visit(node, [])
    return found
