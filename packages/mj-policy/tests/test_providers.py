from __future__ import annotations

import json

import jsonschema
import pytest
from mj_core import share
from mj_core.errors import ContractUnmet
from mj_core.yaml import strict as yamlstrict
from mj_policy import providers

# The providers issue 17 names, besides the five (and the README region) of before.
ASKED = {
    "copilot",
    "opencode",
    "qwen-code",
    "windsurf",
    "cline",
    "kilo-code",
    "roo-code",
    "junie",
    "kiro",
    "amazon-q",
    "zed",
    "aider",
}


def _table() -> dict:
    return yamlstrict.parse(share.read_text("providers.yaml"), "providers.yaml").data


def test_the_table_validates_against_its_schema() -> None:
    schema = json.loads(share.read_text("schemas", "providers.schema.json"))
    jsonschema.Draft202012Validator(schema).validate(_table())


def test_the_schema_refuses_an_unknown_key_and_a_bad_loading_rule() -> None:
    schema = json.loads(share.read_text("schemas", "providers.schema.json"))
    data = _table()
    data["providers"]["codex"]["maximum"] = 1
    with pytest.raises(jsonschema.ValidationError, match="maximum"):
        jsonschema.validate(data, schema)
    data = _table()
    data["providers"]["codex"]["loads"] = "sometimes"
    with pytest.raises(jsonschema.ValidationError, match="sometimes"):
        jsonschema.validate(data, schema)


def test_the_policy_accepts_exactly_the_providers_of_the_table() -> None:
    policy = json.loads(share.read_text("schemas", "policy.schema.json"))
    item = policy["properties"]["projections"]["items"]["properties"]["provider"]
    assert item["enum"] == providers.names()
    assert set(providers.names()) >= ASKED


def test_every_provider_has_a_template_and_its_front_matter_opens_it() -> None:
    for name, row in providers.table().items():
        text = share.read_text("providers", f"{name}.tmpl")
        assert ("{{ bootstrap }}" in text) != (name == "readme")  # the README only points
        if row.data["format"] == "mdc" or name in ("windsurf", "kiro"):
            assert text.startswith("---\n"), name


def test_codex_reads_32_kib_and_its_agents_md_is_always_loaded() -> None:
    codex = providers.get("codex")
    assert codex.always and codex.budget_bytes == 32 * 1024 and codex.target == "AGENTS.md"
    assert not providers.get("generic").always and not providers.get("aider").always


def test_the_line_budget_is_the_lower_of_policy_and_provider() -> None:
    assert providers.lines_budget(providers.get("cursor"), 150) == 150
    assert providers.lines_budget(providers.get("cursor"), 900) == 500
    assert providers.lines_budget(providers.get("codex"), 900) == 900


def test_an_unknown_provider_is_10_naming_the_known_ones() -> None:
    with pytest.raises(ContractUnmet) as caught:
        providers.get("copilot-x", ".ai/repo/policy.yaml:3:15")
    message = caught.value.message
    assert message.startswith(".ai/repo/policy.yaml:3:15: unknown provider 'copilot-x'")
    assert "copilot" in message and "\n" not in message


def test_one_provider_read_from_its_own_line_is_the_tables() -> None:
    """`share.provider_row` (the tool hook's reader) and `providers.one` decode one line of
    the table and give what the whole table gives; a provider the table lacks is None, and a
    name that spells the end of another row's key matches nothing."""
    whole = json.loads(share.read_text("providers.json"))["providers"]
    lines = share.read_text("providers.json").split("\n")
    assert len(lines) == len(whole) + 3  # the head, a provider a line, the close, the end
    for key, row in whole.items():
        assert share.provider_row(key) == row
        found = providers.one(key)
        assert found is not None and found.data == providers.table()[key].data
    for odd in ("nobody", "", 'claude-code":{', "claude"):
        assert share.provider_row(odd) is None and providers.one(odd) is None
