"""Errors from the layers below the views, shown in the reader's language (studio/error_texts.py,
studio/texts/model_errors.py): design files that cannot be read, chains and tools that cannot be built, thread files
refused, failed model calls. Each error is produced by the real code path (a real file, the real catalogue, the
real store), then shown; English must read exactly as the error's own message, unknown texts fall back to English.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from lab.corpus import CorpusError, load_corpus
from processors.builtin.registry import load_catalogue
from processors.demo.offline import DEMO_TOOLS
from processors.errors import ModelAPIError
from processors.memory import SqlMemory
from processors.memory.errors import ThreadImportError
from processors.problems import Problem, located
from studio.design.agent_design import AgentDesign, ChainEntry, DesignError, load_design
from studio.design.build import build_chains, resolve_tools
from studio.error_texts import design_error_text, error_text, import_problems_text
from studio.texts.model_errors import model_error_message, model_error_payload_message
from tests.studio.i18n_support import english_words


def _design_error(path: Path, text: str) -> DesignError:
    path.write_text(text, encoding="utf-8")
    with pytest.raises(DesignError) as caught:
        load_design(path)
    return caught.value


def _build_error(**entries: list[ChainEntry]) -> DesignError:
    with pytest.raises(DesignError) as caught:
        build_chains(AgentDesign(**entries), load_catalogue(None))
    return caught.value


def _tool_error(name: str, folder: Path) -> DesignError:
    with pytest.raises(DesignError) as caught:
        resolve_tools([name], tool_folder=folder)
    return caught.value


def _errors(tmp_path: Path) -> dict[str, BaseException]:
    """One error of each kind a user meets, made by the real code."""
    return {
        "not json": _design_error(tmp_path / "broken.json", '{"version": 1, "name": '),
        "not an object": _design_error(tmp_path / "list.json", "[1, 2]"),
        "newer": _design_error(tmp_path / "newer.json", json.dumps({"version": 99})),
        "no version": _design_error(tmp_path / "old.json", json.dumps({"name": "x"})),
        "invalid fields": _design_error(
            tmp_path / "fields.json", json.dumps({"version": 1, "colour": "red", "max_steps": 0})
        ),
        "bad options": _build_error(output=[ChainEntry(type="RegexFilter", options={"strategy": "shout"})]),
        "bad regex": _build_error(
            input=[ChainEntry(type="RegexFilter", options={"rules": [{"name": "x", "pattern": "a(b"}]})]
        ),
        "unknown type": _build_error(input=[ChainEntry(type="NoSuchProcessor")]),
        "no demo tool": _tool_error("no_such_tool", tmp_path),
        "no tool file": _tool_error("missing.py:run", tmp_path),
        "not python": _tool_error("notes.txt:run", tmp_path),
    }


@pytest.mark.parametrize("language", ["zh_CN", "zh_TW"])
def test_design_errors_read_in_chinese_with_their_values_kept(tmp_path: Path, in_language: Any, language: str) -> None:
    errors = _errors(tmp_path)
    in_language(language)
    shown = {name: error_text(error) for name, error in errors.items()}
    allowed = {
        *DEMO_TOOLS,
        "shout",
        "NoSuchProcessor",
        "no_such_tool",
        "missing",
        "notes",
        "colour",
        "max_steps",
        "run",
        "version",
        "strategy",
        "presets",
        "rules",
        "pattern",
    }
    for name, text in shown.items():
        assert text != str(errors[name]), f"{name} was not translated: {text!r}"
        assert not english_words(text, allowed), f"{name}: {text!r} -> {english_words(text, allowed)}"
    # the values stay as the runtime wrote them: file names, field paths, positions, the pattern
    assert shown["not json"].startswith("broken.json：")
    assert "99" in shown["newer"]
    assert "colour" in shown["invalid fields"] and "max_steps" in shown["invalid fields"]
    assert "'a(b'" in shown["bad regex"] and "rules.0.pattern" in shown["bad regex"]
    assert "'no_such_tool'" in shown["no demo tool"]
    chain = {"zh_CN": "输出链", "zh_TW": "輸出鏈"}[language]
    assert shown["bad options"].startswith(chain)


def test_in_english_a_design_error_reads_as_its_own_message(tmp_path: Path, in_language: Any) -> None:
    errors = _errors(tmp_path)
    in_language("en")
    for name, error in errors.items():
        assert error_text(error) == str(error), name


def test_a_design_error_without_a_template_is_shown_as_written(in_language: Any) -> None:
    """A plug-in's own message has no template: it reaches the reader unchanged, never lost or garbled."""
    in_language("zh_CN")
    error = DesignError("MyPlugin: the frobnicator is not calibrated", path="")
    assert design_error_text(error) == "MyPlugin: the frobnicator is not calibrated"


def test_a_broken_translation_falls_back_to_the_english_message(in_language: Any) -> None:
    in_language("zh_CN")
    error = DesignError.of("Tool '{name}': {error}", path="tools", name="t", error="boom")
    error.template = "Tool '{nom}'"  # a translator's typo in a placeholder must not hide the error
    assert design_error_text(error) == "Tool 't': boom"


def _import_error(data: Any) -> ThreadImportError:
    memory = SqlMemory("sqlite://")

    async def attempt() -> None:
        await memory.import_thread(json.dumps(data) if not isinstance(data, str) else data)

    import asyncio

    with pytest.raises(ThreadImportError) as caught:
        asyncio.run(attempt())
    return caught.value


@pytest.mark.parametrize("language", ["zh_CN", "zh_TW"])
def test_a_refused_thread_file_names_each_problem_in_chinese(in_language: Any, language: str) -> None:
    not_json = _import_error("{not json")
    bad_ids = _import_error(
        {
            "version": 1,
            "thread": {"id": "t/1", "title": "x"},
            "messages": [
                {"id": "m1", "role": "user", "content": {"format": 2, "parts": []}},
                {"id": "m1", "role": "user", "content": {"format": 2, "parts": []}},
            ],
        }
    )
    in_language(language)
    for error in (not_json, bad_ids):
        text = error_text(error)
        assert not english_words(text, {"messages", "thread", "id", "document"}), text
    assert "'t/1'" in error_text(bad_ids) and "messages[1].id" in error_text(bad_ids)


def test_a_long_problem_list_shows_five_and_counts_the_rest(in_language: Any) -> None:
    in_language("zh_CN")
    # the problems as the import writes them (processors.memory.transfer.id_problem): coded, at their place
    too_long = Problem("thread:id_length", "must be 1 to {max} characters", max=200)
    problems = [located(f"messages[{index}].id", too_long) for index in range(8)]
    assert problems[0] == "messages[0].id: must be 1 to 200 characters"
    text = import_problems_text(problems)
    assert text.count("长度必须为 1 到 200 个字符") == 5
    assert text.endswith("（另有 3 个）")
    in_language("en")
    assert import_problems_text(problems) == "; ".join(problems[:5]) + " (and 3 more)"
    assert str(ThreadImportError(problems)) == "Thread import refused: " + import_problems_text(problems)


def test_a_model_error_of_a_known_kind_is_reworded_and_others_kept(in_language: Any) -> None:
    error = ModelAPIError(None, "Could not reach the provider (Connection error.)", True, kind="unreachable",
                          detail="Connection error.")  # fmt: skip
    payload = error.to_dict()
    assert payload["kind"] == "unreachable" and payload["detail"] == "Connection error."
    in_language("en")
    assert model_error_payload_message(payload) == error.message
    in_language("zh_CN")
    assert model_error_payload_message(payload) == "无法连接到提供方（连接错误。）"
    assert model_error_message("The provider did not answer in time", "timeout") == "提供方未在限定时间内应答"
    # a provider's own words, and an error of an unknown kind, are shown as written
    assert model_error_message("Invalid API key", None) == "Invalid API key"
    assert model_error_message("Something new", "meteor") == "Something new"
    assert "kind" not in ModelAPIError(401, "Invalid API key").to_dict()  # the wire shape of HTTP errors is unchanged


@pytest.mark.parametrize(
    ("content", "chinese"),
    [
        ('{"text": "ok"}\n{"text": broken}\n', "bad.jsonl:2: 不是有效的 JSON（第 10 列：此处应为一个值）"),
        ('{"text": "ok", "label": "sneaky"}\n', "bad.jsonl:1: 'label' 必须是 'attack' 或 'benign'，实际为 'sneaky'"),
        ('{"id": "a", "text": "x"}\n{"id": "a", "text": "y"}\n', "bad.jsonl:2: ID 'a' 已在第 1 行使用"),
    ],
)
def test_a_corpus_line_that_cannot_be_read_keeps_file_and_line_and_reads_chinese(
    tmp_path: Path, in_language: Any, content: str, chinese: str
) -> None:
    (tmp_path / "bad.jsonl").write_text(content, encoding="utf-8")
    with pytest.raises(CorpusError) as caught:
        load_corpus(tmp_path / "bad.jsonl")
    in_language("en")
    assert error_text(caught.value) == str(caught.value)
    in_language("zh_CN")
    assert error_text(caught.value) == f"{tmp_path / chinese}"


def _mcp_errors() -> dict[str, BaseException]:
    """Real McpServerErrors: a program that is not there, one that never answers the handshake, and a tool the
    design enables that the (real, tests/support) server does not offer."""
    import asyncio
    import sys

    from processors.tools.mcp import McpServerError, McpToolSource
    from studio.design.agent_design import McpServerConfig
    from studio.mcp.servers import enabled_tools, runtime_server

    server = str(Path(__file__).parents[1] / "support" / "mcp_server.py")
    configs = {
        "cannot start": McpServerConfig(name="gone", command="/nonexistent/mcp-server"),
        "no handshake": McpServerConfig(
            name="mute", command=sys.executable, args=["-c", "import time; time.sleep(30)"]
        ),
    }
    errors: dict[str, BaseException] = {}

    async def attempt(config: McpServerConfig, seconds: float) -> None:
        async with McpToolSource(runtime_server(config), start_seconds=seconds):
            pass

    for name, config in configs.items():
        with pytest.raises(McpServerError) as caught:
            asyncio.run(attempt(config, 1.0))
        errors[name] = caught.value

    async def offered() -> None:
        config = McpServerConfig(
            name="tools", command=sys.executable, args=[server, "stdio"], enabled_tools=["add", "renamed_tool"]
        )
        async with McpToolSource(runtime_server(config), start_seconds=30) as source:
            enabled_tools(config, source)

    with pytest.raises(McpServerError) as missing:
        asyncio.run(offered())
    errors["not offered"] = missing.value
    return errors


@pytest.mark.parametrize("language", ["zh_CN", "zh_TW"])
def test_an_mcp_server_that_cannot_serve_is_said_in_chinese(in_language: Any, language: str) -> None:
    errors = _mcp_errors()
    in_language(language)
    shown = {name: error_text(error) for name, error in errors.items()}
    server = {"zh_CN": "服务器", "zh_TW": "伺服器"}[language]
    assert "did not start" not in shown["no handshake"] and server in shown["no handshake"]
    assert "1" in shown["no handshake"]  # the seconds waited stay
    assert shown["cannot start"].startswith(f"MCP {server}") and "/nonexistent/mcp-server" in shown["cannot start"]
    assert "renamed_tool" in shown["not offered"] and "does not offer" not in shown["not offered"]
    for name, text in shown.items():
        assert "MCP server '" not in text, f"{name} was not translated: {text!r}"
    in_language("en")
    assert {name: error_text(error) for name, error in errors.items()} == {
        name: str(error) for name, error in errors.items()
    }


def test_a_guards_error_reads_in_chinese_by_its_code_not_its_english(in_language: Any) -> None:
    """A ClassifierGuard model-folder problem carries ClassifierGuard's code and its values: a reworded English
    message does not change what a Chinese reader sees (issue 27)."""
    from processors.builtin.classifier_folder import ClassifierModelError

    error = ClassifierModelError("no_folder", "folder_not_found", folder="/models/x")
    assert error_text(error) == "Model folder not found: /models/x"
    in_language("zh_CN")
    chinese = error_text(error)
    assert "/models/x" in chinese and "Model folder" not in chinese
    error.args = ("The folder /models/x is not there",)
    assert error_text(error) == chinese
