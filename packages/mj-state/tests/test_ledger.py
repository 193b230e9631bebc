from __future__ import annotations

import json
import os
import subprocess
import sys
import threading
from pathlib import Path
from typing import Any

import pytest
from hypothesis import example
from hypothesis import given
from hypothesis import settings
from hypothesis import strategies as st
from mj_core import limits
from mj_core.errors import InternalError
from mj_state.ledger import read as ledgerread
from mj_state.ledger import scan as ledgerscan
from mj_state.ledger import store as ledger


@pytest.fixture
def repo(tmp_path: Path) -> Path:
    root = tmp_path / "r"
    root.mkdir()
    env = {"GIT_CONFIG_GLOBAL": "/dev/null", "GIT_CONFIG_NOSYSTEM": "1", "PATH": "/usr/bin:/bin"}
    subprocess.run(["git", "init", "-q", "-b", "main"], cwd=root, check=True, env=env)
    subprocess.run(
        [
            "git",
            "-c",
            "user.name=t",
            "-c",
            "user.email=t@e",
            "commit",
            "-q",
            "--allow-empty",
            "-m",
            "i",
        ],
        cwd=root,
        check=True,
        env=env,
    )
    return root


def test_envelope_first_then_payload(repo: Path) -> None:
    line = ledger.append(repo, repo / "st", "question.opened", {"question": "q"}, task_id="t-1")
    assert list(line)[:5] == ["ts", "event", "head", "branch", "by"]
    assert line["task_id"] == "t-1" and line["question"] == "q" and "session" not in line
    stored = (repo / "st" / "ledger.jsonl").read_bytes()
    assert json.loads(stored) == line and stored.count(b"\n") == 1


@pytest.mark.parametrize(
    ("event", "payload", "needle"),
    [
        ("no.such", {}, "not declared"),
        ("question.opened", {}, "question"),
        ("question.opened", {"question": "q", "branch": "x"}, "'branch'"),
    ],
)
def test_tool_bugs_are_internal(repo: Path, event: str, payload: dict, needle: str) -> None:
    with pytest.raises(InternalError, match=needle):
        ledger.append(repo, repo / "st", event, payload)
    assert not (repo / "st" / "ledger.jsonl").exists()


def test_reader_first_key_wins_and_reports_bad_lines(tmp_path: Path) -> None:
    target = tmp_path / "ledger.jsonl"
    target.write_bytes(
        b'{"ts":"a","event":"task.checkpoint","event":"x"}\n'
        b"not json\n"
        b"[1]\n"
        b'{"event":"task.checkpoint"}\n'
        b'{"ts":"b","event":"task.checkpoint"}\n'
        b'{"ts":"c","ev'
    )
    lines = list(ledger.read(target))
    assert lines[0].record == {"ts": "a", "event": "task.checkpoint"}
    assert [line.lineno for line in lines if line.error] == [2, 3, 4, 6]
    found = ledger.scan(target)
    assert len(found.rows) == 6 and [n for n, _ in found.problems] == [2, 3, 4, 6]


def test_append_after_torn_line_keeps_both_lines_apart(repo: Path) -> None:
    state = repo / "st"
    state.mkdir()
    (state / "ledger.jsonl").write_bytes(b'{"ts":"c","ev')
    ledger.append(repo, state, "task.checkpoint", {})
    lines = list(ledger.read(state / "ledger.jsonl"))
    assert [line.error is None for line in lines] == [False, True]


_WRITER = """
import sys
from pathlib import Path
from mj_state.ledger import store as ledger
root = Path(sys.argv[1])
for index in range(int(sys.argv[2])):
    where = {"head": "0" * 40, "branch": "main"}  # no git process per line: the lock is tested
    ledger.append(root, root / "st", "question.opened", {"question": f"q{index}"}, where=where)
"""


def test_eight_processes_append_four_thousand_whole_chained_lines(repo: Path) -> None:
    target = repo / "st" / "ledger.jsonl"
    seen: list[int] = []
    stop = threading.Event()

    def reader() -> None:
        while not stop.is_set():
            seen.append(sum(1 for line in ledger.read(target) if line.error is None))

    thread = threading.Thread(target=reader)
    thread.start()
    writers = [
        subprocess.Popen([sys.executable, "-c", _WRITER, str(repo), "500"]) for _ in range(8)
    ]
    codes = [writer.wait(timeout=600) for writer in writers]
    stop.set()
    thread.join()
    assert codes == [0] * 8
    lines = list(ledger.read(target))
    assert len(lines) == 4000
    assert all(line.error is None and ledger.problem(line) is None for line in lines)
    assert seen and max(seen) <= 4000
    verdict = ledger.scan(target).chain
    assert verdict.ok and verdict.broken is None and verdict.legacy == 0


@settings(deadline=None, max_examples=200)
@given(st.lists(st.binary(max_size=60) | st.sampled_from([b'{"ts":"a","event":"x"}', b"{}"])))
def test_reader_never_raises(tmp_path_factory: pytest.TempPathFactory, chunks: list[bytes]) -> None:
    target = tmp_path_factory.mktemp("l") / "ledger.jsonl"
    target.write_bytes(b"\n".join(chunks))
    for line in ledger.read(target):
        assert (line.error is None) == (
            isinstance(line.record, dict)
            and isinstance(line.record.get("ts"), str)
            and isinstance(line.record.get("event"), str)
        )


VALID = b'{"ts":"a","event":"task.checkpoint","head":"h"}'
TRICKY = [
    VALID,
    b'{"ts":"a","event":"task.checkpoint","event":"nope"}',
    b'{"ts" :"a","event":"task.checkpoint","ts":1}',
    b'{"ts":1,"\\u0074s":"a","event":"task.checkpoint"}',  # an escaped duplicate key
    b'{"ts":"a","event":"no.such"}',
    b'{"note":"\\"ts\\"","ts":"a","event":"task.checkpoint"}',
    b'{"ts":"a","event":"task.checkpoint","payload":{"ts":2}}',
    b'{"ts":"a","event":"task.checkpoint","checkpoint_path":1}',  # a field of another type
    b'{"ts":"a","event":"task.started","scope":["lib",{"k":2}]}',
    b'{"ts":"a","event":"no.such","head":[]}',  # undeclared, and its envelope mistyped
    VALID + b"," + VALID,  # two values on one line
    VALID + b"\r",
    b"  " + VALID,
    b"",
    b"[]",
    b"1",
]


@settings(deadline=None, max_examples=300)
@given(
    st.lists(st.binary(max_size=40) | st.sampled_from(TRICKY) | st.just(VALID)),
    st.booleans(),
)
def test_fast_validation_agrees_with_the_reader(
    tmp_path_factory: pytest.TempPathFactory, chunks: list[bytes], final_newline: bool
) -> None:
    target = tmp_path_factory.mktemp("v") / "ledger.jsonl"
    target.write_bytes(b"\n".join(chunks) + (b"\n" if final_newline and chunks else b""))
    found = ledger.scan(target)
    expected = [(line.lineno, ledger.problem(line)) for line in ledger.read(target)]
    assert found.problems == [(n, reason) for n, reason in expected if reason]
    assert len(found.rows) == len(expected)


def _seen(line: ledger.Line) -> tuple[int, object, object, bytes]:
    return (line.lineno, line.record, line.error, line.raw)


@settings(deadline=None, max_examples=300)
@given(
    st.lists(
        st.binary(max_size=30)
        | st.sampled_from(
            [
                *TRICKY,
                b'{"ts":"a","event":"task.checkpoint","note":"x","note":"y"}',
                b'{"ts":"a","event":"task.checkpoint","n":{"k":1,"k":2}}',
                b'{"ts":"a","event":"task.checkpoint","note":"\\\\":"}',
                b'{"ts":2,"event":"task.checkpoint"}',
                b'{"ts":"a","event":null}',
            ]
        )
        | st.just(VALID)
    ),
    st.booleans(),
)
def test_reading_at_once_agrees_with_reading_line_by_line(
    tmp_path_factory: pytest.TempPathFactory, chunks: list[bytes], final_newline: bool
) -> None:
    target = tmp_path_factory.mktemp("r") / "ledger.jsonl"
    data = b"\n".join(chunks) + (b"\n" if final_newline and chunks else b"")
    target.write_bytes(data)
    one_by_one = [
        ledger.parse(number, text, complete=complete)
        for number, text, complete in ledger.raw_lines(target)
    ]
    assert [_seen(line) for line in ledger.read(target)] == [_seen(line) for line in one_by_one]


def test_a_clean_ledger_is_read_at_once() -> None:
    def plain(data: bytes) -> object:
        return ledgerread.plain_objects(data, ledgerread.rows_of(data))

    clean = VALID + b"\n" + VALID + b"\n"
    assert plain(clean) is not None
    duplicated = b'{"ts":"a","event":"task.checkpoint","note":"x","note":"y"}\n'
    assert plain(clean + duplicated) is None
    assert plain(clean[:-1]) is None  # a torn last line
    nested = b'{"ts":"a","event":"task.checkpoint","data":{"k":1,"j":[{"i":2}]}}\n'
    assert plain(clean + nested) is not None
    hidden = b'{"ts":"a","event":"task.checkpoint","data":{"k":1,"k":2}}\n'
    assert plain(clean + nested + hidden) is None  # a duplicate inside a nested object


def test_a_line_over_the_line_cap_is_one_malformed_line(tmp_path: Path) -> None:
    from mj_core import limits

    target = tmp_path / "ledger.jsonl"
    long = b'{"ts":"a","event":"task.checkpoint","note":"' + b"x" * limits.LEDGER[1] + b'"}'
    target.write_bytes(VALID + b"\n" + long + b"\n" + VALID + b"\n")
    scanned = ledgerscan.scan(target)
    assert len(scanned.rows) == 3
    assert scanned.problems == [(2, f"a line over {limits.LEDGER[1]} bytes (docs/FORMATS.md)")]
    assert [line.error is None for line in ledgerread.read(target)] == [True, False, True]


def test_a_ledger_over_the_file_cap_is_refused_naming_it(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from mj_core import limits
    from mj_core.errors import ContractUnmet

    monkeypatch.setattr(limits, "LEDGER", (4096, 1024))  # the cap, made small enough to pass
    target = tmp_path / "ledger.jsonl"
    target.write_bytes((VALID + b"\n") * 100)
    with pytest.raises(ContractUnmet, match=r"state/ledger.jsonl:\d+:1: over 4096 bytes"):
        ledgerscan.scan(target)
    with pytest.raises(ContractUnmet):
        list(ledgerread.read(target))


@pytest.mark.parametrize(
    "data",
    [b"", b"a\n", b"a\nb\n", b"a\nb", b"\n\n", b"a\n\nb\n", b"torn", b"{}\n{}\n{}"],
)
def test_newest_first_is_raw_lines_reversed(tmp_path: Path, data: bytes) -> None:
    from mj_state.ledger import read as ledgerread

    path = tmp_path / "ledger.jsonl"
    path.write_bytes(data)
    assert list(ledgerread.newest_first(path)) == list(reversed(ledgerread.raw_lines(path)))


@pytest.mark.parametrize("blank", [b" ", b"\t", b"\r", b" \r\t "])
def test_a_key_spelled_with_any_blank_before_its_colon_is_read_first_wins(
    tmp_path: Path, blank: bytes
) -> None:
    target = tmp_path / "ledger.jsonl"
    hidden = b'{"ts":"a","event":"task.checkpoint","event"' + blank + b':"ghost"}'
    target.write_bytes(VALID + b"\n" + hidden + b"\n")
    assert ledgerread.plain_objects(target.read_bytes(), ledgerread.raw_lines(target)) is None
    lines = list(ledger.read(target))
    assert lines[1].record is not None and lines[1].record["event"] == "task.checkpoint"
    assert [value["event"] for value in ledgerscan.scan(target).values] == [
        json.loads(VALID)["event"],
        "task.checkpoint",
    ]


@pytest.mark.parametrize(
    "data",
    [b"", b"a b", b'"a" b', b'x "', b'" ', b"  ", b'"\t', b"a\tb", b'"' + b" " * 600, b"a " * 400],
)
def test_blank_after_quote_is_the_plain_search(data: bytes) -> None:
    plain = any(b'"' + blank in data for blank in (b" ", b"\t", b"\r"))
    assert ledgerread._blank_after_quote(data) is plain


def _first_pair_wins(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for key, item in pairs:
        out.setdefault(key, item)
    return out


def _no_constant(name: str) -> Any:
    raise ValueError(name)


def _stdlib_reading(data: bytes) -> list[tuple[dict[str, Any] | None, bool]]:
    """The oracle: each `\\n`-separated line as the standard library's `json` reads it alone
    (strict UTF-8, JSON's own whitespace, no NaN or Infinity, the first of a duplicated key at
    every level), and whether that object is a ledger record (`ts` and `event` strings)."""
    pieces = data.split(b"\n")
    if not pieces[-1]:
        pieces.pop()
    out: list[tuple[dict[str, Any] | None, bool]] = []
    for text in pieces:
        try:
            if len(text) > limits.LEDGER[1]:
                raise ValueError("over the line cap")
            value = json.loads(
                text.decode("utf-8"),
                object_pairs_hook=_first_pair_wins,
                parse_constant=_no_constant,
            )
        except (ValueError, RecursionError):
            value = None
        if type(value) is not dict:
            out.append((None, False))
        elif type(value.get("ts")) is not str or type(value.get("event")) is not str:
            out.append((value, False))
        elif not _declared_shape(value):
            out.append((None, False))  # a field of another type: withheld from every reader
        else:
            out.append((value, True))
    return out


def _declared_shape(value: dict[str, Any]) -> bool:
    """jsonschema's word on `value` against the types share/events.yaml declares for it."""
    import jsonschema

    declared = ledgerread.declaration()
    spec = declared["events"].get(value["event"])
    types = {**declared["envelope"], **(spec["types"] if spec else {})}
    properties = {key: _schema_of(str(expression)) for key, expression in types.items()}
    return jsonschema.Draft202012Validator({"properties": properties}).is_valid(value)


def _schema_of(expression: str) -> dict[str, Any]:
    """A type expression as JSON Schema (no `|` inside `<…>` in the declarations)."""
    options: list[dict[str, Any]] = []
    for alternative in expression.split("|") if "<" not in expression else [expression]:
        outer, _, rest = alternative.partition("<")
        if not rest:
            options.append({"type": outer})
        elif outer == "array":
            options.append({"type": "array", "items": _schema_of(rest[:-1])})
        else:
            options.append({"type": "object", "additionalProperties": _schema_of(rest[:-1])})
    return {"anyOf": options}


_KEYS = st.sampled_from(["ts", "event", "note", "k", "\\u0074s", "ev\\u0065nt", "", 'a\\"b'])
_SCALARS = st.sampled_from(
    [
        *(b'"a"', b'"task.checkpoint"', b"1", b"-0", b"1e999", b"null", b"true", b"NaN"),
        *(b"Infinity", b'"\\ud800"', b'"\xc3\xa9"', b'"\xff"', b"[]", b"{}", b'[{"k":1,"k":2}]'),
    ]
)
_BLANKS = st.sampled_from(
    [b"", b" ", b"\t", b"\r", b"\x0c", b"\x0b", b"\xc2\xa0", b"\xe2\x80\xa8", b"\x1c", b"\x00"]
)


@st.composite
def _object(draw: st.DrawFn, depth: int = 0) -> bytes:
    value = st.one_of(_SCALARS, _object(depth + 1)) if depth < 2 else _SCALARS
    pairs = draw(st.lists(st.tuples(_KEYS, value, _BLANKS, _BLANKS), max_size=5))
    return b"{" + b",".join(b'"%s"%s:%s%s' % (k.encode(), a, b, v) for k, v, a, b in pairs) + b"}"


@st.composite
def _line(draw: st.DrawFn) -> bytes:
    head = draw(st.sampled_from([b'"ts":"a","event":"task.checkpoint"', b'"ts":"a"', b""]))
    inner = draw(_object())[1:-1]
    text = b"{" + head + (b"," if head and inner else b"") + inner + b"}"
    return draw(_BLANKS) + text + draw(_BLANKS)


@settings(deadline=None, max_examples=int(os.environ.get("MJ_FUZZ_EXAMPLES", "0")) or 600)
@given(
    st.lists(_line() | st.binary(max_size=20) | st.sampled_from(TRICKY), max_size=6),
    st.booleans(),
)
@example([b'{"ts":"a","event":"task.checkpoint"}\x0c'], True)  # a form feed is not JSON's blank
@example([b'{"ts":"a","event":"task.checkpoint","k"\r:1,"k":2}'], True)
def test_every_reader_reads_what_the_standard_library_reads(
    tmp_path_factory: pytest.TempPathFactory, chunks: list[bytes], final_newline: bool
) -> None:
    """The ledger's readers (the one-parse path, the line-by-line path, the scan) against an
    oracle that is not this code: what `json.loads` makes of each line on its own."""
    target = tmp_path_factory.mktemp("o") / "ledger.jsonl"
    data = b"\n".join(chunks) + (b"\n" if final_newline and chunks else b"")
    target.write_bytes(data)
    expected = _stdlib_reading(data)
    got = [
        (line.record if line.error is None else None, line.error is None)
        for line in ledger.read(target)
    ]
    assert got == [(value if ok else None, ok) for value, ok in expected]
    scanned = ledgerscan.scan(target)
    assert scanned.values == [value for value, _ in expected]
    flagged = {number for number, _ in scanned.problems}
    assert flagged >= {number for number, (_, ok) in enumerate(expected, 1) if not ok}


_TASK_LINES = [
    b'{"ts":"a","event":"task.started","task_id":"t-1","scope":["src"],"prev":"x"}',
    b'{"ts":"a","event":"task.started","task_id":"t-2","scope":["src"]}',
    b'{"ts":"b","event" : "task.started","task_id":"t-2"}',  # blanks around the colon
    b'{"ts":"b","ev\\u0065nt":"task.started","task_id":"t-3"}',  # an escaped key
    b'{"ts":"b","event":"task.st\\u0061rted","task_id":"t-1"}',  # an escaped value
    b'{"ts":"c","event":"task.checkpoint","task_id":"t-1"}',
    b'{"ts":"c","event":"task.checkpoint","task_id":"t-2","note":"t-1"}',
    b'{"ts":"d","event":"task.finished","task_id":"t-1","outcome":"completed","head":"h"}',
    b'{"ts":"d","event":"task.finished","task_id":"t-2","outcome":"partial","working_tree":"c"}',
    b'{"ts":"d","event":"task.handed_over","task_id":"t-1","closed":true}',
    b'{"ts":"d","event":"task.finished","task_id":"t-\\u0031","outcome":"abandoned"}',
    b'{"ts":"e","event":"question.opened","task_id":"t-1","payload":{"event":"task.started"}}',
    b'{"ts":"e","event":"task.started","task_id":"t-1","event":"x"}',  # first key wins
    b'{"ts":"e","event":"task.started","task_id":7}',
    b'{"ts":"e","event":"task.finished","task_id":"t-1","outcome":"completed"',  # torn
    b'["task.started","t-1"]',
]


@settings(deadline=None, max_examples=int(os.environ.get("MJ_FUZZ_EXAMPLES", "0")) or 500)
@given(st.lists(st.sampled_from(_TASK_LINES) | st.binary(max_size=12), max_size=12), st.booleans())
def test_the_task_from_its_own_lines_is_the_task_from_the_whole_tail(
    tmp_path_factory: pytest.TempPathFactory, chunks: list[bytes], final_newline: bool
) -> None:
    """`task_rows` (what `start` reads) derives the task `task_scan`'s every line derives:
    the same id, fields, outcome and line numbers, whatever is spelled around them."""
    from mj_state.task import log as tasklog

    target = tmp_path_factory.mktemp("t") / "ledger.jsonl"
    target.write_bytes(b"\n".join(chunks) + (b"\n" if final_newline and chunks else b""))
    whole = ledger.task_scan(target)
    expected = tasklog.derive(list(zip((row[0] for row in whole.rows), whole.values, strict=True)))
    got = tasklog.derive(ledger.task_rows(target))
    assert (got and got.fact()) == (expected and expected.fact())


def test_a_field_of_another_type_is_withheld_named_and_still_chained(repo: Path) -> None:
    """A forger who re-chains after changing a field's type: the chain holds, the line is
    malformed, and no reader takes its object."""
    import hashlib

    state = repo / "st"
    ledger.append(repo, state, "task.started", STARTED, task_id="t-1")
    ledger.append(repo, state, "question.opened", {"question": "which port?"}, task_id="t-1")
    ledger.append(repo, state, "task.checkpoint", {}, task_id="t-1")
    target = state / "ledger.jsonl"
    lines = [json.loads(raw) for raw in target.read_bytes().splitlines()]
    lines[1]["question"] = ["which", "port"]
    out, prev = [], "0" * 64
    for line in lines:
        line["prev"] = prev
        raw = json.dumps(line, separators=(",", ":")).encode()
        out.append(raw)
        prev = hashlib.blake2b(raw, digest_size=32).hexdigest()
    target.write_bytes(b"\n".join(out) + b"\n")
    (state / "ledger.tip").write_text(json.dumps({"size": target.stat().st_size, "last": prev}))
    read = list(ledger.read(target))
    assert read[1].record is None and read[1].parsed == lines[1]
    why = "question.opened: 'question' is an array, not string (share/events.yaml)"
    assert read[1].error == why
    for found in (ledger.scan(target), ledger.task_scan(target)):
        assert found.problems == [(2, why)] and found.chain.ok
        assert found.values[1] is None and found.parsed[1] == lines[1]
    assert ledgerscan.tail_of(ledger.scan(target)).chain.ok


STARTED = {
    "task": "t",
    "profile": "implementation",
    "scope": ["lib"],
    "owner": "o",
    "worktree_id": ".",
    "working_tree": "clean",
}


def test_a_writer_that_would_write_a_field_of_another_type_is_a_bug(repo: Path) -> None:
    with pytest.raises(InternalError, match="'scope' is an array holding another type"):
        ledger.append(repo, repo / "st", "task.started", {**STARTED, "scope": ["lib", 1]})
    assert not (repo / "st" / "ledger.jsonl").exists()
