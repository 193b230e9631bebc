"""The size limits on what a person or a worker writes and the tool reads (docs/FORMATS.md).

Every reader of such a file goes through `files.read_capped` with one of the pairs below: a
file over its byte cap or with a line over its line cap is refused (10) naming the file and
the line, after reading at most cap + 1 bytes. A limit is a property of the format, so no
option or environment variable moves it.
"""

from __future__ import annotations

KIB = 1024
MIB = 1024 * KIB

# (bytes in the file, bytes in one line) for each kind of input
LAYER = (1 * MIB, 16 * KIB)  # manifest, policy, profiles, rule and prompt files, current.yaml
RECORD = (1 * MIB, 16 * KIB)  # checkpoints and handovers: front matter and body
DOCUMENT = (1 * MIB, 64 * KIB)  # context documents (prose: a paragraph may be one line)
LOG = (8 * MIB, 16 * KIB)  # open-questions.md and decisions.md: appended to, never rotated
LEDGER = (64 * MIB, 64 * KIB)  # ledger.jsonl: retention-capped by the policy, one event a line
NOTE = (1 * MIB, 64 * KIB)  # a finish note or a record body handed in by a person

NESTING = 64  # mappings and sequences inside one another in a YAML document
INT_BITS = 64  # a YAML integer is within a signed 64-bit range
BRIEFING_LINE = 1000  # characters of one line of `context` output; longer lines are cut
