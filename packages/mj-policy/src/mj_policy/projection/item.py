"""The projection's types: one `projections[]` entry of the policy (`Projection`), what every
projection is rendered from (`Inputs`), and one rendered (`Rendered`). `projections` builds and
renders them; the stages that budget, template and place rules name them from here, so none of
them imports the module that calls it."""

from __future__ import annotations

from mj_policy.projection import stamps

TYPE_CHECKING = False  # `typing` is not imported at run time on a start-up path
if TYPE_CHECKING:
    from pathlib import Path

    from mj_policy.rules.projections import Delivered
    from mj_policy.skills.model import Skill


class Projection:
    """One `projections[]` entry of the policy."""

    __slots__ = (
        "always_loaded",
        "imported",
        "imports",
        "inline",
        "mode",
        "nested_in",
        "pointed",
        "points_to",
        "provider",
        "providers",
        "rule",
        "rule_key",
        "skill",
        "target",
    )

    def __init__(
        self,
        provider: str,
        target: str,
        mode: str,
        always_loaded: bool,
        rule: Delivered | None = None,
    ) -> None:
        self.provider = provider  # the first of `providers` in the table's order: its template
        self.providers: tuple[str, ...] = (provider,)  # every declared provider of the target
        self.target = target
        self.mode = mode  # file | region
        self.always_loaded = always_loaded  # the provider loads it into every conversation
        self.rule = rule  # a rule file of the provider's own: the rule it carries
        self.rule_key = rule.rule.key if rule is not None else None  # its id@version
        self.inline: list[Delivered] = []  # a bootstrap target: the rules it carries below it
        self.imports: str | None = None  # the target whose text an `@path` line brings in
        self.nested_in: str | None = None  # a nested file: the directory whose rules it carries
        self.pointed: dict[str, str] = {}  # rule key → the nested file that carries it in full
        self.skill: Skill | None = None  # a skill file of the provider's own: the skill
        self.points_to: tuple[str, ...] = ()  # targets its client also loads: the bootstrap's
        self.imported: set[str] = set()  # rule keys carried by an `@path` line to the rule


class Inputs:
    """Everything a projection is rendered from, read once."""

    __slots__ = ("_digest", "_hashed", "budget_lines", "override_dir", "policy_file", "values")

    def __init__(
        self,
        policy_file: str,
        hashed: list[Path],
        values: dict[str, str],
        override_dir: Path,
        budget_lines: int = 0,
    ) -> None:
        self.policy_file = policy_file  # repository-relative, as the stamp names it
        self._hashed = hashed  # the policy, then every profile in byte order of its name
        self._digest: str | None = None
        self.values = values  # template variables shared by every provider
        self.override_dir = override_dir  # .ai/repo/providers
        self.budget_lines = budget_lines  # context.always_loaded_budget_lines

    @property
    def policy_sha256(self) -> str:
        """The policy and every profile, concatenated (the ledger line of a writing run; read
        and hashed only when asked)."""
        if self._digest is None:
            self._digest = stamps.policy_digest(path.read_bytes() for path in self._hashed)
        return self._digest


class Rendered:
    """One projection rendered: its text, that text's content hash, and the hash of what the
    text was made from (the stamp's `policy`: the templates and the text they gave)."""

    __slots__ = ("content", "forms", "generated", "inputs", "projection")

    def __init__(
        self,
        projection: Projection,
        generated: str,
        sources: tuple[str, ...] = (),
        inputs: str | None = None,  # the digest, when it is known (read from the facts)
    ) -> None:
        self.projection = projection
        self.forms: dict[str, str] = {}  # rule key → how it carries it (`projection.rules`)
        self.generated = generated  # file mode: without its stamp line; region: the region body
        self.content = stamps.content_hash(generated)
        self.inputs = inputs or stamps.inputs_digest((*sources, generated))
