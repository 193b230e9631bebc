"""The gate searches a pattern only in text holding one of the literals it is filed under: every
match of each pattern begins with one of them (read from the pattern's own parse), and the
lines it passes are the lines every pattern searched unconditionally passes."""

from __future__ import annotations

import re
from re import _constants as sre
from re import _parser as sre_parse

from hypothesis import given
from hypothesis import settings
from hypothesis import strategies as st
from mj_core.credentials import gate as credentialgate

FILED = [
    *credentialgate._PLAIN,
    *credentialgate._FOLDED,
    *((literals, pattern) for literals, pattern, _ in credentialgate._WEIGHED),
]


def _starts(items: sre_parse.SubPattern) -> tuple[set[str], bool]:
    """The literal strings every match of `items` begins with, and whether they are all of it."""
    out = {""}
    for op, av in items:
        if op is sre.LITERAL:
            out = {p + chr(av) for p in out}
        elif op is sre.IN and all(kind is sre.LITERAL for kind, _ in av):
            out = {p + chr(value) for p in out for _, value in av}
        elif op in (sre.BRANCH, sre.SUBPATTERN):
            branches = av[1] if op is sre.BRANCH else [av[3]]
            found = [_starts(branch) for branch in branches]
            out = {p + q for p in out for starts, _ in found for q in starts}
            if not all(whole for _, whole in found):
                return out, False
        else:
            return out, False
    return out, True


def test_every_match_of_a_pattern_begins_with_a_literal_it_is_filed_under() -> None:
    for literals, pattern in FILED:
        starts, _ = _starts(sre_parse.parse(pattern))
        assert starts and "" not in starts, pattern
        for start in starts:
            assert start.startswith(literals), (pattern, start)


def test_the_literals_are_read_from_the_parse() -> None:
    """The reading above finds what each kind of node begins with (a check of the check)."""
    assert _starts(sre_parse.parse(r"gh[pousr]_"))[0] == {f"gh{c}_" for c in "pousr"}
    assert _starts(sre_parse.parse(r"A3T[A-Z0-9]|ABIA"))[0] == {"A3T", "ABIA"}
    assert _starts(sre_parse.parse(r"cl(?:oudant|ou)?x"))[0] == {"cl"}
    assert _starts(sre_parse.parse(r"gl(?:pat|dt)-"))[0] == {"glpat-", "gldt-"}


def _unfiltered(text: str) -> set[int]:
    """The gate with every pattern searched whatever the text holds."""
    odd = any(chr(code) in text for code in credentialgate.FOLD)
    folded = (text.translate(credentialgate.FOLD) if odd else text).lower()
    rows = text.split("\n")
    numbers: set[int] = set()

    def lines_of(pattern: str, searched: str, flags: int = 0) -> set[int]:
        found = re.finditer(pattern, searched, flags)
        return {searched.count("\n", 0, m.start()) for m in found}

    for _, pattern in credentialgate._PLAIN:
        numbers |= lines_of(pattern, text)
    for _, pattern in credentialgate._FOLDED:
        numbers |= lines_of(pattern, folded)
    for words, wanted in credentialgate._ANCHORED:
        held = set().union(*(lines_of(re.escape(word), folded) for word in words)) - numbers
        numbers |= {n for n in held if re.search(wanted, rows[n], re.IGNORECASE)}
    for _, pattern, flags in credentialgate._WEIGHED:
        for match in re.finditer(pattern, text, flags):
            if credentialgate.entropy(match.group(1)) > credentialgate.ENTROPY - 1e-9:
                numbers.add(text.count("\n", 0, match.start()))
    return numbers


PIECES = [
    *(literal for literals, _ in FILED for literal in literals),
    *(word for words, _ in credentialgate._ANCHORED for word in words),
    "password", "PASSWORD", "api_key", "paſſword", "\u212aey", "\u0130", " ", "\t", "==",
    "=>", "(", ";", "[0]", "@", "xoxb-", "cl_key", "12345678:", "AP1", "-us1", "hooks.slack.com",
]  # fmt: skip
WORDS = st.text(alphabet="abcdefghijKLMNOPQ0123456789+/=_-.", min_size=1, max_size=48)
LINES = st.lists(st.one_of(st.sampled_from(PIECES), WORDS), max_size=14).map("".join)


@settings(max_examples=300, deadline=None)
@given(st.lists(LINES, min_size=1, max_size=4).map("\n".join))
def test_the_gate_passes_what_every_pattern_searched_passes(text: str) -> None:
    assert credentialgate.lines(text) == _unfiltered(text)


def test_text_without_the_literals_compiles_no_pattern() -> None:
    credentialgate._compiled.clear()
    assert credentialgate.lines("Plain words and nothing more\nsecond line") == set()
    assert credentialgate._compiled == {}
