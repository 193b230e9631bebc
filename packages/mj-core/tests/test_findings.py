from __future__ import annotations

import copy
import io
import json
import pickle

import pytest
from mj_core.errors import ContractUnmet
from mj_core.errors import InternalError
from mj_core.exit_codes import ExitCode
from mj_core.findings import Finding
from mj_core.findings import verdict
from mj_core.stream import jsonl


def test_fail_and_drift_require_a_reproduce_command() -> None:
    with pytest.raises(InternalError, match="reproduce"):
        Finding("FAIL", "policy", "x", "broken")
    with pytest.raises(InternalError):
        Finding("DRIFT", "policy", "x", "moved")
    with pytest.raises(InternalError, match="unknown level"):
        Finding("PANIC", "policy", "x", "?")
    assert Finding("OK", "policy", "x", "fine").reproduce is None


def test_text_rendering() -> None:
    fail = Finding("FAIL", "scope", "config/x", "outside claimed scope", "git status --porcelain")
    assert fail.text() == (
        "FAIL scope       config/x — outside claimed scope  [reproduce: git status --porcelain]"
    )
    assert Finding("OK", "policy", "p.yaml", "parsed").text() == "OK   policy      p.yaml — parsed"


def test_verdict_over_a_stream() -> None:
    ok = Finding("OK", "a", "b", "c")
    drift = Finding("DRIFT", "a", "b", "c", "cmd")
    fail = Finding("FAIL", "a", "b", "c", "cmd")
    missing = Finding("FAIL", "a", "b", "c", "cmd", code=12)
    assert verdict([]) == ExitCode.OK
    assert verdict([ok, Finding("WARN", "a", "b", "c")]) == ExitCode.OK
    assert verdict([ok, drift]) == ExitCode.DRIFT_FOUND
    assert verdict([drift, fail]) == ExitCode.CONTRACT_UNMET
    assert verdict([missing, fail]) == ExitCode.MISSING_ARTIFACT
    assert verdict([fail.record(), {"kind": "summary"}]) == ExitCode.CONTRACT_UNMET


def test_records_survive_a_pipe_byte_boundary() -> None:
    record = Finding("FAIL", "scope", "x", "m", "cmd", code=10).record()
    assert json.loads(json.dumps(record).encode()) == record
    assert Finding.from_record(record).record() == record
    assert next(iter(record)) == "kind"
    assert jsonl.dumps({"a": 1, "kind": "x"}).startswith(b'{"kind":"x"')


def test_jsonl_read_names_the_bad_line() -> None:
    stream = io.BytesIO(b'{"kind":"a"}\n\n[1]\n')
    reader = jsonl.read(stream, "in.jsonl")
    assert next(reader) == {"kind": "a"}
    with pytest.raises(ContractUnmet, match=r"in\.jsonl:3: .*object"):
        next(reader)
    with pytest.raises(ContractUnmet, match=r"<stdin>:1: not JSON"):
        list(jsonl.read(io.BytesIO(b"{nope\n")))


def test_replace_copies_and_checks_again() -> None:
    fail = Finding("FAIL", "scope", "x", "m", "cmd", code=12)
    warn = fail.replace(level="WARN", code=None)
    assert (warn.level, warn.category, warn.reproduce, warn.code) == ("WARN", "scope", "cmd", None)
    assert (fail.level, fail.code) == ("FAIL", 12)
    with pytest.raises(InternalError, match="reproduce"):
        Finding("OK", "a", "b", "c").replace(level="DRIFT")


def test_findings_are_immutable_values() -> None:
    one, two = Finding("WARN", "a", "b", "c"), Finding("WARN", "a", "b", "c")
    assert one == two and hash(one) == hash(two) and len({one, two}) == 1
    assert one != one.replace(message="d") and one != one.record()
    with pytest.raises(AttributeError):
        one.level = "OK"  # type: ignore[misc]
    assert copy.copy(one) == one and copy.deepcopy(one) == one
    assert pickle.loads(pickle.dumps(one)) == one
    assert repr(one) == (
        "Finding(level='WARN', category='a', subject='b', message='c', reproduce=None, code=None,"
        " path=None)"
    )
    located = one.replace(path="src/a.py")
    assert located != one and located.record()["path"] == "src/a.py" and "path" not in one.record()
    assert Finding.from_record(located.record()) == located
