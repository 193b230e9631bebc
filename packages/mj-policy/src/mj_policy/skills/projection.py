"""Skills as projections: a provider that loads skills natively (share/providers.yaml `skills`,
Claude Code: `.claude/skills/<id>/SKILL.md`) gets each valid active skill of `.ai/repo/skills/`
as a file of its own, in the client's format (front matter `name` and `description`, then the
procedure), stamped like every projection so `update --check` and doctor catch a hand edit.
A draft, deprecated or invalid skill is not projected (`majordomus skills check` names why);
`mj_policy.projection.plan` plans the targets, this module writes their text.
"""

from __future__ import annotations

from mj_core.yaml import write as yamlwrite

TYPE_CHECKING = False  # `typing` is not imported at run time on a start-up path
if TYPE_CHECKING:
    from mj_policy.skills import model as skillmodel


def text(skill: skillmodel.Skill) -> str:
    """The skill as the client reads it: its name and description, then its procedure."""
    head = (
        f"---\nname: {skill.id}\ndescription: {yamlwrite.scalar(skill.text('description'))}\n---\n"
    )
    body = skill.body.strip("\n")
    return f"{head}{body}\n\nFrom `{skill.path}`; edit the skill there, not here.\n"
