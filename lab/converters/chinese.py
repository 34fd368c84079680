"""Chinese converters: script, sound and shape games that a Chinese reader (and a model) still understands.

Simplified ↔ Traditional with OpenCC; pinyin with and without tones, and initials, with pypinyin; homophone,
look-alike and split-character (拆字) substitutions and Chinese–English mixing from small tables written for this
project (``data/README.md``); full-width punctuation games and vertical writing. Both libraries load their
dictionaries on first use (measured at load average 12: OpenCC 0.26 s a configuration, pypinyin's import 0.97 s),
so nothing is paid by code that never converts Chinese; a caller that must not wait (the studio's preview) warms
them off its UI thread with :func:`warm`.
"""

from __future__ import annotations

import json
import random
import re
from collections.abc import Callable
from functools import cache
from importlib import resources
from typing import Any

from lab.converters.base import FunctionConverter, fixed

_HAN = re.compile(r"[\u3400-\u9fff\uf900-\ufaff]")
_HAN_RUN = re.compile(r"([\u3400-\u9fff\uf900-\ufaff]+)")
#: A space beside punctuation (Chinese or ASCII), which the padding of swapped-in English words leaves.
_TIGHT = re.compile(r" (?=[^\w\s])|(?<=[^\w\s]) ")
_WORD = re.compile(r"[A-Za-z']+")
#: ASCII punctuation → its full-width form (the others keep theirs).
_FULLWIDTH_PUNCT = {char: chr(ord(char) + 0xFEE0) for char in "!\"#$%&'()*+,-./:;<=>?@[\\]^_`{|}~"}
#: Separators a writer slips between Chinese characters to break up keywords.
_SEPARATORS = ("·", "、", "｜", "・", "＊", "～")


@cache
def table(name: str) -> dict[str, str]:
    """One of the vendored tables in ``data/`` (see its README for their origin)."""
    text = resources.files("lab.converters").joinpath("data").joinpath(name).read_text(encoding="utf-8")
    loaded: dict[str, str] = json.loads(text)
    return loaded


@cache
def _opencc(config: str) -> Any:
    import opencc  # loads its dictionaries: only when a Chinese script converter runs

    return opencc.OpenCC(config)


def warm() -> None:
    """Load OpenCC's and pypinyin's dictionaries and the tables now (a second or so), not on the first conversion."""
    for config in ("s2t", "t2s"):
        _opencc(config)
    _pinyin("预热", "NORMAL")
    _zh_pattern()
    _en_to_zh()
    for name in ("chaizi.json", "zh_homophones.json", "zh_lookalikes.json"):
        table(name)


def _s2t(text: str) -> str:
    return str(_opencc("s2t").convert(text))


def _t2s(text: str) -> str:
    return str(_opencc("t2s").convert(text))


def _pinyin(run: str, style_name: str) -> list[str]:
    import pypinyin  # loads its dictionaries: only when a pinyin converter runs

    style = getattr(pypinyin.Style, style_name)
    return [str(syllable) for syllable in pypinyin.lazy_pinyin(run, style=style, v_to_u=True)]


def _romanise(text: str, style_name: str, separator: str) -> str:
    """Each run of Chinese characters romanised as a whole (so polyphones read in context), the rest kept; a
    space keeps a romanised run apart from a neighbouring letter or digit."""
    out = ""
    previous_romanised = False
    for piece in _HAN_RUN.split(text):
        if not piece:
            continue
        romanised = _HAN.match(piece) is not None
        if romanised:
            piece = separator.join(_pinyin(piece, style_name))
        if (romanised or previous_romanised) and out[-1:].isalnum() and piece[:1].isalnum():
            out += " "
        out += piece
        previous_romanised = romanised
    return out


def _pinyin_tones(text: str) -> str:
    return _romanise(text, "TONE", " ")


def _pinyin_plain(text: str) -> str:
    return _romanise(text, "NORMAL", " ")


def _pinyin_initials(text: str) -> str:
    """Each character's first pinyin letter, as Chinese chat abbreviates words (密码 → mm)."""
    return _romanise(text, "FIRST_LETTER", "")


def _substitute(name: str, share: float) -> Callable[[str, random.Random], str]:
    def forward(text: str, rng: random.Random) -> str:
        replacements = table(name)
        return "".join(
            rng.choice(replacements[char]) if char in replacements and rng.random() < share else char for char in text
        )

    return forward


def _chaizi(text: str) -> str:
    """Every character the table can split written as its components in corner brackets: 指令 → 「扌旨」令."""
    parts = table("chaizi.json")
    return "".join(f"「{parts[char]}」" if char in parts else char for char in text)


def _zh_words() -> list[str]:
    return sorted(table("zh_en_words.json"), key=len, reverse=True)


@cache
def _zh_pattern() -> re.Pattern[str]:
    return re.compile("|".join(re.escape(word) for word in _zh_words()))


@cache
def _en_to_zh() -> dict[str, str]:
    reverse: dict[str, str] = {}
    for chinese, english in table("zh_en_words.json").items():
        if " " not in english:
            reverse.setdefault(english.lower(), chinese)
    return reverse


def _zh_en_mix(text: str, rng: random.Random) -> str:
    """About half the known words swapped for the other language's: Chinese words for English in Chinese text,
    English words for Chinese in English text (请 ignore 之前的所有 instructions)."""
    if _HAN.search(text):
        words = table("zh_en_words.json")
        mixed = _zh_pattern().sub(lambda m: f" {words[m.group()]} " if rng.random() < 0.5 else m.group(), text)
        return _TIGHT.sub("", re.sub(r" {2,}", " ", mixed)).strip()
    chinese = _en_to_zh()
    return _WORD.sub(
        lambda m: chinese[m.group().lower()] if m.group().lower() in chinese and rng.random() < 0.5 else m.group(),
        text,
    )


def _zh_punct(text: str, rng: random.Random) -> str:
    """ASCII punctuation in full width, and a random separator (·、｜…) between neighbouring Chinese characters."""
    out: list[str] = []
    for index, char in enumerate(text):
        out.append(_FULLWIDTH_PUNCT.get(char, char))
        following = text[index + 1] if index + 1 < len(text) else ""
        if _HAN.fullmatch(char) and following and _HAN.fullmatch(following):
            out.append(rng.choice(_SEPARATORS))
    return "".join(out)


def _vertical(text: str) -> str:
    """One character a line, as in vertical writing: a keyword never appears on one line."""
    return "\n".join(char for char in text if not char.isspace())


CONVERTERS = (
    FunctionConverter("zh-s2t", "Simplified Chinese written in Traditional characters (OpenCC s2t).", fixed(_s2t)),
    FunctionConverter("zh-t2s", "Traditional Chinese written in Simplified characters (OpenCC t2s).", fixed(_t2s)),
    FunctionConverter("pinyin", "Chinese characters as pinyin with tone marks (hū lüè).", fixed(_pinyin_tones)),
    FunctionConverter("pinyin-plain", "Chinese characters as pinyin without tones (hu lve).", fixed(_pinyin_plain)),
    FunctionConverter("pinyin-initials", "Each Chinese character as its pinyin's first letter (密码 → mm).",
                      fixed(_pinyin_initials)),
    FunctionConverter("zh-homophone", "About half the known characters swapped for homophones (密码 → 蜜马).",
                      _substitute("zh_homophones.json", 0.5)),
    FunctionConverter("zh-lookalike", "About half the known characters swapped for look-alikes (我 → 找).",
                      _substitute("zh_lookalikes.json", 0.5)),
    FunctionConverter("chaizi", "Known characters split into their components (拆字: 指 → 「扌旨」).", fixed(_chaizi)),
    FunctionConverter("zh-en-mix", "About half the known words in the other language (Chinese–English mixing).",
                      _zh_en_mix),
    FunctionConverter("zh-punct", "Full-width punctuation, and separators (·、｜) between Chinese characters.",
                      _zh_punct),
    FunctionConverter("zh-vertical", "One character a line, as in vertical writing.", fixed(_vertical)),
)  # fmt: skip
