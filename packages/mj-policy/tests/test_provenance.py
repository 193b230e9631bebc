"""Every edge's provenance line really states the reference the edge claims (a property over
generated Markdown and plan files), and nothing inside a code fence or code span is an edge."""

from __future__ import annotations

from hypothesis import given
from hypothesis import settings
from hypothesis import strategies as st
from mj_policy.knowledge import extract
from mj_policy.knowledge import graph

NAMES = st.from_regex(r"[a-z][a-z0-9_-]{0,8}", fullmatch=True)
TARGETS = st.builds(
    lambda d, n, frag: f"{d}{n}.md{frag}",
    st.sampled_from(["", "sub/", "../", "./"]),
    NAMES,
    st.sampled_from(["", "#part", "#a-b"]),
)
PROSE = st.text(st.characters(codec="utf-8", exclude_characters="\n\r`[]()<>#"), max_size=30)


@st.composite
def documents(draw: st.DrawFn) -> tuple[str, int]:
    """A Markdown text and how many local links it states outside code."""
    lines, stated = ["# Title"], 0
    for _ in range(draw(st.integers(0, 12))):
        shape = draw(st.sampled_from(["prose", "link", "two", "definition", "fence", "span"]))
        before, after = draw(PROSE), draw(PROSE)
        target = draw(TARGETS)
        if shape == "prose":
            lines.append(before)
        elif shape == "link":
            lines.append(f"{before}[see]({target}){after}")
            stated += 1
        elif shape == "two":
            lines.append(f'{before}[a]({target}) and ![b]({draw(TARGETS)} "t"){after}')
            stated += 2
        elif shape == "definition":
            lines.append(f"[label-{len(lines)}]: {target}")
            stated += 1
        elif shape == "fence":
            fence = draw(st.sampled_from(["```", "~~~~"]))
            lines += [fence, f"[hidden]({target})", fence]
        else:
            lines.append(f"{before}`[hidden]({target})`{after}")
    return "\n".join(lines) + "\n", stated


def _tracked(found: dict[str, object], path: str) -> list[str]:
    refs = found["refs"]
    assert isinstance(refs, list)
    return sorted({path, *(r["target"] for r in refs if r["target"])})


@settings(max_examples=200, deadline=None)
@given(documents(), st.sampled_from(["docs/a/x.md", "docs/y.md", "z.md"]))
def test_every_markdown_edge_is_on_the_line_it_names(doc: tuple[str, int], path: str) -> None:
    text, stated = doc
    found = extract.extract(path, "document", text)
    files = [{"path": path, "class": "docs", "scope": "shared", "kind": "document", "blob": "0"}]
    built = graph.build(files, [found], _tracked(found, path))
    lines = text.split("\n")
    links = [r for r in found["refs"] if not r["declared"]]
    escaped = [r for r in links if not r["target"]]  # a link above the repository's root
    assert len(links) == stated
    assert len(built["edges"]) + len(built["findings"]) == stated
    assert all("dead link" in f["message"] for f in built["findings"])
    assert len(built["findings"]) == len(escaped)
    for edge in built["edges"]:
        where = edge["provenance"]
        assert where["path"] == path
        assert edge["ref"] in lines[where["line"] - 1]
        assert "hidden" not in lines[where["line"] - 1]


ISSUE = "id: {id}\nmilestone: M1\ntitle: T\n{pad}depends_on: [{deps}]\n"


@settings(max_examples=100, deadline=None)
@given(
    st.lists(  # other issues: the issue's own id would be a second file giving it (a finding)
        st.from_regex(r"I[0-9]{1,3}", fullmatch=True).filter(lambda d: d != "I999"),
        unique=True,
        max_size=6,
    ),
    st.integers(0, 4),
    st.booleans(),
)
def test_every_declared_edge_is_on_the_line_of_its_field(
    deps: list[str], pad: int, block: bool
) -> None:
    listed = "".join(f"\n  - {d}" for d in deps) if block and deps else None
    text = ISSUE.format(id="I999", pad="note: x\n" * pad, deps=", ".join(deps))
    if listed is not None:
        text = text.replace(f"depends_on: [{', '.join(deps)}]", f"depends_on:{listed}")
    text = text.replace("note: x\n", "# a comment\n")
    path = ".ai/repo/project/issues/I999.yaml"
    found = extract.extract(path, "issue", text)
    nodes = [found]
    files = [{"path": path, "class": "issue", "scope": "shared", "kind": "issue", "blob": "0"}]
    for index, dep in enumerate(deps):
        other = f".ai/repo/project/issues/{dep}.yaml"
        nodes.append(extract.extract(other, "issue", ISSUE.format(id=dep, pad="", deps="")))
        files.append(dict(files[0], path=other, blob=str(index + 1)))
    milestone = ".ai/repo/project/milestones/M1.yaml"
    nodes.append(extract.extract(milestone, "milestone", "id: M1\ntitle: M\n"))
    files.append(dict(files[0], path=milestone, kind="milestone", **{"class": "milestone"}))
    built = graph.build(files, nodes, sorted(f["path"] for f in files))
    assert not built["findings"]
    mine = [e for e in built["edges"] if e["source"] == "issue:I999"]
    assert len(mine) == len(deps) + 1
    lines = text.split("\n")
    for edge in mine:
        where = edge["provenance"]
        assert edge["ref"] in lines[where["line"] - 1], (edge, text)
        assert where["field"].split("[")[0] in ("milestone", "depends_on")
