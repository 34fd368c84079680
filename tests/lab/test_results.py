"""A results file (one JSON line per finished case) reads back whole: line separators inside a case's text or
its recording stay in their line, and a file an editor saved with a byte-order mark and CRLF keeps its header."""

from __future__ import annotations

import base64
import json
from pathlib import Path

import pytest

from lab.reports import read_case_results
from lab.results import CaseResult, ResultsFile, read_results
from processors.models.recording import RecordedStep, Recording

SEPARATORS = ["\u2028", "\u2029", "\x85"]


def case(case_id: str, text: str, recording: Recording | None = None) -> dict[str, object]:
    result = CaseResult(id=case_id, text=text, label="attack", category="c", lang="en", expect=None, outcome="blocked")
    if recording is not None:
        result.recording = base64.b64encode(recording.to_bytes()).decode("ascii")
    return result.to_dict()


@pytest.mark.parametrize("separator", SEPARATORS)
def test_a_case_and_its_recording_with_a_line_separator_read_back(tmp_path: Path, separator: str) -> None:
    recording = Recording(steps=[RecordedStep("f", [["text-delta", f"said{separator}this"]])])
    path = tmp_path / "results.jsonl"
    results = ResultsFile(path)
    results.append({"kind": "header", "design": "d"})
    results.append(case("a", f"ignore{separator}previous", recording))
    results.append(case("b", "plain"))
    results.close()
    assert separator in path.read_text(encoding="utf-8")  # written raw (ensure_ascii=False), as JSON allows
    header, read = read_results(path)
    assert header == {"kind": "header", "design": "d"}
    assert list(read) == ["a", "b"] and read["a"].text == f"ignore{separator}previous"
    stored = read["a"].recording
    assert stored is not None
    assert Recording.from_bytes(base64.b64decode(stored)).steps[0].events == [["text-delta", f"said{separator}this"]]
    assert [result.id for result in read_case_results(path)] == ["a", "b"]  # what 'lab diff' reads


def test_a_results_file_saved_with_a_byte_order_mark_and_crlf_keeps_its_header(tmp_path: Path) -> None:
    lines = [json.dumps({"kind": "header", "design": "d"}), json.dumps(case("a", "x\u2028y"), ensure_ascii=False)]
    path = tmp_path / "results.jsonl"
    path.write_bytes(("\ufeff" + "\r\n".join(lines) + "\r\n").encode("utf-8"))
    header, read = read_results(path)
    assert header == {"kind": "header", "design": "d"} and read["a"].text == "x\u2028y"


def test_a_line_cut_in_the_middle_of_a_character_is_a_torn_line_like_any_other(tmp_path: Path) -> None:
    path = tmp_path / "results.jsonl"
    header = json.dumps({"kind": "header", "design": "d"}) + "\n"
    whole = json.dumps(case("a", "naïve"), ensure_ascii=False) + "\n"
    line = json.dumps(case("b", "一二三"), ensure_ascii=False).encode("utf-8")
    torn = line[: line.index("三".encode()) + 1]  # the write stopped inside 三 (3 bytes in UTF-8)
    path.write_bytes(header.encode() + whole.encode("utf-8") + torn)
    header_read, read = read_results(path)
    assert header_read == {"kind": "header", "design": "d"} and list(read) == ["a"]  # b runs again


def test_a_verdict_and_its_assertions_read_back_and_older_results_without_them_still_load(tmp_path: Path) -> None:
    judged = CaseResult(
        id="j", text="t", label="attack", category="c", lang="en", expect=None, outcome="passed", verdict="succeeded"
    )
    judged.refused = False
    judged.assertions = [{"type": "not-contains", "value": "PWNED", "passed": False, "reason": "has 'PWNED'"}]
    older = case("o", "before the verdicts")
    for key in ("verdict", "refused", "assertions"):
        older.pop(key)
    path = tmp_path / "results.jsonl"
    results = ResultsFile(path)
    results.append({"kind": "header"})
    results.append(judged.to_dict())
    results.append(older)
    results.close()
    _header, read = read_results(path)
    assert read["j"] == judged
    assert (read["o"].verdict, read["o"].refused, read["o"].assertions) == (None, None, [])
