from __future__ import annotations

from mj_policy.projection import stamps


def test_file_stamp_round_trips_on_line_one() -> None:
    body = "# Title\ntext\n"
    line = stamps.file_stamp(".ai/repo/policy.yaml", "f" * 64, stamps.content_hash(body))
    text = stamps.insert_stamp(line, body)
    assert text.splitlines()[0] == line
    found = stamps.read_file_stamp(text)
    assert found.stamp == ("f" * 12, stamps.content_hash(body))
    assert found.covered == body


def test_front_matter_stays_first_and_is_covered() -> None:
    body = "---\ndescription: x\nalwaysApply: true\n---\n# T\n"
    line = stamps.file_stamp("p.yaml", "0" * 64, stamps.content_hash(body))
    text = stamps.insert_stamp(line, body)
    assert text.startswith("---\n") and text.splitlines()[4] == line
    found = stamps.read_file_stamp(text)
    assert found.covered == body and found.line_index == 4


def test_an_unstamped_file_has_no_stamp() -> None:
    assert stamps.read_file_stamp("# plain\n").stamp is None


def test_policy_digest_depends_on_every_part_and_their_order() -> None:
    a = stamps.policy_digest([b"policy", b"profile-a", b"profile-b"])
    assert a != stamps.policy_digest([b"policy", b"profile-b", b"profile-a"])
    assert a == stamps.policy_digest([b"policy", b"profile-a", b"profile-b"])
    assert len(a) == 64
