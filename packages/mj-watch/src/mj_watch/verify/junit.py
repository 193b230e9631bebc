"""`verify`'s findings as JUnit XML: one test suite, one test case a finding line that judges a
claim, a commit, a ledger or a layer run (`classname` its category, `name` its subject); a FAIL
is the case's `<failure>`, a WARN its `<skipped>`."""

from __future__ import annotations

from xml.etree import ElementTree as ET

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

    Record = dict[str, Any]


def document(findings: list[Record]) -> bytes:
    judged = [f for f in findings if f["level"] in ("OK", "WARN", "FAIL")]
    failures = sum(f["level"] == "FAIL" for f in judged)
    skipped = sum(f["level"] == "WARN" for f in judged)
    suite = ET.Element("testsuite", name="majordomus verify", tests=str(len(judged)),
                       failures=str(failures), skipped=str(skipped), errors="0")  # fmt: skip
    for finding in judged:
        case = ET.SubElement(suite, "testcase", classname=f"verify.{finding['category']}",
                             name=str(finding["subject"]))  # fmt: skip
        if finding["level"] == "FAIL":
            failure = ET.SubElement(case, "failure", message=str(finding["message"]))
            failure.text = f"{finding['message']}\nreproduce: {finding['reproduce']}"
        elif finding["level"] == "WARN":
            ET.SubElement(case, "skipped", message=str(finding["message"]))
        else:
            ET.SubElement(case, "system-out").text = str(finding["message"])
    root = ET.Element("testsuites")
    root.append(suite)
    data: bytes = ET.tostring(root, encoding="utf-8", xml_declaration=True)
    return data + b"\n"
