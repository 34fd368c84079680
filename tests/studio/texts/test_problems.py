"""Coded problems read in the chosen language by their code and values, never by their English (issue 27 item 2)."""

from __future__ import annotations

import pickle
from typing import Any

import pytest

from processors.builtin.base import InvalidOptionsError
from processors.builtin.registry import load_catalogue
from processors.problems import Problem, ProblemError, problem_of
from processors.user_patterns import check_user_pattern
from studio.error_texts import error_text, option_problem_text
from studio.texts.problems import problem_sentence


def _refused(type_name: str, options: dict[str, Any]) -> dict[str, tuple[str, str, dict[str, Any]]]:
    with pytest.raises(InvalidOptionsError) as caught:
        load_catalogue(None).create(type_name, options)
    error = caught.value
    return {field: (message, *error.codes[field]) for field, message in error.errors.items()}


def test_a_problem_is_its_english_and_survives_json_and_pickling() -> None:
    with pytest.raises(ProblemError) as caught:
        check_user_pattern("(a")
    problem = problem_of(caught.value)
    assert problem is not None and problem.code == "pattern:invalid"
    assert str(caught.value) == "invalid regular expression '(a': missing ) at position 2"
    assert problem_of(problem.params["error"]).code == "regex:missing )"  # type: ignore[union-attr]
    again = Problem.from_dict(problem.to_dict())
    assert isinstance(again, Problem) and again == problem and again.params["error"].code == "regex:missing )"
    unpickled = pickle.loads(pickle.dumps(problem))
    assert unpickled == problem and unpickled.code == problem.code and unpickled.params["pattern"] == "(a"


@pytest.mark.parametrize(
    ("language", "words"), [("zh_CN", ("无效的正则表达式", "缺少 )")), ("zh_TW", ("無效的正規表示式", "缺少 )"))]
)
def test_a_pattern_that_does_not_compile_reads_in_chinese_by_its_code(
    in_language: Any, language: str, words: tuple[str, str]
) -> None:
    problems = _refused("RegexFilter", {"rules": [{"name": "r", "pattern": "(a"}]})
    problems |= _refused("StreamErrorRetry", {"matchers": ["x[", r"(\w+\s?)+$"]})
    problems |= _refused("SystemPromptScrubber", {"custom_patterns": [r"\q"]})
    english = {field: option_problem_text(*problem) for field, problem in problems.items()}
    assert english == {field: message for field, (message, _, _) in problems.items()}, "English: as written"
    in_language(language)
    shown = {field: option_problem_text(*problem) for field, problem in problems.items()}
    rule = shown["rules.0.pattern"]
    assert words[0] in rule and words[1] in rule and "'(a'" in rule and "missing" not in rule
    assert "x[" in shown["matchers"] and "not a valid" not in shown["matchers"]
    assert "\\q" in shown["custom_patterns"] and "does not compile" not in shown["custom_patterns"]
    # the same code and values in reworded English read the same in Chinese
    _message, code, params = problems["rules.0.pattern"]
    assert option_problem_text("the rule's pattern is broken", code, params) == rule


def test_a_reworded_problem_keeps_its_translation(in_language: Any) -> None:
    with pytest.raises(ProblemError) as caught:
        check_user_pattern(r"(\w+\s?)+$")
    problem = caught.value.problem
    in_language("zh_CN")
    chinese = problem_sentence(problem)
    assert "灾难性回溯" in chinese
    reworded = problem.reworded("pattern {pattern!r} may hang the guard")
    assert problem_sentence(reworded) == chinese
    assert error_text(ProblemError(reworded)) == chinese


def test_an_unknown_code_is_shown_as_written(in_language: Any) -> None:
    in_language("zh_CN")
    assert problem_sentence(Problem("plugin:own", "a plug-in's {thing}", thing="words")) == "a plug-in's words"


def test_an_mcp_server_refused_by_its_form_reads_in_chinese_by_code(in_language: Any) -> None:
    """The MCP server dialog's and the design's refusals are translated from the check's code, not its English."""
    from pydantic import ValidationError

    from processors.tools.mcp import McpServerError
    from studio.design.agent_design import McpServerConfig
    from studio.error_texts import validation_text

    with pytest.raises(ValidationError) as caught:
        McpServerConfig(name="s", transport="http", url="ftp://x", enabled_tools=[])
    assert validation_text(caught.value) == "an http MCP server needs an http:// or https:// URL"
    in_language("zh_TW")
    assert validation_text(caught.value) == "http MCP 伺服器需要 http:// 或 https:// 網址"
    stopped = Problem("mcp:stopped", "MCP server '{name}' stopped: {reason}", name="tools", reason="EOF")
    chinese = error_text(McpServerError(stopped))
    assert chinese == "MCP 伺服器「tools」已停止：EOF"
    assert error_text(McpServerError(stopped.reworded("{name} went away ({reason})"))) == chinese


def test_a_refused_agent_setting_reads_in_chinese(in_language: Any) -> None:
    """A setting's problem under its field: pydantic's by its error type (no English read)."""
    from studio.design.catalog import studio_catalogue
    from studio.models.design_document import DesignDocument

    document = DesignDocument(studio_catalogue())
    english = document.setting_error("model.temperature", -1.0)
    assert english is not None and "greater than or equal" in english
    in_language("zh_CN")
    chinese = document.setting_error("model.temperature", -1.0)
    assert chinese is not None and "greater" not in chinese and "0" in chinese


def test_a_local_server_that_is_not_running_reads_in_chinese_by_code(in_language: Any) -> None:
    """Settings → Find local servers: a server that does not answer is said in the reader's language."""
    import asyncio
    import socket

    import httpx

    from processors.models.local_servers import ServerKind, probe_server

    with socket.socket() as taken:  # a port nothing listens on once closed
        taken.bind(("127.0.0.1", 0))
        port = taken.getsockname()[1]

    async def probe() -> Any:
        async with httpx.AsyncClient(timeout=2) as client:
            return await probe_server(client, ServerKind("ollama", "Ollama", port), host="127.0.0.1")

    line = asyncio.run(probe())
    assert isinstance(line, Problem) and line.endswith("not running"), "nothing listens on that port in the tests"
    in_language("zh_CN")
    chinese = problem_sentence(line)
    assert chinese.endswith("未运行") and str(line.params["port"]) in chinese
    assert problem_sentence(line.reworded("{server}: nobody home on {port}")) == chinese


def test_thread_file_and_corpus_problems_read_in_chinese_by_code(in_language: Any, tmp_path: Any) -> None:
    """A refused thread file and a corpus line keep their place and read in Chinese from their codes; reworded
    English (same code and values) reads the same."""
    from lab.corpus import CorpusError, load_corpus
    from processors.memory.errors import ThreadImportError
    from processors.memory.transfer import parse_import

    with pytest.raises(ThreadImportError) as thread:
        parse_import('{"version": 1, "thread": {"id": "a/b"}, "messages": [}')
    (tmp_path / "c.jsonl").write_text('{"text": "x", "label": "sneaky"}\n', encoding="utf-8")
    with pytest.raises(CorpusError) as corpus:
        load_corpus(tmp_path / "c.jsonl")
    in_language("zh_TW")
    refused = error_text(thread.value)
    assert "(document)" in refused and "JSON" in refused and "Expecting" not in refused
    line = error_text(corpus.value)
    assert line.endswith("'label' 必須是 'attack' 或 'benign'，實際為 'sneaky'") and "c.jsonl:1: " in line
    problem = corpus.value.message
    assert isinstance(problem, Problem)
    reworded = CorpusError(problem.reworded("bad label {got!r}"), path=corpus.value.path, line=1)
    assert str(reworded).endswith("bad label 'sneaky'") and error_text(reworded) == line
