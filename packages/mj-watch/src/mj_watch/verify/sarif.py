"""`verify`'s FAILs as a SARIF 2.1.0 log (OASIS; the schema is vendored under
`share/sarif/`): one run of the tool `majordomus`, one result a FAIL, its `ruleId` the doctrine
the failed judgement upholds, located at the file it is about (an uncovered commit's first
changed path) or else at the policy that demands it (the file CI annotates)."""

from __future__ import annotations

from mj_core.stream import jsonl

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

    Record = dict[str, Any]

POLICY = ".ai/repo/policy.yaml"
RULES = {  # a finding's category → the doctrine it upholds (SARIF's rule id)
    "coverage": "majordomus.scope-integrity",
    "witness": "majordomus.ledger-integrity",
    "reproof": "majordomus.verification-ran",
    "layer": "majordomus.layer-integrity",
}
SCHEMA = (
    "https://docs.oasis-open.org/sarif/sarif/v2.1.0/errata01/os/schemas/sarif-schema-2.1.0.json"
)


def document(findings: list[Record]) -> bytes:
    from importlib.metadata import version

    rules = [{"id": rule, "name": category,
              "shortDescription": {"text": f"verify: {category}"}}
             for category, rule in RULES.items()]  # fmt: skip
    results = [_result(f) for f in findings if f["level"] == "FAIL"]
    driver = {"name": "majordomus", "version": version("majordomus"), "rules": rules}
    log = {"$schema": SCHEMA, "version": "2.1.0",
           "runs": [{"tool": {"driver": driver}, "results": results}]}  # fmt: skip
    return jsonl.dumps(log)


def _result(finding: Record) -> Record:
    rule = RULES.get(str(finding["category"]), "majordomus.layer-integrity")
    text = f"{finding['subject']}: {finding['message']} [reproduce: {finding['reproduce']}]"
    where = {"artifactLocation": {"uri": finding.get("path") or POLICY}, "region": {"startLine": 1}}
    return {"ruleId": rule, "ruleIndex": list(RULES.values()).index(rule), "level": "error",
            "message": {"text": text}, "locations": [{"physicalLocation": where}]}  # fmt: skip
