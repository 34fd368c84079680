"""The learned injection model's vocabulary as its scorer looks it up: every term of a text found in C-level loops.

Scoring a text means looking up one feature per character (its character n-gram), one per word and word pair and,
in Chinese, one per character pair, then summing the terms of each window. Made the plain way, each n-gram is a new
string sliced in a Python loop and hashed before it is looked up (~1 ms per 1,000 characters, issue 28). Here:

* character 4-grams (the size the shipped model reads) and Chinese character pairs are looked up as integers: the
  text encoded in UTF-16 (one 16-bit unit a character, see below) and read through a ``memoryview`` as 64-bit (four
  characters) or 32-bit (two) integers at each of four (two) offsets, so that the n-grams starting at positions
  ``k, k + 4, k + 8 …`` come out of one C loop, and ``map`` looks them up in a dict keyed the same way;
* other n-gram sizes (a model trained on ``chars3`` or ``chars5``) are sliced as strings, as before;
* words and word pairs are looked up without their ``w:`` / ``b:`` prefixes (no string built per word);
* the text is cut where the model's windows start and stop and each piece's terms are summed once, ``sum`` over a
  slice of each list of terms (:meth:`Lookup.segment_totals`): a window's total is its few pieces' totals; no
  prefix sums, no Python loop per character;
* Chinese character pairs are looked up at every position only in a mostly Chinese text, else run by run; word
  pairs by their two words (no pair string built per word).

A character beyond the Basic Multilingual Plane (an emoji) takes two UTF-16 units: before encoding, each one the
vocabulary holds is written as a private-use character of its own, and any other (or a private-use character the
mapping uses, found in the text itself) as one the vocabulary never holds, so positions stay one unit a character
and no n-gram can match a feature it is not.

A feature string is one key whatever made it: the 4-gram ``"h:忽略"`` and the Chinese pair ``h:`` + ``忽略`` share a
weight, as they share a column in training. So each table holds every feature of its shape, whatever its prefix.
"""

from __future__ import annotations

import bisect
import itertools
import operator
import re
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from itertools import compress
from typing import Final, Literal

#: A Latin word (after normalisation: look-alike letters are ASCII by then), digits and apostrophes included.
WORD: Final = re.compile(r"[a-z0-9']+")
#: A run of Chinese characters (unified ideographs and extension A).
HAN_RUN: Final = re.compile("[\u3400-\u4dbf\u4e00-\u9fff]{2,}")
_HAN: Final = re.compile("[\u3400-\u4dbf\u4e00-\u9fff]")
#: Two characters of :data:`HAN_RUN`: what follows ``h:`` in a Chinese pair's feature.
_HAN_PAIR: Final = re.compile("[\u3400-\u4dbf\u4e00-\u9fff]{2}")
#: :data:`WORD` as ``re.split`` reads it: the gaps between words and the words, alternately (a gap may be empty).
_WORD_AND_GAPS: Final = re.compile(f"({WORD.pattern})")
_WITHOUT_PREFIX: Final = operator.itemgetter(slice(2, None))
#: The n-gram size looked up as 64-bit integers (four 16-bit units).
PACKED_SIZE: Final = 4
#: Where the stand-ins for characters beyond the Basic Multilingual Plane are taken from (the Private Use Area).
_PRIVATE_USE: Final = range(0xE000, 0xF900)
_ASTRAL: Final = "\U00010000-\U0010ffff"
_ASTRAL_CHARACTER: Final = re.compile(f"[{_ASTRAL}]")
_PRIVATE_USE_CHARACTER: Final = re.compile("[\ue000-\uf8ff]")
_START_OF: Final = re.Match.start
_REPEATED_ZERO: Final = itertools.repeat
_SIXTEEN: Final = itertools.repeat(16)


@dataclass(frozen=True)
class Terms:
    """One text's terms (``idf * weight`` of each feature, 0.0 for a feature the vocabulary lacks), grouped so
    that a window's total is a few slices summed.

    ``dense``: per feature kind that has one feature at every position, ``(step, lists)``: ``lists[k][j]`` is the
    term of the feature starting at position ``k + step * j``. ``sparse``: ``(positions, terms)`` in text order.
    """

    dense: list[tuple[int, list[list[float]]]]
    sparse: list[tuple[list[int], list[float]]]

    def total(self) -> float:
        """The sum of every term (the text read whole)."""
        return sum(sum(values) for _, lists in self.dense for values in lists) + sum(
            sum(values) for _, values in self.sparse
        )

    def window_total(self, start: int, stop: int) -> float:
        """The sum of the terms of the features starting at positions ``start`` to ``stop - 1``."""
        total = 0.0
        for step, lists in self.dense:
            for offset, values in enumerate(lists):
                total += sum(values[(start - offset + step - 1) // step : (stop - offset + step - 1) // step])
        for positions, values in self.sparse:
            total += sum(values[bisect.bisect_left(positions, start) : bisect.bisect_left(positions, stop)])
        return total


class Lookup:
    """A model's weighted features (``idf * weight``) split into the tables the scorer reads (see the module)."""

    def __init__(self, features: list[str], values: list[float], gram_sizes: Iterable[int], words: bool) -> None:
        """``values[i]`` is ``features[i]``'s ``idf * weight`` (0.0 for a feature without a weight: the same as
        absent). Each table is picked out of the columns in C loops (``compress``): the model file's 361,020
        features are read once at start-up."""
        self._sizes = tuple(gram_sizes)
        self._words = words
        lengths = list(map(len, features))
        chosen_by_size = {size: list(map(operator.eq, lengths, itertools.repeat(size))) for size in self._sizes}
        in_order = all(map(operator.le, features, itertools.islice(features, 1, None)))  # a model file's are sorted
        word_texts, word_values = _prefixed(features, values, "w:", in_order)
        self._word_weights = dict(zip(word_texts, word_values, strict=True))
        # Word pairs keyed by the two words (the words' hashes are kept from their own look-up: no pair string is
        # made and hashed per word of a text). Words have no spaces: a pair feature splits into exactly its two,
        # each one string object however many pairs hold it.
        pair_texts, pair_values = _prefixed(features, values, "b:", in_order)
        words_of = dict(zip(word_texts, word_texts, strict=True))
        self._pair_weights = dict(
            zip(map(_shared_words, pair_texts, itertools.repeat(words_of)), pair_values, strict=True)
        )
        del words_of, word_texts, pair_texts
        pairs, pair_values = _prefixed(features, values, "h:", in_order)
        chosen = list(map(_HAN_PAIR.fullmatch, pairs))
        #: Chinese character pairs by their two characters: the table read when n-grams are not packed (kept empty
        #: otherwise: :attr:`_han` holds the same values keyed as integers).
        self._han_text = dict(zip(compress(pairs, chosen), compress(pair_values, chosen), strict=True))
        self._has_han = bool(self._han_text)
        # The stand-ins: one private-use character per astral character of the vocabulary's n-grams, one more for
        # any other astral character; none of them a character the vocabulary holds.
        chosen_packed = chosen_by_size.get(PACKED_SIZE, [])
        packed = list(compress(features, chosen_packed))
        joined = "".join(packed)
        astral = sorted(set(_ASTRAL_CHARACTER.findall(joined)))
        used = set(_PRIVATE_USE_CHARACTER.findall(joined))
        free = (chr(code) for code in _PRIVATE_USE if chr(code) not in used)
        stand_ins = list(itertools.islice(free, len(astral) + 1))
        self._stand_in = dict(zip(astral, stand_ins, strict=False))
        self._unknown = stand_ins[-1] if stand_ins else ""
        self._needs_stand_ins = re.compile(f"[{_ASTRAL}{re.escape(''.join(stand_ins))}]")
        #: ``None``: a vocabulary holding most of the Private Use Area, its n-grams read as strings.
        self._packed: dict[int, float] | None = None
        self._han: dict[int, float] = {}
        if len(stand_ins) == len(astral) + 1:
            if astral:
                joined = _ASTRAL_CHARACTER.sub(lambda match: self._stand_in[match.group()], joined)
            keys = memoryview(self._units(joined)).cast("Q").tolist()
            self._packed = dict(zip(keys, compress(values, chosen_packed), strict=True))
            han_keys = memoryview(self._units("".join(self._han_text))).cast("I").tolist()
            self._han = dict(zip(han_keys, self._han_text.values(), strict=True))
            self._han_text = {}
        #: The n-grams read as strings: every size but the packed one (all of them without packing).
        self._grams = {
            size: dict(zip(compress(features, chosen), compress(values, chosen), strict=True))
            for size, chosen in chosen_by_size.items()
            if size != PACKED_SIZE or self._packed is None
        }

    @staticmethod
    def _units(text: str) -> bytes:
        return text.encode("utf-16-le", "surrogatepass")

    def terms(self, padded: str) -> Terms:
        """The terms of a normalised text padded with a space on each side (positions are in ``padded``)."""
        dense: list[tuple[int, list[list[float]]]] = []
        sparse: list[tuple[list[int], list[float]]] = []
        length = len(padded)
        han = bool(self._words and self._has_han and not padded.isascii() and _HAN.search(padded))
        units = b""
        if self._packed is not None and (PACKED_SIZE in self._sizes or han):
            units = self._units(self._with_stand_ins(padded))
        for size in self._sizes:
            if length < size:
                continue
            if size == PACKED_SIZE and self._packed is not None:
                dense.append((size, _packed_terms(units, length, size, "Q", self._packed.get)))
            else:
                weight_of = self._grams[size].get
                count = length - size + 1
                grams = [padded[i : i + size] for i in range(count)]
                dense.append((1, [list(map(weight_of, grams, _REPEATED_ZERO(0.0, count)))]))
        if self._words:
            starts = list(map(_START_OF, WORD.finditer(padded)))
            words = WORD.findall(padded)
            sparse.append((starts, list(map(self._word_weights.get, words, _REPEATED_ZERO(0.0, len(words))))))
            pairs = itertools.pairwise(words)
            sparse.append((starts[:-1], list(map(self._pair_weights.get, pairs, _REPEATED_ZERO(0.0, len(starts) - 1)))))
            if han:
                if units:
                    dense.append((2, _packed_terms(units, length, 2, "I", self._han.get)))
                else:
                    sparse.append(self._han_pairs(padded))
        return Terms(dense, sparse)

    def segment_totals(self, padded: str, cuts: Sequence[int]) -> list[float]:
        """The sums of the terms of the features starting in each segment ``cuts[i]`` to ``cuts[i + 1] - 1`` of a
        normalised text padded with a space on each side (``cuts`` ascending, from 0 to ``len(padded)``).

        What :meth:`terms` and :meth:`Terms.window_total` compute, with each term summed once, as it is looked up
        (``sum(map(dict.get, …))`` per segment: no list of terms, no float read twice): a window of the model is
        a few whole segments. Chinese character pairs are looked up at every position only in a text mostly
        Chinese; in a Latin text with a few Chinese words (the README's examples), run by run (the two ways give
        the same terms).
        """
        totals = [0.0] * (len(cuts) - 1)
        segments = list(itertools.pairwise(cuts))
        length = len(padded)
        han = bool(self._words and self._has_han and not padded.isascii() and _HAN.search(padded))
        # Mostly characters of three UTF-8 bytes (Chinese): pairs at every position; else run by run.
        dense_han = han and self._packed is not None and len(padded.encode("utf-8", "surrogatepass")) > 2 * length
        units = b""
        if self._packed is not None and (PACKED_SIZE in self._sizes or dense_han):
            units = self._units(self._with_stand_ins(padded))
        for size in self._sizes:
            if length < size:
                continue
            if size == PACKED_SIZE and self._packed is not None:
                _add_packed(totals, segments, units, length, size, "Q", self._packed.get)
            else:
                weight_of = self._grams[size].get
                count = length - size + 1
                grams = [padded[i : i + size] for i in range(count)]
                values = list(map(weight_of, grams, _REPEATED_ZERO(0.0, count)))
                for i, (start, stop) in enumerate(segments):
                    totals[i] += sum(values[start:stop])
        if self._words:
            pieces = _WORD_AND_GAPS.split(padded)
            words = pieces[1::2]
            starts = list(itertools.accumulate(map(len, pieces)))[0:-1:2]
            pairs = itertools.pairwise(words)
            _add_sparse(totals, segments, starts, list(map(self._word_weights.get, words, _REPEATED_ZERO(0.0))))
            _add_sparse(totals, segments, starts[:-1], list(map(self._pair_weights.get, pairs, _REPEATED_ZERO(0.0))))
            if dense_han:
                _add_packed(totals, segments, units, length, 2, "I", self._han.get)
            elif han:
                _add_sparse(totals, segments, *self._han_pairs(padded))
        return totals

    def _with_stand_ins(self, padded: str) -> str:
        if padded.isascii() or not self._needs_stand_ins.search(padded):
            return padded
        stand_in, unknown = self._stand_in, self._unknown
        return self._needs_stand_ins.sub(lambda match: stand_in.get(match.group(), unknown), padded)

    def _han_pairs(self, padded: str) -> tuple[list[int], list[float]]:
        """The Chinese character pairs' terms, run by run (when the text is not read as UTF-16 units)."""
        positions: list[int] = []
        values: list[float] = []
        for run in HAN_RUN.finditer(padded):
            characters = run.group()
            positions += range(run.start(), run.end() - 1)
            if self._packed is None:
                weight_of = self._han_text.get
                values += [weight_of(characters[i : i + 2], 0.0) for i in range(len(characters) - 1)]
            else:
                # A pair's key in :attr:`_han`: its two UTF-16 units read as one little-endian 32-bit integer.
                codes = list(map(ord, characters))
                keys = map(operator.or_, codes[:-1], map(operator.lshift, codes[1:], _SIXTEEN))
                values += map(self._han.get, keys, _REPEATED_ZERO(0.0))
        return positions, values


def _shared_words(pair: str, words: dict[str, str]) -> tuple[str, ...]:
    """A word pair's two words, each one string object however many pairs (and the words' table) hold it. (A
    ``b:`` feature that is not a pair, a 4-gram such as ``"b:ab"``, gives a key no text's pair matches.)"""
    return tuple(map(words.setdefault, pair.split(" "), pair.split(" ")))


def _prefixed(features: list[str], values: list[float], prefix: str, in_order: bool) -> tuple[list[str], list[float]]:
    """The features that start with ``prefix``, without it, and their values: a slice of features ``in_order``
    (sorted, as a model file writes them), else picked out one by one."""
    if in_order:
        start = bisect.bisect_left(features, prefix)
        stop = bisect.bisect_left(features, prefix[:-1] + chr(ord(prefix[-1]) + 1), start)
        return list(map(_WITHOUT_PREFIX, features[start:stop])), values[start:stop]
    chosen = list(map(str.startswith, features, itertools.repeat(prefix)))
    return list(map(_WITHOUT_PREFIX, compress(features, chosen))), list(compress(values, chosen))


def _add_packed(
    totals: list[float],
    segments: list[tuple[int, int]],
    units: bytes,
    length: int,
    size: int,
    code: Literal["I", "Q"],
    weight_of: Callable[[int, float], float],
) -> None:
    """Add to ``totals[i]`` the terms of the n-grams of ``size`` characters read as ``code`` integers that start in
    ``segments[i]`` (:func:`_packed_terms`: list ``k`` holds those at ``k, k + size …``)."""
    for offset, values in enumerate(_packed_terms(units, length, size, code, weight_of)):
        for i, (start, stop) in enumerate(segments):
            # values[j] starts at offset + size * j: the first j at or after start, the first at or after stop.
            first, last = -((offset - start) // size), -((offset - stop) // size)
            if first < len(values) and first < last:
                totals[i] += sum(values[max(0, first) : last])


def _add_sparse(
    totals: list[float], segments: list[tuple[int, int]], positions: list[int], values: list[float]
) -> None:
    """Add to ``totals[i]`` the terms (``values``) of the features at ``positions`` (ascending) in ``segments[i]``."""
    bounds = [bisect.bisect_left(positions, start) for start, _ in segments]
    bounds.append(bisect.bisect_left(positions, segments[-1][1]) if segments else 0)
    for i, (first, last) in enumerate(itertools.pairwise(bounds)):
        if first < last:
            totals[i] += sum(values[first:last])


def _packed_terms(
    units: bytes, length: int, size: int, code: Literal["I", "Q"], weight_of: Callable[[int, float], float]
) -> list[list[float]]:
    """The terms of the n-grams of ``size`` characters (``size`` 16-bit units: a ``code`` integer), at each offset:
    list ``k`` holds those starting at ``k, k + size, k + 2 * size …`` (``length`` characters in ``units``)."""
    width = 2 * size
    lists: list[list[float]] = []
    for offset in range(size):
        count = (length - size - offset) // size + 1
        if count <= 0:
            lists.append([])
            continue
        keys = memoryview(units)[2 * offset : 2 * offset + width * count].cast(code).tolist()
        lists.append(list(map(weight_of, keys, _REPEATED_ZERO(0.0, count))))
    return lists


__all__ = ["HAN_RUN", "PACKED_SIZE", "WORD", "Lookup", "Terms"]
