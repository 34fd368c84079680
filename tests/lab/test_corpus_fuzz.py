"""Fuzzing corpus files (issue 9's fuzz suite, the corpus part): any bytes in any supported format load as cases or
fail with a CorpusError naming the file and line — nothing else escapes, and nothing runs."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from lab.corpus import CorpusError, load_corpus
from tests.support.fuzz import TOO_DEEP_TEXT, json_values, nasty_text

SUFFIXES = [".jsonl", ".csv", ".txt", ".yaml"]


def _write(folder: Path, suffix: str, data: bytes) -> Path:
    path = folder / f"corpus{suffix}"
    path.write_bytes(data)
    return path


def _load(path: Path) -> None:
    try:
        corpus = load_corpus(path, label="attack", category="fuzz", lang="en")
    except CorpusError as error:
        message = str(error)
        assert path.name in message, message
        assert "\n" not in message.strip(), message  # one line
        return
    for case in corpus.cases:
        assert isinstance(case.text, str) and case.label in ("attack", "benign")


lines = st.lists(
    st.one_of(
        nasty_text(max_size=30),
        json_values().map(lambda v: json.dumps(v, allow_nan=True)),
        st.sampled_from(TOO_DEEP_TEXT[:2]),
    ),
    max_size=6,
)


@settings(suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow], max_examples=40)
@given(suffix=st.sampled_from(SUFFIXES), content=lines, raw=st.binary(max_size=40))
def test_any_corpus_file_loads_or_fails_with_a_corpus_error(
    tmp_path: Path, suffix: str, content: list[str], raw: bytes
) -> None:
    text = "\n".join(content).encode("utf-8", "surrogatepass") + raw
    _load(_write(tmp_path, suffix, text))


@pytest.mark.parametrize("suffix", SUFFIXES)
def test_deep_or_huge_values_are_corpus_errors_not_crashes(tmp_path: Path, suffix: str) -> None:
    for text in TOO_DEEP_TEXT:
        _load(_write(tmp_path, suffix, text.encode()))


def test_yaml_cannot_run_code(tmp_path: Path) -> None:
    marker = tmp_path / "ran"
    payload = f"tests:\n  - vars: !!python/object/apply:os.system ['touch {marker}']\n"
    _load(_write(tmp_path, ".yaml", payload.encode()))
    assert not marker.exists()
