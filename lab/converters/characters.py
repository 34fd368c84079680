"""Character tricks: the words stay readable to a model while their letters change (look-alikes, invisible
characters, accents, spacing, typos).

Random choices (which letter, which look-alike, where a typo falls) come from the ``rng`` the chain hands over, so
a variant repeats exactly for the same seed. The reversible ones insert only characters they remove again
(zero-width, tags, combining marks) or map letters one to one (full-width, reversal); their round trip holds for
text that does not already contain those characters.
"""

from __future__ import annotations

import random
import unicodedata

from lab.converters.base import FunctionConverter, fixed

_LEET = str.maketrans({"a": "4", "A": "4", "e": "3", "E": "3", "i": "1", "I": "1", "o": "0", "O": "0",
                       "s": "5", "S": "5", "t": "7", "T": "7", "b": "8", "B": "8", "g": "9", "G": "9"})  # fmt: skip

#: Latin letters and Cyrillic / Greek letters drawn the same in most fonts (written for this project).
HOMOGLYPHS: dict[str, str] = {
    "a": "аɑα", "c": "сϲ", "e": "еҽ", "i": "іι", "j": "ј", "o": "оοσ", "p": "рρ", "s": "ѕ", "x": "хχ",
    "y": "уγ", "h": "һ", "k": "κ", "n": "ո", "v": "ν", "w": "ԝ", "d": "ԁ", "g": "ɡ", "l": "ӏ", "q": "ԛ",
    "A": "АΑ", "B": "ВΒ", "C": "СϹ", "E": "ЕΕ", "H": "НΗ", "I": "ІΙ", "J": "Ј", "K": "КΚ", "M": "МΜ",
    "N": "Ν", "O": "ОΟ", "P": "РΡ", "S": "Ѕ", "T": "ТΤ", "X": "ХΧ", "Y": "ҮΥ", "Z": "Ζ",
}  # fmt: skip

ZERO_WIDTH = ("\u200b", "\u200c", "\u200d", "\u2060")
_TAG_BASE = 0xE0000
#: Combining marks used for accents and zalgo (all in U+0300–U+036F).
_ABOVE = [chr(code) for code in range(0x0300, 0x0315)]
_BELOW = [chr(code) for code in range(0x0316, 0x0334)]
_ACCENTS = ("\u0301", "\u0300", "\u0302", "\u0308", "\u0303")
#: Neighbours on a QWERTY keyboard, for typos.
_KEYBOARD = {
    "a": "qwsz", "b": "vghn", "c": "xdfv", "d": "serfcx", "e": "wsdr", "f": "drtgvc", "g": "ftyhbv", "h": "gyujnb",
    "i": "ujko", "j": "huikmn", "k": "jiolm", "l": "kop", "m": "njk", "n": "bhjm", "o": "iklp", "p": "ol",
    "q": "wa", "r": "edft", "s": "awedxz", "t": "rfgy", "u": "yhji", "v": "cfgb", "w": "qase", "x": "zsdc",
    "y": "tghu", "z": "asx",
}  # fmt: skip


def _homoglyphs(text: str, rng: random.Random) -> str:
    """About half the letters that have a look-alike swapped for one."""
    return "".join(rng.choice(HOMOGLYPHS[char]) if char in HOMOGLYPHS and rng.random() < 0.5 else char for char in text)


def _zero_width(text: str, rng: random.Random) -> str:
    """An invisible character after every visible letter inside a word."""
    out: list[str] = []
    for index, char in enumerate(text):
        out.append(char)
        following = text[index + 1] if index + 1 < len(text) else " "
        if char.isalnum() and following.isalnum():
            out.append(rng.choice(ZERO_WIDTH))
    return "".join(out)


def _strip(characters: str | tuple[str, ...]) -> dict[int, None]:
    return dict.fromkeys(ord(char) for char in characters)


_NO_ZERO_WIDTH = _strip(ZERO_WIDTH)


def _tags(text: str) -> str:
    """ASCII written with Unicode tag characters (U+E0020–U+E007E): invisible on screen, read by some models."""
    return "".join(chr(_TAG_BASE + ord(char)) if 0x20 <= ord(char) <= 0x7E else char for char in text)


def _untags(text: str) -> str:
    return "".join(chr(ord(char) - _TAG_BASE) if 0xE0020 <= ord(char) <= 0xE007E else char for char in text)


def _fullwidth(text: str) -> str:
    return "".join(
        chr(ord(char) + 0xFEE0) if 0x21 <= ord(char) <= 0x7E else "\u3000" if char == " " else char for char in text
    )


def _halfwidth(text: str) -> str:
    return "".join(
        chr(ord(char) - 0xFEE0) if 0xFF01 <= ord(char) <= 0xFF5E else " " if char == "\u3000" else char for char in text
    )


def _without_marks(text: str) -> str:
    return "".join(char for char in text if not 0x0300 <= ord(char) <= 0x036F)


def _diacritics(text: str, rng: random.Random) -> str:
    """Every vowel with an accent (a combining mark, NFC-composed where a precomposed letter exists)."""
    out = "".join(char + rng.choice(_ACCENTS) if char in "aeiouAEIOU" else char for char in text)
    return unicodedata.normalize("NFC", out)


def _undiacritics(text: str) -> str:
    return unicodedata.normalize("NFC", _without_marks(unicodedata.normalize("NFD", text)))


def _zalgo(text: str, rng: random.Random) -> str:
    """One to three marks above and up to two below every letter."""
    out: list[str] = []
    for char in text:
        out.append(char)
        if char.isalpha():
            out += rng.choices(_ABOVE, k=rng.randint(1, 3)) + rng.choices(_BELOW, k=rng.randint(0, 2))
    return "".join(out)


def _random_caps(text: str, rng: random.Random) -> str:
    return "".join(char.upper() if rng.random() < 0.5 else char.lower() for char in text)


def _spacing(text: str) -> str:
    """A space between letters and three between words: ``i g n o r e   a l l``."""
    return "   ".join(" ".join(word) for word in text.split())


def _letter_split(text: str, rng: random.Random) -> str:
    """Each word's letters joined by a separator picked per word (``i-g-n-o-r-e a.l.l``)."""
    return " ".join(rng.choice("-._*/|").join(word) for word in text.split())


def _reverse_words(text: str) -> str:
    return " ".join(word[::-1] for word in text.split(" "))


def _swap(text: str, rng: random.Random) -> str:
    """Two neighbouring inner letters swapped in about a third of the words of four letters or more."""
    words = text.split(" ")
    for index, word in enumerate(words):
        if len(word) >= 4 and word.isalpha() and rng.random() < 0.35:
            at = rng.randrange(1, len(word) - 2)
            words[index] = word[:at] + word[at + 1] + word[at] + word[at + 2 :]
    return " ".join(words)


def _typos(text: str, rng: random.Random) -> str:
    """About one letter in twelve mistyped: a neighbouring key, a doubled or a dropped letter."""
    out: list[str] = []
    for char in text:
        lower = char.lower()
        if lower not in _KEYBOARD or rng.random() >= 1 / 12:
            out.append(char)
            continue
        kind = rng.randrange(3)
        if kind == 0:
            neighbour = rng.choice(_KEYBOARD[lower])
            out.append(neighbour.upper() if char.isupper() else neighbour)
        elif kind == 1:
            out.append(char + char)
    return "".join(out)


CONVERTERS = (
    FunctionConverter("leetspeak", "Letters written as digits (a→4, e→3, i→1, o→0, s→5, t→7).",
                      fixed(lambda text: text.translate(_LEET))),
    FunctionConverter("homoglyph", "About half the letters swapped for Cyrillic or Greek look-alikes.", _homoglyphs),
    FunctionConverter("zero-width", "Invisible zero-width characters between the letters of every word.",
                      _zero_width, lambda text: text.translate(_NO_ZERO_WIDTH)),
    FunctionConverter("tag-smuggle", "The text in invisible Unicode tag characters (U+E0020–U+E007E).",
                      fixed(_tags), _untags),
    FunctionConverter("fullwidth", "ASCII letters, digits and punctuation in their full-width forms (Ａ, ｂ, ！).",
                      fixed(_fullwidth), _halfwidth),
    FunctionConverter("diacritics", "Every vowel with a random accent (á, è, ô, ü, ã).", _diacritics, _undiacritics),
    FunctionConverter("zalgo", "Combining marks stacked above and below every letter (zalgo text).",
                      _zalgo, _without_marks),
    FunctionConverter("random-caps", "Each letter upper or lower case at random.", _random_caps),
    FunctionConverter("spacing", "A space between letters, three between words.", fixed(_spacing)),
    FunctionConverter("letter-split", "Each word's letters joined by -, ., _, *, / or |.", _letter_split),
    FunctionConverter("reverse", "The whole text backwards.", fixed(lambda text: text[::-1]), lambda text: text[::-1]),
    FunctionConverter("reverse-words", "Each word backwards, in its place.", fixed(_reverse_words), _reverse_words),
    FunctionConverter("char-swap", "Two neighbouring letters swapped in about a third of the longer words.", _swap),
    FunctionConverter("typos", "About one letter in twelve mistyped (a neighbouring key, doubled or dropped).",
                      _typos),
)  # fmt: skip
