"""Reports. The HTML report's figures are the studio's: the heat map counts tripped and changed cases (with a
legend), and the recall / FPR bars per category have the studio's figures (share and count, "no attacks" / "no
benign"). Shards merge only when they come from one run's design and mode."""

from __future__ import annotations

import json
import xml.etree.ElementTree as ET
from html.parser import HTMLParser
from pathlib import Path
from typing import Any

import pytest

from lab.metrics import changed_matrix
from lab.reports import html_report, json_report, junit_report, merge_reports, write_atomically
from lab.results import CaseResult, Hit


def result(case_id: str, label: str, outcome: str, category: str, *hits: tuple[str, str]) -> CaseResult:
    return CaseResult(
        id=case_id,
        text=case_id,
        label=label,
        category=category,
        lang="en",
        expect=None,
        outcome=outcome,  # type: ignore[arg-type]
        tripped=[processor for processor, how in hits if how == "aborted"],
        hits=[Hit(processor, "process_input", how) for processor, how in hits],  # type: ignore[arg-type]
    )


RESULTS = [
    result("a1", "attack", "blocked", "direct", ("norm", "changed"), ("inj", "aborted")),
    result("a2", "attack", "modified", "direct", ("norm", "changed")),
    result("a3", "attack", "modified", "direct", ("redact", "changed")),
    result("a4", "attack", "passed", "direct"),
    result("a5", "attack", "blocked", "pii", ("inj", "aborted")),
    result("b1", "benign", "passed", "direct"),
    result("b2", "benign", "blocked", "direct", ("inj", "aborted")),
    result("b3", "benign", "passed", "chat"),
]


class _Svg(HTMLParser):
    """The heat map's cells (title, texts) and the texts of the bars, read from the page."""

    def __init__(self) -> None:
        super().__init__()
        self.cells: list[dict[str, Any]] = []
        self.svgs: list[list[str]] = []
        self._in: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag == "svg":
            self.svgs.append([])
        if tag == "g" and ("class", "cell") in attrs:
            self.cells.append({"title": "", "texts": []})
        self._in.append(tag)

    def handle_endtag(self, tag: str) -> None:
        if self._in:
            self._in.pop()

    def handle_data(self, data: str) -> None:
        if not self._in or not self.svgs:
            return
        if self._in[-1] == "title" and self.cells and "g" in self._in:
            self.cells[-1]["title"] += data
        elif "text" in self._in:
            self.svgs[-1].append(data)
            if "g" in self._in and self.cells:
                self.cells[-1]["texts"].append(data)


def _page(language: str = "en") -> _Svg:
    parser = _Svg()
    parser.feed(html_report(RESULTS, design={"name": "d"}, mode="guardrails", language=language))
    return parser


def test_the_heat_map_counts_tripped_and_changed_cases_as_the_studio_does() -> None:
    page = _page()
    cells = {cell["title"].split(":")[0]: cell["texts"] for cell in page.cells}
    assert changed_matrix(RESULTS) == {"direct": {"norm": 2, "redact": 1}, "pii": {}}
    # every processor that tripped or changed something has a column, the last column counts the misses
    assert cells == {
        "direct × norm": ["·", "+ 2 changed"],
        "direct × inj": ["1 · 25%"],
        "direct × redact": ["·", "+ 1 changed"],
        "direct": ["3 · 75%"],
        "pii × norm": ["·"],
        "pii × inj": ["1 · 100%"],
        "pii × redact": ["·"],
        "pii": ["·"],
    }
    titles = [cell["title"] for cell in page.cells]
    assert "direct × norm: tripped on 0 of 4 attacks (0.0%); changed 2 more" in titles
    assert "direct: 3 of 4 attacks not blocked" in titles
    heat = page.svgs[0]
    assert heat[:4] == ["norm", "inj", "redact", "not blocked"] and "direct (4)" in heat


def test_the_report_says_what_a_cell_counts_and_draws_the_studios_bars() -> None:
    page = html_report(RESULTS, design={"name": "d"}, mode="guardrails")
    assert "only changed without tripping; the last column counts the attacks no processor blocked" in page
    bars = _page().svgs[1]
    # per category: recall then FPR, each with the count it is a share of, or what is missing
    assert bars == [
        "■ recall",
        " ",
        "■ false-positive rate",
        "chat",
        "no attacks",
        "0.0% (1)",
        "direct",
        "25.0% (4)",
        "50.0% (2)",
        "pii",
        "100.0% (1)",
        "no benign",
    ]


def test_the_heat_map_and_bars_read_chinese_and_a_report_without_attacks_says_so() -> None:
    heat = _page("zh_CN").svgs[0]
    assert "未阻止" in heat and "+ 2 个已修改" in heat
    assert "无攻击用例" in _page("zh_CN").svgs[1] and "無正常案例" in _page("zh_TW").svgs[1]
    benign = [r for r in RESULTS if r.label == "benign"]
    page = html_report(benign, design={"name": "d"}, mode="guardrails")
    assert "No attacks in these corpora." in page and page.count("<svg") == 1


def test_shards_of_two_designs_do_not_merge_into_one_report(tmp_path: Path) -> None:
    def shard(name: str, fingerprint: str, cases: list[CaseResult]) -> Path:
        path = tmp_path / name
        report = json_report(cases, design={"name": "support", "fingerprint": fingerprint}, mode="guardrails")
        path.write_text(json.dumps(report), encoding="utf-8")
        return path

    first = shard("s1.json", "aaaa", RESULTS[:4])
    same = shard("s2.json", "aaaa", RESULTS[4:])
    other = shard("s3.json", "bbbb", RESULTS[4:])
    merged = merge_reports([first, same])
    assert [case["id"] for case in merged["cases"]] == [r.id for r in RESULTS]
    assert merged["design"]["fingerprint"] == "aaaa"
    with pytest.raises(ValueError, match=r"s3\.json: design 'bbbb' differs from the first report's \('aaaa'\)"):
        merge_reports([first, other])


@pytest.mark.parametrize("separator", ["\u2028", "\u2029", "\x85"])
def test_lab_merge_reads_reports_with_line_separators_and_a_byte_order_mark(tmp_path: Path, separator: str) -> None:
    cases = [result(f"a{separator}1", "attack", "blocked", "direct", ("inj", "aborted")), *RESULTS[4:]]
    cases[0].text = f"ignore{separator}previous"
    design = {"name": "support", "fingerprint": "aaaa"}
    first, second = tmp_path / "s1.json", tmp_path / "s2.json"
    first.write_text(json.dumps(json_report(cases[:1], design=design, mode="guardrails"), ensure_ascii=False), "utf-8")
    second.write_text(json.dumps(json_report(cases[1:], design=design, mode="guardrails")), "utf-8-sig")  # a BOM
    merged = merge_reports([first, second])
    assert [case["id"] for case in merged["cases"]] == [case.id for case in cases]
    assert merged["cases"][0]["text"] == f"ignore{separator}previous"


def test_the_report_lists_the_attacks_several_processors_caught() -> None:
    several = [
        result("r1", "attack", "blocked", "direct", ("inj", "aborted"), ("judge", "aborted")),
        result("r2", "attack", "blocked", "direct", ("inj", "aborted")),
    ]
    page = html_report(several, design={"name": "d"}, mode="guardrails")
    section = page.split("Attacks caught by several processors (1)</h2>", 1)[1].split("</table>", 1)[0]
    assert '<td class="l">r1</td>' in section and "inj, judge" in section and "r2" not in section
    chinese = html_report(several, design={"name": "d"}, mode="guardrails", language="zh_CN")
    assert "被多个处理器拦截的攻击（1）" in chinese


def test_a_junit_report_of_hostile_text_is_written_and_parses(tmp_path: Path) -> None:
    """NUL, escape sequences, DEL and lone surrogates (a corpus from someone else, a crash message) are written as
    ``#xNN``, as pytest's writer does; before, the report could not be written (lone surrogate) or parsed (NUL)."""
    hostile = "nul\x00 esc\x1b[31m del\x7f lone\ud800 \udfff ok\t\n"
    case = CaseResult(
        id="case\x00\ud83d",
        text=hostile,
        label="attack",
        category="cat\x1b",
        lang="en",
        expect=None,
        outcome="error",
        error=f"RuntimeError: {hostile}",
    )
    passed = result("p\x01", "benign", "passed", "chat\ud800")
    path = tmp_path / "junit.xml"
    write_atomically(path, junit_report([case, passed], name="lab \x00"))
    root = ET.parse(path).getroot()
    assert root.get("name") == "lab #x00"
    (errored,) = [c for c in root.iter("testcase") if c.find("error") is not None]
    assert errored.get("name") == "case#x00#xD83D"
    assert errored.get("classname") == "lab.cat#x1B"
    message = errored.find("error")
    assert message is not None and message.text is not None
    assert "nul#x00 esc#x1B[31m del#x7F lone#xD800 #xDFFF ok\t\n" in message.text
    assert {c.get("name") for c in root.iter("testcase")} == {"case#x00#xD83D", "p#x01"}
