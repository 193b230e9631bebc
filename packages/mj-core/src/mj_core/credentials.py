"""Known credential shapes: what the ratchet counts as a hard zero and the prompt archive
redacts before any write. Named, so a finding (or a redaction) says which shape it was."""

from __future__ import annotations

import re

SHAPES = {
    "private key block": rb"-----BEGIN (?:RSA |EC |DSA |OPENSSH |ENCRYPTED |PGP )?PRIVATE KEY",
    "AWS access key id": rb"\b(?:AKIA|ASIA)[0-9A-Z]{16}\b",
    "GitHub token": rb"\bgh[pousr]_[A-Za-z0-9]{36,}\b",
    "Slack token": rb"\bxox[abprs]-[A-Za-z0-9-]{10,}",
    "Google API key": rb"\bAIza[0-9A-Za-z_-]{35}\b",
    "Anthropic API key": rb"\bsk-ant-[A-Za-z0-9_-]{20,}",
    "OpenAI API key": rb"\bsk-(?:proj-)?[A-Za-z0-9]{32,}\b",
}
_TEXT = "|".join(f"(?:{p.decode()})" for p in SHAPES.values())  # compiled on first use
MARK = "[REDACTED]"


def redact(text: str) -> tuple[str, int]:
    """`text` with every credential-shaped span replaced by `[REDACTED]`; (text, how many)."""
    return re.subn(_TEXT, MARK, text)
