"""Recording a decision appends to the committed record: the file's own text stays byte for byte, and whatever
form the record takes (an inline array, a replaced entry) the file written is one the next read accepts."""

from __future__ import annotations

from pathlib import Path

from workbench.analysis.model import ACKS_PATH
from workbench.resolve.acks import Ack, parse_acks, record_acks
from workbench.resolve.splice import Choice

TABLES = '# kept as written\n[[ack]]\npath="a.py"\nhunk="h1"\ndecision="dev"\nreason="r"\nwho="w"\nat="t"\n'
INLINE = '# mine\nack = [{path="a.py", hunk="h1", decision="dev", reason="r", who="w", at="t"}]\n'


def _ack(path: str, hunk: str) -> Ack:
    return Ack(path, hunk, Choice.MAIN, "why", "me", "now", by="agent", claim="restored", evidence=("abc",), run="7")


def _record(tmp_path: Path, text: str, *acks: Ack) -> str:
    (tmp_path / ".workbench").mkdir()
    (tmp_path / ACKS_PATH).write_text(text)
    record_acks(tmp_path, list(acks))
    return (tmp_path / ACKS_PATH).read_text()


def test_a_new_entry_leaves_the_files_text_as_it_was(tmp_path: Path) -> None:
    written = _record(tmp_path, TABLES, _ack("b.py", "h2"))
    assert written.startswith(TABLES)
    assert [(a.path, a.by, a.evidence, a.run) for a in parse_acks(written)] == [
        ("a.py", "", (), ""), ("b.py", "agent", ("abc",), "7")]


def test_an_inline_record_takes_a_new_entry(tmp_path: Path) -> None:
    written = _record(tmp_path, INLINE, _ack("b.py", "h2"))
    assert written.startswith("# mine")
    assert [a.path for a in parse_acks(written)] == ["a.py", "b.py"]


def test_an_inline_record_takes_a_replaced_entry(tmp_path: Path) -> None:
    written = _record(tmp_path, INLINE, _ack("a.py", "h1"))
    assert [(a.path, a.by) for a in parse_acks(written)] == [("a.py", "agent")]


def test_a_replaced_entry_keeps_the_comments(tmp_path: Path) -> None:
    written = _record(tmp_path, TABLES, _ack("a.py", "h1"), _ack("c.py", "h3"))
    assert written.startswith("# kept as written")
    assert [(a.path, a.by) for a in parse_acks(written)] == [("a.py", "agent"), ("c.py", "agent")]
