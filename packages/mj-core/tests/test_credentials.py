"""The one detector: redaction is whole and idempotent, the gate never hides a line the library
flags (corpus and property tests), every plugin of the installed library is accounted for, and
the project's own tree holds nothing it would redact."""

from __future__ import annotations

import importlib
import json
import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import settings
from hypothesis import strategies as st
from mj_core.credentials import detect as credentials
from mj_core.credentials import gate as credentialgate
from mj_core.credentials import scan as credentialscan

ROOT = Path(__file__).resolve().parents[3]
sys.path.insert(0, str(ROOT / "tests"))
credcorpus = importlib.import_module("credcorpus")  # the behavioural suite's corpus

CORPUS = credcorpus.fakes(7)


def test_a_key_block_is_redacted_from_its_begin_line_to_its_end_line() -> None:
    fake = next(f for f in CORPUS if f.detector == "Private Key")
    text = f"before\nkey: {fake.credential}\nafter\n"
    shown, kinds = credentials.redact(text)
    assert shown == "before\nkey: [REDACTED]\nafter\n" and kinds == {"Private Key": 1}
    kept, _ = credentials.redact(text, keep_lines=True)
    assert kept.count("\n") == text.count("\n") and fake.credential.split("\n")[2] not in kept
    unended = text.replace(fake.credential.split("\n")[-1], "")
    assert credentials.redact(unended)[0] == "before\nkey: [REDACTED]"  # to the end of the text


NAME = "client_" + "secret"  # each built here, so no credential sits in this file
VALUE = "Zq8-x71kPw"


@pytest.mark.parametrize(
    ("text", "shown"),
    [
        ("DB_PASS" + "WORD=correct horse battery\n", "DB_PASS" + "WORD=[REDACTED]\n"),
        (json.dumps({NAME: VALUE}), json.dumps({NAME: "[REDACTED]"})),
        (
            "postgres://app:" + VALUE + "@db.example.com/x",
            "postgres://app:[REDACTED]@db.example.com/x",
        ),
    ],
)
def test_an_assignment_loses_its_whole_value_and_a_url_only_its_password(
    text: str, shown: str
) -> None:
    assert credentials.redact(text)[0] == shown


def test_a_token_is_redacted_with_the_characters_around_what_a_plugin_matched() -> None:
    slack = "xoxb-" + "123456789012-" * 2 + "abcdEFGHijklMNOPqrst"  # the plugin stops at E
    assert credentials.redact(f"token {slack} here")[0] == "token [REDACTED] here"


def test_redaction_is_idempotent_and_says_how_many_of_each_kind() -> None:
    text = credcorpus.text(CORPUS)
    shown, kinds = credentials.redact(text)
    assert credentials.redact(shown) == (shown, {})
    assert sum(kinds.values()) == shown.count(credentials.MARK)
    assert {f.detector for f in CORPUS} <= set(kinds)


def test_every_plugin_of_the_library_is_gated_or_left_out_for_a_reason() -> None:
    from detect_secrets.core.plugins.util import get_mapping_from_secret_type_to_class

    shipped = set(get_mapping_from_secret_type_to_class())
    assert shipped == set(credentialgate.COVERS) | set(credentialscan.LEFT_OUT)
    assert {p.secret_type for p in credentialscan.plugins()} == set(credentialgate.COVERS)


def _flagged(text: str, name: str | None) -> set[int]:
    """Lines the library's plugins flag, every line asked (no gate)."""
    rows = list(enumerate(text.split("\n")))
    return {number for number, _, _ in credentialscan.scan(rows, name)}


@pytest.mark.parametrize("name", [None, "notes.md", "config.yaml", "app.py", "app.go"])
def test_the_gate_passes_every_line_the_library_flags_in_the_corpus(name: str | None) -> None:
    for text in credcorpus.files(CORPUS).values():
        flagged = _flagged(text, name)
        assert flagged, name
        assert flagged <= credentialgate.lines(text)


PIECES = [
    "password", "PASSWORD", "secret", "api_key", "ApiKey", "db_pass", "pwd", "contraseña",
    "paſſword", "aws", "token", "cl_key", "softlayer", "\u212aey", "=", "==", ":", ":=", "=>",
    "(", ";", " ", "\t", '"', "'", "`", "[0]", ".assign", "://", "@",
    "-----BEGIN RSA " + "PRIVATE KEY",
    "AKIA", "ghp_", "glpat-", "xoxb-", "sk_live_", "SG.", "eyJ", "-us1", "T3BlbkFJ", "sq0csp-",
    "AccountKey=", "pypi-AgEIcHlwaS5vcmc", "_authToken=", "AC", "SK", "AKC", "AP1",
    "hooks.slack.com", ".cloudant.com", "12345678:", "\u0130", "\u0131",
]  # fmt: skip
WORDS = st.text(alphabet="abcdefghijKLMNOPQ0123456789+/=_-.", min_size=1, max_size=48)
LINES = st.lists(st.one_of(st.sampled_from(PIECES), WORDS), max_size=14).map("".join)


@settings(max_examples=400, deadline=None)
@given(st.lists(LINES, min_size=1, max_size=4).map("\n".join), st.sampled_from([None, "a.py"]))
def test_the_gate_passes_every_line_the_library_flags(text: str, name: str | None) -> None:
    assert _flagged(text, name) <= credentialgate.lines(text)


def _tracked() -> list[tuple[str, str]]:
    listed = subprocess.run(("git", "ls-files", "-z"), cwd=ROOT, capture_output=True, check=True)
    found = []
    for relative in listed.stdout.decode().split("\0"):
        path = ROOT / relative
        if relative and path.is_file() and not path.is_symlink():
            found.append((relative, path.read_bytes().decode("utf-8", "replace")))
    return found


def test_the_projects_own_tree_and_docs_hold_nothing_to_redact() -> None:
    """As the ratchet reads each file (by its type), and as text pasted into a prompt: ordinary
    code and prose with `password`, `token`, `secret`, digests, UUIDs and base64 stay as they
    are. Python source read as free text is reported, not held to zero: there a dict entry
    keyed by a word like secrets, with a name for its value, is a keyword assignment, as the
    library reads any such text."""
    tracked = _tracked()
    assert len(tracked) > 300
    as_files = [(p, s.line, s.kind) for p, t in tracked for s in credentials.find(t, name=p)]
    as_text = [(p, s.line, s.kind) for p, t in tracked for s in credentials.find(t)]
    prose = [hit for hit in as_text if not hit[0].endswith(".py")]
    print(f"{len(tracked)} files: {len(as_files)} as files, {len(as_text)} as text {as_text}")
    assert as_files == [] and prose == []
