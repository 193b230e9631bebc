"""Every malformed context document or prompt asset is a problem or a one-line refusal, never a
crash: hypothesis over arbitrary front matter and bodies."""

from __future__ import annotations

from pathlib import Path

from hypothesis import HealthCheck
from hypothesis import given
from hypothesis import settings
from hypothesis import strategies as st
from mj_core.errors import ContractUnmet
from mj_policy.context import docs as contextdocs
from mj_policy.prompts import assets as prompts

KEYS = st.sampled_from(
    [
        "schema",
        "id",
        "kind",
        "title",
        "scope",
        "paths",
        "providers",
        "audience",
        "composition",
        "order",
        "supersedes",
        "children",
        "status",
        "description",
        "x",
    ]
)
VALUES = st.sampled_from(
    [
        "context/v1",
        "subtree",
        "explicit",
        "replace",
        "[a, b]",
        "[]",
        "1",
        "-2",
        "true",
        "''",
        '"*"',
        "[human]",
        "{a: 1}",
        "[[x]]",
        "&a x",
        "*a",
        "|",
        "ai.x",
        "Bad Id",
        "\t",
        "",
    ]
)
LINES = st.lists(st.tuples(KEYS, VALUES).map(lambda kv: f"{kv[0]}: {kv[1]}"), max_size=14)
SETTINGS = settings(
    max_examples=100, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)


@SETTINGS
@given(lines=LINES, children=st.booleans())
def test_any_front_matter_reads_as_problems(
    tmp_path: Path, lines: list[str], children: bool
) -> None:
    extra = ["children:", "  require_contract: maybe"] if children else []
    text = "---\n" + "\n".join(lines + extra) + "\n---\nbody\n"
    (tmp_path / "README.md").write_text(text)
    item, problems = contextdocs.read(tmp_path, "README.md")
    for problem in problems:
        assert "\n" not in problem.message and problem.where.startswith("README.md")
    if item is not None and not problems:
        assert isinstance(item.data["order"], int)


@SETTINGS
@given(body=st.text(alphabet="{}ABCDEHKNOPRSTUVWXY_ \n", max_size=80))
def test_any_prompt_body_renders_or_is_refused_naming_a_line(tmp_path: Path, body: str) -> None:
    (tmp_path / "p.md").write_text("---\nname: p\ndescription: d\n---\n" + body)
    try:
        asset = prompts.load(tmp_path, "p", "prompts")
    except ContractUnmet as exc:
        assert exc.message.startswith("prompts/p.md:") and "\n" not in exc.message
        return
    rendered = prompts.render(asset, {}, {})
    assert "{{" not in rendered and "}}" not in rendered
