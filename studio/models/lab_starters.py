"""The bundled starter corpora as the Lab offers them: chosen already, so a first Run runs something; a reader of
Chinese gets the cases in their script first.

Each bundled corpus mixes English, Simplified and Traditional Chinese cases (``resources/corpora/README.md``). In
an English studio they are offered whole, as the files are, and all chosen: a first Run tests the design on the
whole starter set, and gives the figures ``processor-studio lab DESIGN --corpus resources/corpora/*.jsonl`` prints.
In a Chinese studio each file is offered as two sources: its cases in the reader's script, listed first and
already chosen (a first Run tests what the reader reads), and its other cases, unchosen. No case is in two
sources, so choosing both halves runs the whole file.
"""

from __future__ import annotations

from dataclasses import replace

from lab.corpus import Case
from studio.i18n import LANGUAGES, translate
from studio.models.lab_lists import CorpusSource

__all__ = ["case_language", "starter_sources"]

#: The studio's language → the ``lang`` of the corpora's cases in that script.
_CASE_LANGUAGE = {"zh_CN": "zh-CN", "zh_TW": "zh-TW"}


def case_language(language: str) -> str | None:
    """The ``lang`` of the bundled cases written for a reader of ``language`` (None: English, files offered whole)."""
    return _CASE_LANGUAGE.get(language)


def starter_sources(sources: list[CorpusSource], language: str) -> list[CorpusSource]:
    """``sources`` (the bundled corpora, read whole) as the Lab offers them to a reader of ``language``."""
    wanted = case_language(language)
    if wanted is None:
        return [replace(source, checked=True) for source in sources]
    own: list[CorpusSource] = []
    others: list[CorpusSource] = []
    for source in sources:
        mine: list[Case] = [case for case in source.cases if case.lang == wanted]
        rest: list[Case] = [case for case in source.cases if case.lang != wanted]
        if mine:
            own.append(CorpusSource(source.path, mine, bundled=source.bundled, checked=True, part=LANGUAGES[language]))
        if rest:
            part = translate("LabLists", "other languages") if mine else ""
            others.append(CorpusSource(source.path, rest, bundled=source.bundled, part=part))
    return own + others
