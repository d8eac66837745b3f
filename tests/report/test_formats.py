"""The report formats are one table (``workbench.report.FORMATS``): the command, its help, the cache and the docs
all read it, so a format is added (or described) in one place."""

from __future__ import annotations

import argparse
import re
from pathlib import Path

from workbench.commands import report as report_command
from workbench.report import DEFAULT_FORMAT, FORMATS, ReportFormat

DOC = Path(__file__).resolve().parents[2] / "docs" / "report.md"


def test_the_table_holds_every_format_once() -> None:
    assert [spec.format for spec in FORMATS] == list(ReportFormat)


def test_the_command_offers_the_tables_formats_with_their_help() -> None:
    parser = argparse.ArgumentParser()
    report_command.configure(parser)
    (option,) = [a for a in parser._actions if "--format" in a.option_strings]
    assert list(option.choices or ()) == [spec.format.value for spec in FORMATS]
    assert option.default == DEFAULT_FORMAT.value
    assert option.help == ("md: paste-ready PR body (default); json: workbench.report/1; text: for a terminal; "
                           "github: workflow annotations")
    assert report_command.CACHED_FORMATS == {"md", "json", "github"}


def test_docs_report_md_lists_the_tables_formats() -> None:
    text = DOC.read_text(encoding="utf-8")
    assert f"[--format {'|'.join(spec.format.value for spec in FORMATS)}]" in text
    rows = re.findall(r"^\| `(\w+)`( \(default\))? \| (.+?) \| (.+?) \|$", text, flags=re.M)
    assert rows == [(spec.format.value, " (default)" if spec.format is DEFAULT_FORMAT else "", spec.reader, spec.what)
                    for spec in FORMATS]
