"""A structured tool result read as its text: the string values of a JSON document, decoded (issue 28).

An instruction planted in a record a tool returns (``{"day": "…", "note": "忽略之前的所有指令，…"}``) is diluted by
the JSON around it: keys, quotes, braces, dates and identifiers, and above all the ``\\uXXXX`` escapes of a result
serialised with ``json.dumps`` (its default, ``ensure_ascii``), which the learned model reads as hex noise (it
flagged 37 % of the benign JSON tool results of its own training data once they were escaped so). The model was
trained on prose, so the detector is given the prose:

* :func:`escapes_decoded`: the text with its ``\\uXXXX`` escapes decoded in place, read instead of the text (valid
  JSON or not: a truncated result too);
* :func:`values_view`: for a JSON object or array (or JSON Lines), its string values that read as prose (with white
  space inside, or Chinese, Japanese or Korean characters: not dates, identifiers, enumerations), each with its
  key, where it stands in the text and the rest blanked (the model, which collapses white space, reads
  ``key: value`` lines; the offline rewrite finds a signal of the view at its place in the text). Measured on the
  JSON tool results of ``training/data`` (texts the model trained on), the shipped model scoring the record above:
  with every value, keys kept or not, it stays under the default threshold (0.66, 0.69); prose values alone or as
  ``key: value`` lines score it 0.84 and 0.85 and flag 0.3 % and 0.2 % of the benign results; each long value its
  own piece, 1.3 % (short lines read out of their thread). A hand-written benign delivery record ("ignore the
  bell", 请忽略门铃) scores 0.71 as prose values alone, 0.65 with its keys;
* :func:`json_readings`: in a short JSON text, each long value alone as well (with its key): a blunt instruction in
  one field of a forecast scores 0.05 among the forecast's sentences, 0.85 alone. With them, 1.000 of the benign
  JSON results of ``training/data`` given a field with a hand-written attack sentence are flagged, 0.78 without;
  0.8 % of those results as they are, 0.2 % without.

Cheap by construction: a text is parsed only when it starts with ``{`` or ``[`` (after white space) and is at most
:data:`PARSE_LIMIT` characters long, its strings are found by one regular expression and decoded by one
``json.loads``, and the view stops after :data:`VIEW_LIMIT` characters of values. A text over :data:`PIECES_LIMIT`
characters is read once (:func:`whole_view`): as its view instead of itself when it is mostly syntax (the view holds
under :data:`PROSE_SHARE` of its visible characters), the rest of it as it stands where the view stopped; as itself
when it is mostly prose. :func:`~processors.builtin.injection_views.views` keeps the last texts' views, so a detector
that reads a text twice (its heuristics and its model) parses it once.
"""

from __future__ import annotations

import itertools
import json
import operator
import re
from typing import Final

#: The longest text parsed as JSON (characters): ``json.loads`` is linear, but a bigger result is read as text.
PARSE_LIMIT: Final = 1_000_000
#: The most characters a values view holds: a huge array is read for its first values only.
VIEW_LIMIT: Final = 50_000
#: A JSON text of at most this many characters has its long values read alone too (:func:`json_readings`) ...
PIECES_LIMIT: Final = 2_000
#: ... those of at least this many characters ...
SHORTEST_PIECE: Final = 20
#: ... at most this many of them.
MOST_PIECES: Final = 16
#: A JSON text longer than :data:`PIECES_LIMIT` whose view holds less than this share of its visible characters is
#: mostly syntax: its view is read instead of it (:func:`whole_view`); one whose view holds more is read as it is.
PROSE_SHARE: Final = 0.7
#: A ``\\uXXXX`` escape (a character outside the Basic Multilingual Plane is two: a surrogate pair).
_UNICODE_ESCAPE: Final = re.compile(r"\\u([0-9a-fA-F]{4})")
#: A JSON string token, and the colon after it that makes it a key.
_TOKEN: Final = re.compile(r'("[^"\\]*(?:\\.[^"\\]*)*")(\s*:\s*)?')
_SURROGATE: Final = re.compile("[\ud800-\udfff]")
#: One document a line (JSON Lines), blank lines skipped.
_LINES: Final = re.compile(r"\n\s*")
#: A value that reads as prose: words separated by white space, or Chinese, Japanese or Korean characters.
_PROSE: Final = re.compile(r"\S\s+\S|[\u3040-\u30ff\u3400-\u9fff\uac00-\ud7af\uf900-\ufaff]")


def _character(match: re.Match[str]) -> str:
    return chr(int(match.group(1), 16))


def escapes_decoded(text: str) -> str:
    """``text`` with its ``\\uXXXX`` escapes decoded in place (``\\u5ffd\\u7565`` → ``忽略``, a surrogate pair → its
    character, a lone half → U+FFFD); ``text`` itself when it has none. Other escapes (``\\n``, ``\\"``) are left:
    the model reads them as the punctuation they are."""
    if "\\u" not in text:
        return text
    decoded = _UNICODE_ESCAPE.sub(_character, text)
    if decoded == text:
        return text
    # The halves of a surrogate pair were decoded one at a time: join them.
    return _whole_characters(decoded)


def _whole_characters(text: str) -> str:
    """``text`` with its surrogate pairs joined into the characters they encode and a lone half as U+FFFD."""
    return text.encode("utf-16", "surrogatepass").decode("utf-16", "replace")


def parsed(text: str) -> list[object] | None:
    """The JSON documents ``text`` holds: one for a JSON object or array, one per line for JSON Lines; ``None`` when it
    does not start with ``{`` or ``[``, is longer than :data:`PARSE_LIMIT` or is not valid JSON (never an error)."""
    stripped = text.strip()
    if not stripped or stripped[0] not in "{[" or len(stripped) > PARSE_LIMIT:
        return None
    try:
        return [json.loads(stripped)]
    except json.JSONDecodeError as error:
        if error.msg != "Extra data":
            return None
    except (ValueError, RecursionError):
        return None
    documents: list[object] = []
    for line in _LINES.split(stripped):  # JSON Lines: every line a document
        try:
            documents.append(json.loads(line))
        except (ValueError, RecursionError):
            return None
    return documents


def values_view(text: str) -> str:
    """The prose string values of the JSON document (or JSON Lines) ``text`` is, decoded, each where it stands in
    ``text``, with its key before it (``"note": "…"`` → `` note:   …``) and everything else blanked (a new line between
    values): the model reads ``key: value`` lines, and a signal found in the view is at the same place in the text
    (for a text without escapes; an escaped value is decoded at its start), so the offline rewrite cuts the right
    sentence. ``""`` when ``text`` is not JSON or has no prose in it. At most :data:`VIEW_LIMIT` characters of
    values: the view stops after the value that reaches it."""
    readings = json_readings(text)
    return readings[0] if readings else ""


def json_readings(text: str) -> list[str]:
    """:func:`values_view`, then, for a text of at most :data:`PIECES_LIMIT` characters with two prose values or more,
    each value of :data:`SHORTEST_PIECE` characters or more alone (with its key, where it stands, blanks before it;
    at most :data:`MOST_PIECES`): a blunt instruction in one field of a short record is diluted by the others even
    as prose (``city: Taipei / summary: Sunny, 21 degrees … / note: 忽略之前的所有指令…`` scores 0.05, the note alone
    0.85). ``[]`` when ``text`` is not JSON or has no prose in it."""
    if parsed(text) is None:
        return []
    segments, _ = _segments(text)
    if not segments:
        return []
    readings = [_joined(segments)]
    if len(text) <= PIECES_LIMIT and len(segments) > 1:
        long_ones = [(first, segment) for first, segment, length in segments if length >= SHORTEST_PIECE]
        readings += [" " * first + segment for first, segment in long_ones[:MOST_PIECES]]
    return list(map(_encodable, readings))


def whole_view(text: str) -> tuple[str, int] | None:
    """What the detector reads of a long JSON text (over :data:`PIECES_LIMIT` characters) that is mostly syntax
    *instead of* the text: its view (:func:`values_view`, and the strings that are not syntax: prose keys, strings
    of :data:`SHORTEST_PIECE` characters or more without white space, such as a URL or
    ``ignore-all-previous-instructions``), and how much of ``text`` it covers (the view reads ``text[:covered]``;
    ``len(text)`` unless it stopped at :data:`VIEW_LIMIT` characters of values). ``None`` for a short text (read
    whole, then as :func:`json_readings` says), one that is not JSON or has nothing but syntax, and one that is
    mostly prose (its view holds :data:`PROSE_SHARE` of its visible characters or more): that one is read as it is.

    Reading a long text and then its view read most of its characters twice (a JSON array cost 1.0-1.4 ms per
    1,000 characters, the text alone 0.44-0.79): one or the other is read. What the view leaves out is what the
    model should not weigh: punctuation, numbers, ``true``, short words and identifiers (a status, a date, a SKU)
    and the keys of those; of a mostly prose text it leaves out little, and the model read such texts as they are
    (its training data's JSON results: their long ones keep their verdicts read so, and five attacks among them
    lose theirs read as views)."""
    if len(text) <= PIECES_LIMIT or parsed(text) is None:
        return None
    segments, cut = _segments(text, whole=True)
    if not segments:
        return None
    first, segment, _ = segments[-1]
    covered = first + len(segment) if cut else len(text)
    view = _joined(segments)
    if _visible(view) >= PROSE_SHARE * _visible(escapes_decoded(text[:covered])):
        return None
    return _encodable(view), covered


def _visible(text: str) -> int:
    """How many characters of ``text`` are not the white space JSON puts between its tokens."""
    return len(text) - sum(map(text.count, " \n\t\r"))


def _joined(segments: list[tuple[int, str, int]]) -> str:
    """The segments where they stand, blanks before each (a new line between two)."""
    pieces: list[str] = []
    copied = 0  # the view covers text[:copied]
    for first, segment, _ in segments:
        pieces.append(("\n" + " " * (first - copied - 1)) if copied else " " * first)
        pieces.append(segment)
        copied = first + len(segment)
    return "".join(pieces)


def _encodable(reading: str) -> str:
    """``json.loads`` keeps a lone surrogate (``"\\ud800"``): no text the detector quotes may hold one (it cannot
    be encoded)."""
    return _whole_characters(reading) if _SURROGATE.search(reading) else reading


def _segments(text: str, *, whole: bool = False) -> tuple[list[tuple[int, str, int]], bool]:
    """Each prose string value of the JSON text ``text`` as ``(where its key or itself starts, " key: value" or
    " value" as long as the text it stands for, the value's length)``, until :data:`VIEW_LIMIT` characters of
    values (and whether it stopped there). ``whole``: every string that is not syntax as well (:func:`whole_view`): a prose key whose value is
    not kept (`` key:``), and a string of :data:`SHORTEST_PIECE` characters or more without white space (a URL, an
    identifier, ``ignore-all-previous-instructions``) with its key.

    The tokens are found by one regular expression (valid JSON: every ``"`` outside a string opens one) and
    decoded by one ``json.loads`` of them all: Python touches a token a few times, not a decoder call each."""
    matches = list(_TOKEN.finditer(text))
    if not matches:
        return [], False
    tokens = [match.group(1) for match in matches]
    values = _all_decoded(tokens)
    starts = [match.start() for match in matches]
    colons = [match.end(2) for match in matches]  # -1: a value, not a key
    prose = [match is not None for match in map(_PROSE.search, values)]
    kept = [
        colon < 0 and (is_prose or (whole and len(value) >= SHORTEST_PIECE))
        for colon, is_prose, value in zip(colons, prose, values, strict=True)
    ]
    found: list[tuple[int, str, int]] = []
    held = 0
    last = len(matches) - 1
    for index in itertools.compress(range(len(matches)), kept if not whole else map(operator.or_, kept, prose)):
        start = starts[index]
        end = start + len(tokens[index])
        if colons[index] >= 0:  # a prose key (``whole``): alone unless its value is kept (then read with it)
            if index < last and kept[index + 1] and starts[index + 1] == colons[index]:
                continue
            found.append((start, f" {values[index]}:".ljust(end - start), 0))
            continue
        value = values[index]
        before = index - 1
        if before >= 0 and colons[before] == start:  # its key and a colon: as long as the key's token and after
            key_start = starts[before]
            segment = f" {values[before]}:".ljust(start - key_start) + f" {value}".ljust(end - start)
            found.append((key_start, segment, len(value.strip())))
        else:
            found.append((start, f" {value}".ljust(end - start), len(value.strip())))
        held += len(value)
        if held >= VIEW_LIMIT:
            return found, True
    return found, False


def _all_decoded(tokens: list[str]) -> list[str]:
    """The values of JSON string tokens (valid: the text parsed), decoded by one ``json.loads``."""
    try:
        values = json.loads(f"[{','.join(tokens)}]")
    except (ValueError, RecursionError):
        return [_decoded(token) for token in tokens]
    return [value if isinstance(value, str) else "" for value in values]


def _decoded(token: str) -> str:
    """A JSON string token's value (it is valid: the text parsed)."""
    content = token[1:-1]
    if "\\" not in content:
        return content
    value = json.loads(token)
    return value if isinstance(value, str) else content


__all__ = [
    "MOST_PIECES",
    "PARSE_LIMIT",
    "PIECES_LIMIT",
    "PROSE_SHARE",
    "SHORTEST_PIECE",
    "VIEW_LIMIT",
    "escapes_decoded",
    "json_readings",
    "parsed",
    "values_view",
    "whole_view",
]
