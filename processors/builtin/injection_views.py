"""What an attacker disguised, undone: the texts the injection heuristics read besides the message itself.

An attack hidden from a keyword list is still an attack once its disguise is removed, so the detector scores
every *view* of a message and keeps the highest score:

* always: the text with Unicode compatibility forms folded (NFKC: full-width ``Ｉｇｎｏｒｅ`` → ``Ignore``),
  invisible format characters dropped (zero-width spaces, joiners, bidi marks, soft hyphens) and every
  character Unicode lists as a look-alike of one ASCII letter (UTS #39 confusables: Cyrillic ``а``, Greek ``ο``,
  Latin alpha ``ɑ``, Armenian ``օ`` … 1,225 of them, :mod:`~processors.builtin.confusable_letters`) read as that
  letter; Traditional Chinese written in Simplified (OpenCC ``t2s``: the Chinese signals are written once, in
  Simplified);
* when the text has letters spaced out (``I g n o r e``, ``i.g.n.o.r.e``, ``忽 略 之 前``): the runs joined up;
* when words mix letters and digits (``1gn0r3 4ll``): leetspeak read as letters;
* base64, base32, hex, binary (``01001001 01100111 …``), URL (``%49%67…``) and Morse payloads decoded; ROT13 and
  reversed text undone when the text asks for it; a Latin text that reads as no language undone when one
  letter shift (Caesar, ROT13) or the mirrored alphabet (Atbash) makes English of it, and a text that reads as
  English backwards turned round;
* a payload split into quoted parts ("part A = …", 「第一段…」) put back together;
* text written backwards with nobody asking, words of letters split by ``-``, ``.``, ``/`` …, Chinese characters
  separated or one a line, stacked combining marks and Unicode tag characters
  (:mod:`~processors.builtin.injection_disguises`);
* and, once, the readings of each decoded payload or undisguised text (base64 of leetspeak, hex written backwards);
* a text with ``\\uXXXX`` escapes (a ``json.dumps``'ed tool result, whole or cut) is read with them decoded, and a
  short JSON text also as its prose values where they stand, with their keys, and each long value alone; a long one
  that is mostly syntax as its view *instead of* itself (:mod:`~processors.builtin.injection_json`): the model reads
  prose, not JSON syntax nor escapes as hex noise.

Each extra view is made only when a cheap check says the disguise is there, and covers only the disguised part
and its surroundings (at most :data:`EXCERPT` characters on each side), so an ordinary message costs one pass and
a long document with one odd word costs little more. ``views()`` returns the normalised text first (a long JSON
text that is mostly syntax: its normalised view);
:class:`View` says which views are decoded payloads (the detector does not discount a decoded payload for being
quoted: quoting it is how it is smuggled). :func:`source_map` maps offsets in a view that is not decoded back to the
text (the offline rewrite cuts the text's sentence a signal matched in), built only when asked.
"""

from __future__ import annotations

import base64
import binascii
import bisect
import codecs
import functools
import itertools
import operator
import re
import string
import unicodedata
import urllib.parse
from collections import Counter
from collections.abc import Iterable, Iterator
from typing import Final, Literal, NamedTuple

from processors.builtin.confusable_letters import LETTERS, LOOK_ALIKES
from processors.builtin.injection_disguises import EXCERPT, disguised_readings
from processors.builtin.injection_json import PIECES_LIMIT, escapes_decoded, json_readings, whole_view
from processors.builtin.injection_scan import FastPattern, lower
from processors.builtin.simplified_chinese import simplified

_INVISIBLE: Final = re.compile("[\u00ad\u180e\u200b-\u200f\u202a-\u202e\u2060-\u2064\ufeff]")
#: Unicode's look-alikes of ASCII letters (UTS #39), each read as its letter.
_HOMOGLYPHS: Final = str.maketrans(LOOK_ALIKES, LETTERS)
#: Whether a text may have a look-alike letter (``str.translate`` with a table walks every character): one of those
#: NFKC leaves as they are (the text searched is in NFKC already), or any character beyond the Basic Multilingual
#: Plane. ``re`` tests a class of scattered astral characters one range at a time: the whole table as a class cost
#: 1.2 ms per 1,000 characters of any text, this one 0.01.
_NFKC_LOOK_ALIKES: Final = "".join(c for c in LOOK_ALIKES if c <= "\uffff" and unicodedata.normalize("NFKC", c) == c)
_HAS_HOMOGLYPH: Final = re.compile(f"[{re.escape(_NFKC_LOOK_ALIKES)}\U00010000-\U0010ffff]")
#: Look-alikes that NFKC would turn into another non-ASCII character (Greek lunate sigma ``ϲ``, a look-alike of
#: ``c``, into final sigma): read as their letters before NFKC.
_HIDDEN_BY_NFKC: Final = {
    ord(c): letter
    for c, letter in zip(LOOK_ALIKES, LETTERS, strict=True)
    if unicodedata.normalize("NFKC", c) != c and not unicodedata.normalize("NFKC", c).isascii()
}
_HAS_HIDDEN_BY_NFKC: Final = re.compile(
    f"[{re.escape(''.join(chr(code) for code in _HIDDEN_BY_NFKC if code <= 0xFFFF))}\U00010000-\U0010ffff]"
)
_ASTRAL_CHARACTER: Final = re.compile("[\U00010000-\U0010ffff]")


def _bmp_splitter(table: dict[int, int] | dict[int, str]) -> tuple[re.Pattern[str], dict[str, str]]:
    """What :func:`_translated` needs of a ``str.translate`` table: a pattern that splits a text at each character of
    the Basic Multilingual Plane the table maps (a class ``re`` tests in one step, unlike scattered astral ones),
    and each such character's replacement."""
    mapped = {chr(code): (chr(value) if isinstance(value, int) else value) for code, value in table.items()}
    bmp = "".join(sorted(c for c in mapped if c <= "\uffff"))
    return re.compile(f"([{re.escape(bmp)}])"), mapped


_HOMOGLYPH_SPLIT: Final = _bmp_splitter(_HOMOGLYPHS)
_HIDDEN_BY_NFKC_SPLIT: Final = _bmp_splitter(_HIDDEN_BY_NFKC)


def _translated(
    text: str, table: dict[int, int] | dict[int, str], splitter: tuple[re.Pattern[str], dict[str, str]]
) -> str:
    """``text.translate(table)``, without a dictionary look-up per character of a long text that has a few of the
    table's characters (a README quoting the look-alikes it folds): the text is split at them and joined again
    with their replacements, in C loops. A text with an astral character is translated whole."""
    if _ASTRAL_CHARACTER.search(text):
        return text.translate(table)
    pattern, mapped = splitter
    pieces = pattern.split(text)
    if len(pieces) == 1:
        return text
    pieces[1::2] = map(mapped.__getitem__, pieces[1::2])
    return "".join(pieces)


#: Five or more single letters each followed by a separator, then one more (``I g n o r e``, ``i.g.n.o.r.e``;
#: not ``U.S.A.`` or a version number).
_SPACED_LATIN: Final = re.compile(
    r"[A-Za-z](?<![\w][A-Za-z])[ .\-_*·]{1,3}(?:[A-Za-z][ .\-_*·]{1,3}){4,}[A-Za-z](?![\w])"
)
#: What every spaced run holds one to three characters after its start (a separator, then three single letters):
#: it starts with a separator, so ``re`` skips a long text quickly, and the run is looked for only from there.
_SPACED_HINT: Final = re.compile(r"[ .\-_*·][A-Za-z][ .\-_*·]{1,3}[A-Za-z][ .\-_*·]{1,3}[A-Za-z][ .\-_*·]")
_SEPARATORS: Final = re.compile(r"[ .\-_*·\u3000]+")
#: A word with letters and leetspeak digits mixed (``1gn0r3``, ``pr3v10u5``): read digits as letters.
_LEET_WORD: Final = re.compile(r"\b(?=[A-Za-z0-9@$]*[A-Za-z])(?=[A-Za-z0-9@$]*[013457@$])[A-Za-z0-9@$]{3,}\b")
#: A leetspeak digit right before a letter inside a word (``1g``, ``0r``, ``3v``): the cheap test for leetspeak.
_LEET_HINT: Final = re.compile(r"[013457@$][A-Za-z]")
_LEET: Final = str.maketrans("013457@$", "oieastas")
#: Base64 and base32 payloads, written to start with their character class (the look-behind after it), so that
#: ``re`` skips a Chinese text's long "words" quickly.
_BASE64: Final = re.compile(r"[A-Za-z0-9+/](?<![A-Za-z0-9+/=].)[A-Za-z0-9+/]{15,}={0,2}(?![A-Za-z0-9+/=])")
_BASE32: Final = re.compile(r"[A-Z2-7](?<![A-Za-z0-9+/=].)[A-Z2-7]{15,}={0,6}(?![A-Za-z0-9+/=])")
#: Eight binary digits, four times or more, separated by spaces or nothing.
#: Written to start with a character class (the look-behind after it), so that ``re`` skips the text quickly.
_BINARY: Final = re.compile(r"[01](?<![01].)[01]{7}[ ]?(?:[01]{8}[ ]?){3,}(?![01])")
#: Four or more percent-encoded bytes in a row (a whole payload URL-encoded, not a link's odd ``%20``).
#: (Written to start with its ``%``, so that ``re`` looks for that character rather than trying every position.)
_PERCENT: Final = re.compile(r"%[0-9A-Fa-f]{2}(?:%[0-9A-Fa-f]{2}){3,}")
#: Ten or more Morse letters separated by spaces or slashes.
#: Written to start with a character class (the look-behind after it), so that ``re`` skips the text quickly.
_MORSE: Final = re.compile(r"[.\-](?<![\w.\-].)[.\-]{0,5}(?:[ ]+/?[ ]*[.\-]{1,6}){9,}(?![\w])")
_MORSE_LETTERS: Final = dict(
    zip(
        [
            ".-",
            "-...",
            "-.-.",
            "-..",
            ".",
            "..-.",
            "--.",
            "....",
            "..",
            ".---",
            "-.-",
            ".-..",
            "--",
            "-.",
            "---",
            ".--.",
            "--.-",
            ".-.",
            "...",
            "-",
            "..-",
            "...-",
            ".--",
            "-..-",
            "-.--",
            "--..",
            "-----",
            ".----",
            "..---",
            "...--",
            "....-",
            ".....",
            "-....",
            "--...",
            "---..",
            "----.",
            ".-.-.-",
            "--..--",
            "..--..",
            "-.-.--",
            "---...",
        ],
        "abcdefghijklmnopqrstuvwxyz0123456789.,?!:",
        strict=True,
    )
)
#: Common short English words: a Latin text with none of them may be a shifted or mirrored alphabet, or English
#: written backwards (their reversals: ``eht``, ``dna``, ``uoy``).
_ENGLISH_WORDS: Final = frozenset(
    [
        "the",
        "and",
        "you",
        "your",
        "all",
        "to",
        "of",
        "is",
        "are",
        "a",
        "an",
        "in",
        "on",
        "for",
        "with",
        "this",
        "that",
        "it",
        "be",
        "not",
        "now",
        "from",
        "my",
        "me",
        "what",
        "how",
    ]
)
_REVERSED_WORDS: Final = frozenset(word[::-1] for word in _ENGLISH_WORDS if len(word) > 2)
_LATIN_WORD: Final = re.compile(r"[A-Za-z]+")
_ATBASH: Final = str.maketrans(
    string.ascii_lowercase + string.ascii_uppercase, string.ascii_lowercase[::-1] + string.ascii_uppercase[::-1]
)
#: The longest text the letter-shift and backwards readings are tried on (a chat message, not a document).
CIPHER_LIMIT: Final = 2000
#: The fewest characters a base64 or base32 payload (16) or a hex one (20) is read from.
SHORTEST_PAYLOAD: Final = 16
_HEX: Final = re.compile(r"[0-9A-Fa-f](?<![0-9A-Fa-f].)[0-9A-Fa-f](?:[0-9A-Fa-f]{2}){9,}(?![0-9A-Fa-f])")
#: The requests that undo a disguise, searched in the lower-cased text (:class:`FastPattern`: no per-position
#: case folding on a long document).
_ROT13_ASKED: Final = FastPattern(r"\brot[ -]?13\b")
_REVERSE_ASKED: Final = FastPattern(r"\brevers|\bbackwards?\b|倒过来|倒着|倒著|反过来")
_REVERSE_CUES: Final = ("revers", "backward", "倒", "反过")
_PARTS_CUES: Final = ("part", "combin", "concat", "部分", "段", "拼")
_PARTS_ASKED: Final = FastPattern(r"\bparts?\b|\bcombine\b|\bconcatenat|部分|两段|拼起来|拼接")
_QUOTED: Final = re.compile(r"[\"“「『']([^\"”」』']{2,200})[\"”」』']")


class View(NamedTuple):
    """One reading of the text: ``decoded`` is true for a payload that was encoded or disguised.

    ``shown`` is the same reading before its Traditional Chinese was written in Simplified, for quoting what
    matched in the user's own characters; OpenCC maps character for character, so offsets in ``text`` hold in
    ``shown`` whenever the two are of one length (else ``shown`` is ``text``).
    """

    text: str
    decoded: bool
    shown: str = ""
    #: For a reading of the text itself (not decoded): what was normalised into ``text`` (:func:`source_map` maps
    #: offsets in ``text`` back to the message through it), and whether that is ``"text"``, the text with its
    #: escapes decoded from ``blank`` on (blanks before), or ``"json"``, a JSON text's strings decoded where they
    #: stand (:func:`~processors.builtin.injection_json.json_readings`).
    before: str = ""
    origin: Literal["text", "json"] = "text"
    blank: int = 0

    def quoted(self, start: int, end: int) -> str:
        """``text[start:end]`` in the characters the reading had before conversion."""
        source = self.shown if len(self.shown) == len(self.text) else self.text
        return source[start:end]


#: Full-width ASCII forms and the ideographic space (every line of Chinese text has some): their NFKC is one ASCII
#: character each.
_FULL_WIDTH: Final = re.compile("[\uff01-\uff5e\u3000]")
_FULL_WIDTH_SPLIT: Final = re.compile(f"({_FULL_WIDTH.pattern})")
_NARROW: Final = {chr(code): unicodedata.normalize("NFKC", chr(code)) for code in (*range(0xFF01, 0xFF5F), 0x3000)}


def nfkc(text: str) -> str:
    """``unicodedata.normalize("NFKC", text)``, without normalising a whole document for a few characters.

    Replacing each full-width form by its one-character decomposition leaves the text's full decomposition as it
    was, so the result's NFKC is the text's (and a Chinese text's punctuation costs no Python call). Then only the
    runs of non-ASCII characters that are not in NFKC are normalised (:func:`_nfkc_by_runs`).
    """
    if unicodedata.is_normalized("NFKC", text):
        return text
    if _FULL_WIDTH.search(text):
        pieces = _FULL_WIDTH_SPLIT.split(text)  # a Chinese text has many: no Python call for each
        pieces[1::2] = map(_NARROW.__getitem__, pieces[1::2])
        text = "".join(pieces)
        if unicodedata.is_normalized("NFKC", text):
            return text
    return _nfkc_by_runs(text)


_NON_ASCII_RUN: Final = re.compile(r"([^\x00-\x7f]+)")
_LAST_CHARACTER: Final = itertools.repeat(slice(-1, None))
_IS_NFKC: Final = functools.partial(unicodedata.is_normalized, "NFKC")


def _nfkc_by_runs(text: str) -> str:
    """``text``'s NFKC, normalising only the runs of non-ASCII characters that need it, each with the ASCII character
    before it (``e`` and a combining acute accent make ``é``).

    NFKC never joins an ASCII character to what comes before it (no composition ends with one, and reordering stops
    at it): the NFKC of a text cut before an ASCII character is the NFKC of its two parts, joined.
    """
    pieces = _NON_ASCII_RUN.split(text)  # ASCII, a run, ASCII, … ASCII (a part may be empty)
    runs = pieces[1::2]
    with_before = list(map(operator.add, map(operator.getitem, pieces[0:-1:2], _LAST_CHARACTER), runs))
    for index in itertools.compress(range(len(runs)), map(operator.not_, map(_IS_NFKC, with_before))):
        before = 2 * index
        if pieces[before]:
            pieces[before] = pieces[before][:-1]  # its last character is normalised with the run
        pieces[before + 1] = unicodedata.normalize("NFKC", with_before[index])
    return "".join(pieces)


def normalise(text: str) -> str:
    """NFKC, invisible characters removed, homoglyphs mapped, Traditional Chinese written in Simplified: the view
    every message gets."""
    return simplified(_folded(text))


def _folded(text: str) -> str:
    """NFKC, invisible characters removed, homoglyphs mapped."""
    if not text.isascii() and _HAS_HIDDEN_BY_NFKC.search(text):
        text = _translated(text, _HIDDEN_BY_NFKC, _HIDDEN_BY_NFKC_SPLIT)
    folded = nfkc(text)
    if not folded.isascii():
        folded = _INVISIBLE.sub("", folded)
        if _HAS_HOMOGLYPH.search(folded):
            folded = _translated(folded, _HOMOGLYPHS, _HOMOGLYPH_SPLIT)
    return folded


def views(text: str) -> list[View]:
    """The normalised text, then every decoded or undisguised reading a cheap check finds evidence of, then those
    readings' own (an attack disguised twice: base64 of leetspeak, hex written backwards), once; for a JSON text,
    its prose values too (:mod:`~processors.builtin.injection_json`).

    The detector reads a text twice (its heuristics, then its model): the last texts' views are kept, so a text is
    read (and a JSON result parsed) once."""
    return list(_cached_views(text))


@functools.lru_cache(maxsize=8)
def _cached_views(text: str) -> tuple[View, ...]:
    return tuple(_views(text, nested=True))


def _views(text: str, *, nested: bool) -> list[View]:
    """:func:`views`; ``nested``: the decoded readings are read again (one level), and a JSON text's prose values
    are read as a view of their own (:mod:`~processors.builtin.injection_json`)."""
    before = escapes_decoded(text)
    folded = _folded(before)
    plain = simplified(folded)
    found = [View(plain, False, folded, before)]
    #: The readings that are a whole payload or the whole disguised text (not an excerpt around a request to
    #: undo something): read again when ``nested``.
    payloads: list[str] = []

    def add(candidate: str, payload: bool = False) -> None:
        if candidate and candidate != plain and all(candidate != view.text for view in found):
            found.append(View(candidate, True, candidate))
            if payload:
                payloads.append(candidate)

    hint = _SPACED_HINT.search(plain)
    spaced = _SPACED_LATIN.search(plain, max(0, hint.start() - 3)) if hint else None
    if spaced:
        add(_SPACED_LATIN.sub(_joined, _around(plain, spaced.start(), spaced.end())))
    # Reversed text, split words, Chinese characters one a line or separated, stacked marks, tag characters
    # (:mod:`~processors.builtin.injection_disguises`; its Chinese test reads ``忽 略 之 前`` too, and more).
    for candidate in disguised_readings(plain):
        add(candidate, payload=True)
    hints = [hint.start() for hint, _ in zip(_LEET_HINT.finditer(plain), range(12), strict=False)]
    # Leetspeak words come together: look at the first cluster (three hints within one excerpt), not the document.
    cluster = next((i for i in range(len(hints) - 2) if hints[i + 2] - hints[i] <= EXCERPT), None)
    if cluster is not None:
        excerpt = _around(plain, hints[cluster], hints[cluster + 2])
        if sum(1 for word in _LEET_WORD.findall(excerpt) if _LEET_HINT.search(word)) >= 3:
            add(_LEET_WORD.sub(lambda m: m.group().lower().translate(_LEET), excerpt))
    # A document repeats its identifiers (``processOutputStream`` …): each candidate is decoded once.
    long_words = _long_words(plain)
    for candidate in dict.fromkeys(_BASE64.findall(long_words)):
        add(_decoded_base64(candidate), payload=True)
    for candidate in dict.fromkeys(_HEX.findall(long_words)):
        add(_decoded_hex(candidate), payload=True)
    for candidate in dict.fromkeys(_BASE32.findall(long_words)):
        add(_decoded_base32(candidate), payload=True)
    if "0" in plain and "1" in plain:
        for candidate in dict.fromkeys(_BINARY.findall(plain)):
            add(_printable(bytes(int(group, 2) for group in re.findall(r"[01]{8}", candidate))), payload=True)
    if "%" in plain:
        for candidate in dict.fromkeys(_PERCENT.findall(plain)):
            add(_printable(urllib.parse.unquote_to_bytes(candidate)), payload=True)
    if ".-" in plain or "-." in plain:
        for candidate in dict.fromkeys(_MORSE.findall(plain)):
            add(_decoded_morse(candidate), payload=True)
    if len(plain) <= CIPHER_LIMIT:
        add(_deciphered(plain))
    lowered = lower(plain)
    asked = _ROT13_ASKED.search(lowered) if "rot" in lowered else None
    if asked:
        add(codecs.encode(_around(plain, asked.start(), asked.end()), "rot13"))
    asked = _REVERSE_ASKED.search(lowered) if any(cue in lowered for cue in _REVERSE_CUES) else None
    if asked:
        add(_around(plain, asked.start(), asked.end())[::-1])
    asked = _PARTS_ASKED.search(lowered) if any(cue in lowered for cue in _PARTS_CUES) else None
    if asked:
        parts = _QUOTED.findall(_around(plain, asked.start(), asked.end()))  # the parts named near the request
        if len(parts) >= 2:
            add("".join(parts))
    if nested:
        for payload in payloads:
            for inner in _views(payload, nested=False)[1:]:
                add(inner.text)
        # A long JSON text that is mostly syntax is read as its view instead (what it holds besides syntax, each
        # string where it stands: the offline rewrite cuts the text where a signal matched), and the rest of it as it
        # stands if the view stopped early; a long one that is mostly prose as it is: each character is read once.
        # Its disguises are the text's, looked for above.
        if len(text) > PIECES_LIMIT:
            whole = whole_view(text)
            if whole is not None:
                view, covered = whole
                if covered < len(text):
                    found.append(_plain_view(view, "json"))
                    found[0] = _plain_view(" " * covered + escapes_decoded(text[covered:]), "text", covered)
                else:
                    found[0] = _plain_view(view, "json")
            return found
        # A short one as it is, then its prose values, then each long value alone, read as the text is.
        for reading in json_readings(text):
            plain_reading = _plain_view(reading, "json")
            if all(plain_reading.text != view.text for view in found):
                found.append(plain_reading)
    return found


def _plain_view(reading: str, origin: Literal["text", "json"], blank: int = 0) -> View:
    """A JSON text's reading as a view of the text itself (not decoded: it is the text), normalised."""
    folded = _folded(reading)
    return View(simplified(folded), False, folded, reading, origin, blank)


def _long_words(text: str) -> str:
    """``text``'s words (split at white space) of :data:`SHORTEST_PAYLOAD` characters or more, joined by spaces.

    The base64, base32 and hex patterns match no white space, need none around a payload but none of their own
    characters either, and match at least that many characters: in these words they find what they find in the
    whole text, in the same order, without ``re`` walking every character of a long document three times."""
    words = text.split()
    return " ".join(itertools.compress(words, map(operator.ge, map(len, words), itertools.repeat(SHORTEST_PAYLOAD))))


def _around(text: str, start: int, end: int) -> str:
    """``text[start:end]`` with up to :data:`EXCERPT` characters on each side."""
    return text[max(0, start - EXCERPT) : end + EXCERPT]


def _joined(run: re.Match[str]) -> str:
    """``I g n o r e   a l l`` → ``Ignore all``: the commonest separator splits letters, any other splits words."""
    gaps = _SEPARATORS.findall(run.group())
    letter_gap = max(set(gaps), key=gaps.count)
    return _SEPARATORS.sub(lambda gap: "" if gap.group() == letter_gap else " ", run.group())


def _printable(raw: bytes) -> str:
    try:
        decoded = raw.decode("utf-8")
    except UnicodeDecodeError:
        return ""
    if not decoded:
        return ""
    letters = sum(ch.isalpha() or ch.isspace() for ch in decoded)
    # Text, or a payload disguised again (leetspeak, hex: digits among the letters) that its views will read.
    readable = letters >= 0.7 * len(decoded) or (decoded.isprintable() and letters >= 0.3 * len(decoded))
    return normalise(decoded) if readable else ""


def _decoded_base64(candidate: str) -> str:
    try:
        raw = base64.b64decode(candidate + "=" * (-len(candidate) % 4), validate=True)
    except (binascii.Error, ValueError):
        return ""
    return _printable(raw)


def _decoded_base32(candidate: str) -> str:
    try:
        raw = base64.b32decode(candidate + "=" * (-len(candidate) % 8))
    except (binascii.Error, ValueError):
        return ""
    return _printable(raw)


def _decoded_morse(candidate: str) -> str:
    words = re.split(r"\s*/\s*", candidate.strip())
    return " ".join("".join(_MORSE_LETTERS.get(letter, "") for letter in word.split()) for word in words)


def _english_words(words: list[str]) -> int:
    return sum(map(_ENGLISH_WORDS.__contains__, map(str.lower, words)))


def _deciphered(text: str) -> str:
    """``text`` undone when it reads as no English but a letter shift, the mirrored alphabet or reading it backwards
    makes English of it (at least three common words, a third of its words or more); ``""`` otherwise.

    The readings are counted on the text's Latin words alone (a shift maps letters to letters, so the words of a
    shifted text are the shifted words): 26 translations of a short ASCII string, not of a whole Chinese message."""
    words = _LATIN_WORD.findall(text)
    if len(words) < 4 or _english_words(words) > len(words) // 10:
        return ""
    needed = max(3, len(words) // 3)
    if sum(map(_REVERSED_WORDS.__contains__, map(str.lower, words))) >= needed:
        return text[::-1]
    # Each word counts for the readings that make it a common word (:data:`_READINGS_MAKING_ENGLISH`).
    found = Counter(itertools.chain.from_iterable(map(_READINGS_MAKING_ENGLISH.get, map(str.lower, words), _NONE)))
    counts = [found[index] for index in range(len(_READINGS))]
    best = max(range(len(_READINGS)), key=counts.__getitem__)  # the first of the best, as before
    return text.translate(_READINGS[best]) if counts[best] >= needed else ""


def _shift_table(shift: int) -> dict[int, int]:
    lower_letters, upper_letters = string.ascii_lowercase, string.ascii_uppercase
    return str.maketrans(
        lower_letters + upper_letters,
        lower_letters[shift:] + lower_letters[:shift] + upper_letters[shift:] + upper_letters[:shift],
    )


#: The readings :func:`_deciphered` tries, in order: the mirrored alphabet, then each letter shift from 1 to 25.
_READINGS: Final = (_ATBASH, *(_shift_table(shift) for shift in range(1, 26)))


def _readings_making_english() -> dict[str, tuple[int, ...]]:
    """Each lower-case word that one of :data:`_READINGS` turns into a common English word, and which readings do
    (their indices, in order): each reading maps letters one to one, so the words it makes English of are the
    common words read back through it."""
    making: dict[str, tuple[int, ...]] = {}
    for index, table in enumerate(_READINGS):
        back = {value: key for key, value in table.items()}
        for english in sorted(_ENGLISH_WORDS):
            word = english.translate(back)
            making[word] = (*making.get(word, ()), index)
    return making


#: For :func:`_deciphered`: a text's words counted per reading in C loops, not 26 translations of the text.
_READINGS_MAKING_ENGLISH: Final = _readings_making_english()
_NONE: Final = itertools.repeat(())


def _decoded_hex(candidate: str) -> str:
    try:
        return _printable(bytes.fromhex(candidate))
    except ValueError:
        return ""


class _Edit(NamedTuple):
    """A stretch a normalisation step changed the length of: ``source[source_start:source_end]`` became
    ``result[start:end]`` (a stretch replaced character for character is no edit: its offsets hold)."""

    source_start: int
    source_end: int
    start: int
    end: int


class _Step:
    """One normalisation step's edits, in order: a position in its result mapped back to its source."""

    __slots__ = ("_edits", "_starts")

    def __init__(self, edits: list[_Edit]) -> None:
        self._edits = edits
        self._starts = [edit.start for edit in edits]

    def back(self, position: int, *, end: bool) -> int:
        """Where ``position`` (a boundary between two characters of the result) stands in the source. Inside a
        changed stretch (or at a deleted one) a span's start goes to the stretch's start and its ``end`` to the
        stretch's end: a span mapped back covers every character it was read from."""
        index = bisect.bisect_right(self._starts, position) - 1
        if index < 0:
            return position
        edit = self._edits[index]
        if position == edit.start and edit.start < edit.end:
            return edit.source_start  # before the stretch's first character
        if position <= edit.end and (position < edit.end or edit.start == edit.end):
            return edit.source_end if end else edit.source_start
        return edit.source_end + position - edit.end


def _whole(source: str, result: str) -> _Step:
    """A step that says nothing finer than: all of ``source`` became all of ``result``."""
    return _Step([_Edit(0, len(source), 0, len(result))])


def _step(source: str, pieces: Iterable[tuple[int, int, str]]) -> tuple[str, _Step]:
    """``source`` with each ``source[start:end]`` of ``pieces`` (in order, apart) replaced by its string, and the step
    that maps the result back (stretches that touch are one edit)."""
    out: list[str] = []
    edits: list[_Edit] = []
    copied = length = 0  # source[:copied] is out, of ``length`` characters
    for start, end, replacement in pieces:
        out += (source[copied:start], replacement)
        length += start - copied
        new_length = length + len(replacement)
        if end - start != len(replacement):
            if edits and edits[-1].source_end == start:
                edits[-1] = _Edit(edits[-1].source_start, end, edits[-1].start, new_length)
            else:
                edits.append(_Edit(start, end, length, new_length))
        copied, length = end, new_length
    out.append(source[copied:])
    return "".join(out), _Step(edits)


#: A ``\\uXXXX`` escape, or a surrogate pair of them (what :func:`escapes_decoded` decodes, and joins).
_ESCAPE: Final = re.compile(r"\\u([dD][89abAB][0-9a-fA-F]{2})\\u([dD][c-fC-F][0-9a-fA-F]{2})|\\u([0-9a-fA-F]{4})")
#: A JSON string token, and an escape inside one (a surrogate pair of them is one character).
_STRING_TOKEN: Final = re.compile(r'"[^"\\]*(?:\\.[^"\\]*)*"')
_JSON_ESCAPE: Final = re.compile(
    r"\\u[dD][89abAB][0-9a-fA-F]{2}\\u[dD][c-fC-F][0-9a-fA-F]{2}|\\u[0-9a-fA-F]{4}|\\.", re.DOTALL
)


def _unescaped(match: re.Match[str]) -> str:
    high, low, single = match.groups()
    if single is None:
        return chr(0x10000 + ((int(high, 16) - 0xD800) << 10) + int(low, 16) - 0xDC00)
    code = int(single, 16)
    return "\ufffd" if 0xD800 <= code <= 0xDFFF else chr(code)


def _escapes_step(text: str, before: str, blank: int) -> _Step:
    """``text`` → ``before``: its ``\\uXXXX`` escapes decoded from ``blank`` on (blanks before, one for one)."""
    result, step = _step(text, ((m.start(), m.end(), _unescaped(m)) for m in _ESCAPE.finditer(text, blank)))
    return step if result[blank:] == before[blank:] else _whole(text, before)


def _json_step(text: str) -> _Step:
    """``text`` → a JSON reading of it (:func:`~processors.builtin.injection_json.json_readings`): each string token
    read where it stands, its value decoded one character after the token's start and blanks after it to the
    token's end (an escape is one character; the blanks stand for the closing quote and what escapes saved)."""
    edits: list[_Edit] = []
    for token in _STRING_TOKEN.finditer(text):
        if "\\" not in token.group():
            continue
        saved = 0
        for escape in _JSON_ESCAPE.finditer(text, token.start() + 1, token.end() - 1):
            start = escape.start() - saved
            edits.append(_Edit(escape.start(), escape.end(), start, start + 1))
            saved += len(escape.group()) - 1
        if saved:
            edits.append(_Edit(token.end(), token.end(), token.end() - saved, token.end()))
    return _Step(edits)


def _nfkc_pieces(text: str) -> Iterator[tuple[int, int, str]]:
    """What :func:`nfkc` replaces in ``text``, as finely as it can be told: each character with the combining marks
    after it, in the runs of non-ASCII characters not in NFKC (with the ASCII character before each); a run that
    does not normalise so (Hangul jamo) as a whole."""
    for run in _NON_ASCII_RUN.finditer(text):
        start = max(0, run.start() - 1)
        chunk = text[start : run.end()]
        if _IS_NFKC(chunk):
            continue
        whole = unicodedata.normalize("NFKC", chunk)
        bounds = [i for i, character in enumerate(chunk) if i == 0 or not unicodedata.combining(character)]
        parts = [
            (first, last, unicodedata.normalize("NFKC", chunk[first:last]))
            for first, last in itertools.pairwise([*bounds, len(chunk)])
        ]
        if "".join(part for _, _, part in parts) == whole:
            yield from ((start + first, start + last, part) for first, last, part in parts if part != chunk[first:last])
        else:
            yield start, run.end(), whole


def _fold_steps(before: str, folded: str) -> list[_Step]:
    """``before`` → ``_folded(before)`` (``folded``), step by step: the look-alikes NFKC would hide and the
    homoglyphs are read one for one; NFKC and the invisible characters' removal change lengths."""
    text = before
    if not text.isascii() and _HAS_HIDDEN_BY_NFKC.search(text):
        text = _translated(text, _HIDDEN_BY_NFKC, _HIDDEN_BY_NFKC_SPLIT)
    steps: list[_Step] = []
    normal = nfkc(text)
    if normal != text:  # (its expansions and contractions may make up one length)
        result, step = _step(text, _nfkc_pieces(text))
        steps.append(step if result == normal else _whole(text, normal))
    if not normal.isascii() and _INVISIBLE.search(normal):
        normal, step = _step(normal, ((m.start(), m.end(), "") for m in _INVISIBLE.finditer(normal)))
        steps.append(step)
    if len(normal) != len(folded):
        steps.append(_whole(normal, folded))  # never: the homoglyphs are read one for one
    return steps


class SourceMap:
    """Where a reading of a text itself (a view that is not decoded) was read from in the text: the detector finds
    a signal in the view and cuts the text's sentence it came from."""

    __slots__ = ("_length", "_steps")

    def __init__(self, steps: list[_Step], length: int) -> None:
        self._steps = steps
        self._length = length

    def span(self, start: int, end: int) -> tuple[int, int]:
        """The span of the text that the view's ``[start, end)`` was read from (every character of it)."""
        for step in reversed(self._steps):
            start, end = step.back(start, end=False), step.back(end, end=True)
        return max(0, min(start, self._length)), max(0, min(end, self._length))


def source_map(text: str, view: View) -> SourceMap:
    """How offsets in ``view``, one of :func:`views` of ``text``, map back to ``text``: through the escapes decoded
    (or a JSON text's strings read where they stand), NFKC and the invisible characters removed, and Traditional
    Chinese written in Simplified (one for one, but for a phrase OpenCC writes in other length: then the whole
    text). A decoded view's offsets are in its payload: they map to the whole text.

    Built when asked (the rewrite of a flagged text), not with the views: a text read as it is (ASCII, no escapes)
    maps to itself at no cost."""
    if view.decoded:
        return SourceMap([_whole(text, view.text)], len(text))
    if view.text == text:
        return SourceMap([], len(text))
    steps: list[_Step] = []
    if view.origin == "json":
        steps.append(_json_step(text))
    elif view.before != text:
        steps.append(_escapes_step(text, view.before, view.blank))
    steps += _fold_steps(view.before, view.shown)
    if len(view.text) != len(view.shown):
        steps.append(_whole(view.shown, view.text))
    return SourceMap(steps, len(text))


__all__ = ["SourceMap", "View", "nfkc", "normalise", "source_map", "views"]
