from __future__ import annotations

import io

import pytest
from mj_core.errors import ContractUnmet
from mj_core.stream import jsonl


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


def test_each_line_gives_a_value_only_for_a_line_that_is_exactly_one_value() -> None:
    data = b'{"a":1}\n\n {"b":2}\n{"c":\n3}\n{"d":NaN}\n[1]\n"\xc3\xa9"\n{"e":1}\r\n{"f":1} x'
    got = jsonl.each_line(data)
    assert got[0] == {"a": 1} and got[6] == [1] and got[7] == "é"
    for index in (1, 2, 3, 4, 5, 8, 9):
        assert got[index] is jsonl.NOT_EXACT, index
    assert len(got) == data.count(b"\n") + 1
    assert jsonl.each_line(b'{"a":1}\n\xff') == [jsonl.NOT_EXACT, jsonl.NOT_EXACT]


def test_only_json_whitespace_may_surround_a_line() -> None:
    assert jsonl.loads_line(b' \t{"a":1}\r\n') == {"a": 1}
    for blank in (b"\x0c", b"\x0b", b"\x1c", b"\xc2\xa0", b"\xe2\x80\xa8", b"\x00"):
        with pytest.raises(jsonl.DecodeError):
            jsonl.loads_line(b'{"a":1}' + blank)
        with pytest.raises(jsonl.DecodeError):
            jsonl.loads_line(blank + b'{"a":1}')
