from __future__ import annotations

import io

import pytest
from mj_core import jsonl
from mj_core.errors import ContractUnmet


def test_output_is_compact_utf8_with_kind_first() -> None:
    line = jsonl.dumps({"b": "é", "kind": "x", "n": [1, 2]})
    assert line == '{"kind":"x","b":"é","n":[1,2]}\n'.encode()


def test_nan_and_infinity_are_refused_both_ways() -> None:
    with pytest.raises(ValueError):
        jsonl.dumps({"x": float("nan")})
    for text in (b'{"x": NaN}', b'{"x": Infinity}', b'{"x": -Infinity}'):
        with pytest.raises(jsonl.DecodeError):
            jsonl.loads_line(text)


def test_bad_bytes_name_the_line_and_the_cause() -> None:
    stream = io.BytesIO(b'{"a": 1}\n{"b": "\xff"}\n')
    with pytest.raises(ContractUnmet, match=r"^in\.jsonl:2: not JSON \(not UTF-8 at byte 7\)$"):
        list(jsonl.read(stream, "in.jsonl"))


def test_pretty_is_indented_and_ends_in_a_newline() -> None:
    assert jsonl.pretty({"a": [1]}) == b'{\n  "a": [\n    1\n  ]\n}\n'
    assert jsonl.loads_line(jsonl.encode({"a": "\u2028"})) == {"a": "\u2028"}
