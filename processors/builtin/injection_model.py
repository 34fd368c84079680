"""The learned prompt-injection model (issue 28): a linear model over character and word n-grams, read at run time
without scikit-learn or numpy.

``training/build.py`` trains it (``scripts/train-guard``) from the texts of ``training/data/`` and writes
:data:`MODEL_FILE`: the vocabulary (each n-gram's inverse document frequency and weight), the intercept, the Platt
calibration that turns the linear score into a probability, and the threshold chosen on the training folds. This
module reads that file once (lazily, cached) and scores a text the way scikit-learn's pipeline would:

1. the text normalised as the heuristics read it (:func:`~processors.builtin.injection_views.normalise`: NFKC,
   invisible characters dropped, UTS #39 look-alike letters read as ASCII, Traditional Chinese in Simplified),
   lower-cased, runs of white space made one space;
2. its features (:func:`model_features`): character n-grams (of 3, 4 or 5 characters: the model file says which),
   Latin words and word pairs, Chinese character pairs, counted; a feature the vocabulary lacks is ignored;
3. TF-IDF: each feature's count times its idf, divided by the square root of the text's length (so that the terms
   add up along the text: a window's sum is the sum of the terms of the features starting in it; each feature is
   looked up once, :mod:`~processors.builtin.injection_lookup`), dotted with the weights, plus the intercept;
   then ``1 / (1 + exp(a * d + b))``: a score from 0 to 1.

A text longer than :data:`WINDOW` characters is scored in overlapping windows and the highest window counts, so an
instruction hidden in a long document is not diluted by the pages around it, and the cost stays linear in length;
the calibration then adds ``c * ln(windows)`` to the exponent (:attr:`InjectionModel.platt_windows`), since the
highest of many windows is a multiple comparison.

A window's score is an average over 600 characters: one short passage addressed to the AI among look-alike text is
diluted, then discounted. So a model file may also hold a passage calibration (:attr:`InjectionModel.passage_platt`):
the text is cut into passages (lines and sentences, tiny ones merged, long ones read in overlapping pieces:
:func:`passage_spans`), each scored by the same linear model (its terms' sum over the passage, divided by the square
root of the passage's length: the window's pieces summed another way, still linear in length), and the highest
passage calibrated by its own Platt fit on ``(decision, ln(passages))``. A text's score is then the higher of the two
probabilities (for texts of at least :attr:`InjectionModel.passage_min_windows` windows).
Training and run time share :func:`model_features`, so the two cannot drift apart.
"""

from __future__ import annotations

import functools
import gzip
import itertools
import json
import math
import operator
import re
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from importlib import resources
from pathlib import Path
from typing import Any, Final, Literal

from processors.builtin.injection_lookup import HAN_RUN, WORD, Lookup
from processors.builtin.injection_views import normalise, views

#: The shipped model, package data beside this module.
MODEL_FILE: Final = "injection_model.json.gz"
#: The format of the model file this module reads (``training/build.py`` writes the same number).
FORMAT: Final = 1
#: Texts longer than this are scored in windows of this many characters (unless the model file says otherwise:
#: a model trained on windows of another size is read in windows of that size) ...
WINDOW: Final = 600
#: ... starting every this many characters (each character is read at most twice).
STRIDE: Final = 300
#: Passages longer than this many characters (a line or sentence of the normalised text) are read in overlapping
#: pieces of this length, every half of it ...
PASSAGE_MAX: Final = 300
#: ... and those shorter than this are joined to the next one (a heading, a list marker, "Note:").
PASSAGE_MIN: Final = 40
#: Where a sentence ends in the collapsed text: ``.``, ``!`` or ``?`` and the space after it, a Chinese full stop, or
#: ``!`` or ``?`` before a Chinese character (normalisation made the Chinese ones ASCII; no space follows them).
_SENTENCE_END: Final = re.compile("[.!?] |\u3002|[!?](?=[\u3400-\u4dbf\u4e00-\u9fff])")
#: A run of white space between two words of a normalised text, and a line break in one.
_GAP: Final = re.compile(r"\s+")
_LINE_BREAK: Final = re.compile("[\n\r\x0b\x0c\x1c-\x1e\x85\u2028\u2029]")
#: The character n-gram sizes a model may use (shorter ones are Latin noise; Chinese words are read as character
#: pairs, ``h:`` features).
GRAM_SIZES: Final = (3, 4, 5)

#: A Latin word (after normalisation: look-alike letters are ASCII by then), digits and apostrophes included.
_WORD: Final = WORD
#: A run of Chinese characters (unified ideographs and extension A).
_HAN_RUN: Final = HAN_RUN
#: The feature kinds :func:`model_features` knows (``charsN``: character n-grams of N characters; ``words``); a
#: model file says which of them it was trained on.
ALL_KINDS: Final = (*(f"chars{size}" for size in GRAM_SIZES), "words")


def model_text(text: str) -> str:
    """``text`` as the model reads it: normalised like the heuristics' first view, lower-cased, spaces collapsed."""
    return _collapsed(normalise(text))


def _collapsed(normalised: str) -> str:
    """A normalised text lower-cased, each run of white space one space, none at either end (``str.split`` and
    ``re``'s ``\\s`` know the same white space)."""
    return " ".join(normalised.lower().split())


def window_starts(length: int, window: int = WINDOW, stride: int = STRIDE) -> list[int]:
    """Where the windows of a normalised text of ``length`` characters start: every ``stride`` characters, and the
    last one flush with the end (one window, at 0, for a text no longer than ``window``). Training cuts texts here
    too, so the model learns on the pieces it is asked about."""
    if length <= window:
        return [0]
    last_start = length - window
    return [*range(0, last_start, stride), last_start]


def passage_spans(normalised: str, collapsed: str | None = None) -> list[tuple[int, int]]:
    """The passages of a text, as ``(start, stop)`` in its collapsed form (``collapsed``: :func:`_collapsed` of
    ``normalised``, which this computes when not given): cut at every line break of ``normalised`` and after every
    sentence end (:data:`_SENTENCE_END`); a piece shorter than :data:`PASSAGE_MIN` joined to the next (the last
    one to the passage before), a piece longer than :data:`PASSAGE_MAX` read in overlapping pieces of that length
    (:func:`window_starts`). Linear in the text's length; the passages cover the text, each character in at most
    three of them."""
    if collapsed is None:
        collapsed = _collapsed(normalised)
    length = len(collapsed)
    cuts = {match.end() for match in _SENTENCE_END.finditer(collapsed)}
    if _LINE_BREAK.search(normalised):
        # The i-th gap between words of the text is the i-th space of the collapsed text (``lower`` makes no white
        # space and takes none away; if it ever did, only the line breaks would be lost).
        gaps = _GAP.findall(normalised.lower().strip())
        spaces = [match.start() for match in re.finditer(" ", collapsed)]
        if len(gaps) == len(spaces):
            breaks = map(_LINE_BREAK.search, gaps)
            cuts.update(space + 1 for space in itertools.compress(spaces, breaks))
    cuts.discard(length)
    spans: list[tuple[int, int]] = []
    start = 0
    for stop in [*sorted(cuts), length]:
        if stop - start < PASSAGE_MIN and stop < length:
            continue
        if stop - start < PASSAGE_MIN and spans:
            spans[-1] = (spans[-1][0], stop)  # the last piece is short: joined to the one before
            break
        span = stop - start
        if span > PASSAGE_MAX:
            spans += [
                (start + at, start + at + PASSAGE_MAX) for at in window_starts(span, PASSAGE_MAX, PASSAGE_MAX // 2)
            ]
        else:
            spans.append((start, stop))
        start = stop
    return spans


def model_features(text: str, kinds: tuple[str, ...] = ALL_KINDS) -> list[str]:
    """The features of an already normalised text (:func:`model_text`): what training counts and run time looks up.

    ``charsN``: character n-grams of N characters of the text padded with a space (so that word
    starts and ends are n-grams of their own: Chinese has no spaces, and its words are these n-grams). ``words``:
    ``w:`` Latin words, ``b:`` pairs of consecutive Latin words and ``h:`` pairs of consecutive Chinese characters.
    """
    grams: list[str] = []
    padded = f" {text} "
    length = len(padded)
    for size in GRAM_SIZES:
        if f"chars{size}" in kinds:
            grams += [padded[i : i + size] for i in range(length - size + 1)]
    if "words" in kinds:
        grams += _word_features(text)
    return grams


def _word_features(text: str) -> list[str]:
    """``w:`` Latin words, ``b:`` pairs of consecutive Latin words, ``h:`` pairs of consecutive Chinese characters."""
    return [feature for _, features in _positioned_word_features(text) for feature in features]


def _positioned_word_features(text: str) -> list[tuple[list[int], list[str]]]:
    """:func:`_word_features` in three lists (words, word pairs, character pairs), each with the positions its
    features start at, in order."""
    matches = list(_WORD.finditer(text))
    starts = [match.start() for match in matches]
    words = [match.group() for match in matches]
    runs = list(_HAN_RUN.finditer(text))
    return [
        (starts, ["w:" + word for word in words]),
        (starts[:-1], [f"b:{first} {second}" for first, second in itertools.pairwise(words)]),
        (
            [run.start() + i for run in runs for i in range(len(run.group()) - 1)],
            ["h:" + run.group()[i : i + 2] for run in runs for i in range(len(run.group()) - 1)],
        ),
    ]


@dataclass(frozen=True)
class InjectionModel:
    """A trained model: per feature its idf and weight, the intercept, the calibration and the chosen threshold."""

    idf: Mapping[str, float]
    weights: Mapping[str, float]
    intercept: float
    platt_a: float
    platt_b: float
    threshold: float
    kinds: tuple[str, ...]
    meta: dict[str, Any]
    #: The window a long text is read in, and the step between windows (:func:`window_starts`).
    window: int = WINDOW
    stride: int = STRIDE
    #: How much the calibration discounts a long text per natural log of its windows (0: not at all). The highest of
    #: many windows is a multiple comparison: a long benign text, read in twenty windows, has twenty chances for one
    #: of them to look like an attack. Fitted with Platt's sigmoid on the training folds, as a second input.
    platt_windows: float = 0.0
    #: The passage calibration ``(a, b, c)``: ``1 / (1 + exp(a * d + b + c * ln(passages)))`` of the highest
    #: passage's decision ``d`` (:func:`passage_spans`); ``None``: the model reads windows only (older files).
    passage_platt: tuple[float, float, float] | None = None
    #: The least number of windows a text must be read in for its passages to count (1: every text).
    passage_min_windows: int = 1
    #: Whether the passage terms are added to the window calibration's exponent (one Platt fit of the four inputs:
    #: window decision and ln(windows), passage decision and ln(passages)) instead of giving a probability of their
    #: own that counts when higher.
    passage_joint: bool = False

    @functools.cached_property
    def _lookup(self) -> Lookup:
        """Per feature, ``idf * weight``, in the tables the scorer looks a text's features up in
        (:mod:`.injection_lookup`): a text's score is one sum over its features. Built on first use (a model
        read from a file gets it from the file's columns, without looking each feature up)."""
        features = list(self.weights)
        # A weight without an idf counts as 0, as a feature the vocabulary lacks.
        idf = map(self.idf.get, features, itertools.repeat(0.0))
        return self._lookup_of(features, list(map(operator.mul, idf, self.weights.values())))

    def _lookup_of(self, features: list[str], values: list[float]) -> Lookup:
        sizes = [size for size in GRAM_SIZES if f"chars{size}" in self.kinds]
        return Lookup(features, values, sizes, words="words" in self.kinds)

    @classmethod
    def from_dict(cls, data: dict[str, Any], source: Path | None = None) -> InjectionModel:
        """The model a model file holds; a file of another :data:`FORMAT` is refused with ``ValueError``.

        ``source``: the file ``data`` was read from (``data`` is then this call's alone: its columns are emptied
        once used). Its model's :attr:`idf` and :attr:`weights` are then read
        from the file again only if something asks for them (training, tests): the scorer never does, its tables
        hold ``idf * weight``, and the two columns as dicts of 645,451 features cost more memory than the tables.
        """
        if data.get("format") != FORMAT:
            raise ValueError(f"injection model format {data.get('format')!r}, expected {FORMAT}")
        features: list[str] = data["features"]
        idf: list[float] = data["idf"]
        weights: list[float] = data["weights"]
        if not len(features) == len(idf) == len(weights):
            raise ValueError("injection model: features, idf and weights differ in length")
        idf_column: Mapping[str, float]
        weight_column: Mapping[str, float]
        if source is None:
            idf_column, weight_column = _columns(data)
        else:
            # A weight of 0 (or -0.0) is not kept among the weights, as ``_columns`` does.
            idf_column = _FileColumn(source, "idf", len(features))
            weight_column = _FileColumn(source, "weights", len(weights) - weights.count(0.0))
        model = cls(
            idf=idf_column,
            weights=weight_column,
            intercept=float(data["intercept"]),
            platt_a=float(data["platt"][0]),
            platt_b=float(data["platt"][1]),
            threshold=float(data["threshold"]),
            kinds=tuple(data.get("kinds", ALL_KINDS)),
            meta=dict(data.get("meta", {})),
            window=int(data.get("window", WINDOW)),
            stride=int(data.get("stride", STRIDE)),
            platt_windows=float(data.get("platt_windows", 0.0)),
            passage_platt=_passage_platt(data.get("passage_platt")),
            passage_min_windows=int(data.get("passage_min_windows", 1)),
            passage_joint=bool(data.get("passage_joint", False)),
        )
        values = list(map(operator.mul, idf, weights))
        if source is not None:
            # A file's dict is read for this call alone (:meth:`read`): its two columns of floats go before the
            # tables are built (~40 MB less at the peak of reading the shipped model).
            data["idf"] = data["weights"] = idf = weights = []
        vars(model)["_lookup"] = model._lookup_of(features, values)
        return model

    @classmethod
    def read(cls, path: Path) -> InjectionModel:
        """The model in a gzipped JSON file (what ``training/build.py`` writes)."""
        return cls.from_dict(_read_json(path), source=path)

    def decision_of_sum(self, weighted: float, length: int) -> float:
        """The linear score of a text of ``length`` padded characters whose features' ``count * idf * weight`` add
        up to ``weighted`` (before calibration)."""
        return self.intercept + weighted / math.sqrt(length)

    def decision(self, normalised: str) -> float:
        """The linear score of one normalised text read whole."""
        length = len(normalised) + 2  # padded
        return self.decision_of_sum(self._lookup.segment_totals(f" {normalised} ", [0, length])[0], length)

    def probability(self, decision: float, windows: int = 1) -> float:
        """The calibrated score (Platt): the chance, on the training folds, that a text read in ``windows`` windows
        whose highest decision is ``decision`` is an attack."""
        exponent = self.platt_a * decision + self.platt_b + self.platt_windows * math.log(max(1, windows))
        return _sigmoid_of_exponent(exponent)

    def text_decision(self, text: str) -> float:
        """``text``'s linear score: the highest window's for a text longer than the model's window."""
        return self.decision_and_windows(text)[0]

    def decision_and_windows(self, text: str) -> tuple[float, int]:
        """``text``'s linear score (the highest window's for a text longer than the model's window) and how many
        windows it was read in (1 for a text no longer than the window).

        A window's features are those that start in it (an n-gram at its first character, a word pair at its first
        word). Every feature of the text is looked up once (:class:`~.injection_lookup.Terms`) and a window's total
        is a few slices of those terms summed: with windows that overlap by half, each term is added twice, so the
        whole text stays linear in its length.
        """
        return self._decision_and_windows(model_text(text))

    def _decision_and_windows(self, normalised: str) -> tuple[float, int]:
        """:meth:`decision_and_windows` of a text already as :func:`model_text` makes it.

        The text is cut where any window starts or stops; each piece's terms are summed once
        (:meth:`~.injection_lookup.Lookup.segment_totals`) and a window's total is the sum of its pieces'.
        """
        length = len(normalised) + 2  # padded
        if len(normalised) <= self.window:
            return self.decision(normalised), 1
        starts = window_starts(len(normalised), self.window, self.stride)
        stops = [min(length, start + self.window + 2) for start in starts]  # the window and its padding
        cuts = sorted({0, length, *starts, *stops})
        totals = self._lookup.segment_totals(f" {normalised} ", cuts)
        piece = {cut: i for i, cut in enumerate(cuts)}
        best = max(
            self.decision_of_sum(sum(totals[piece[start] : piece[stop]]), stop - start)
            for start, stop in zip(starts, stops, strict=True)
        )
        return best, len(starts)

    def reading(self, text: str) -> Reading:
        """``text`` read in windows and (if the model has a passage calibration) in passages."""
        return self._reading(normalise(text))

    def _reading(self, normalised: str, passages: bool | None = None) -> Reading:
        """:meth:`reading` of a text already normalised (:func:`~.injection_views.normalise`, not yet collapsed).
        ``passages``: read the passages too (default: if the model has a passage calibration).

        One :meth:`~.injection_lookup.Lookup.segment_totals` over the cuts of every window and every passage: each
        feature is looked up once, and a window's or a passage's total is the sum of its pieces'. The passages
        cover the text, each character in at most three of them (:func:`passage_spans`), so the cost stays linear.
        """
        collapsed = _collapsed(normalised)
        if passages is None:
            passages = self.passage_platt is not None
        text_length = len(collapsed)
        length = text_length + 2  # padded
        if text_length <= self.window:
            starts, stops = [0], [length]
        else:
            starts = window_starts(text_length, self.window, self.stride)
            stops = [min(length, start + self.window + 2) for start in starts]  # the window and its padding
        spans = []
        if passages and len(starts) >= self.passage_min_windows:
            # A passage's features: those starting in it (the first passage also has the leading pad's, the last
            # the trailing pad's), over its length and its padding, as if read alone.
            spans = [
                (0 if start == 0 else start + 1, length if stop == text_length else stop + 1)
                for start, stop in passage_spans(normalised, collapsed)
            ]
        cuts = sorted({0, length, *starts, *stops, *itertools.chain.from_iterable(spans)})
        totals = self._lookup.segment_totals(f" {collapsed} ", cuts)
        piece = {cut: i for i, cut in enumerate(cuts)}
        decision = max(
            self.decision_of_sum(sum(totals[piece[start] : piece[stop]]), stop - start)
            for start, stop in zip(starts, stops, strict=True)
        )
        if not spans:
            return Reading(decision, len(starts))
        # A passage's length for the square root: its characters and two pads, as a text of that length is read.
        passage = max(
            self.decision_of_sum(sum(totals[piece[start] : piece[stop]]), stop - start + (start > 0) + (stop < length))
            for start, stop in spans
        )
        return Reading(decision, len(starts), passage, len(spans))

    def passage_probability(self, decision: float, passages: int) -> float:
        """The passage calibration's probability (0 without one): the chance, on the training folds, that a text of
        ``passages`` passages whose highest passage decision is ``decision`` is an attack."""
        if self.passage_platt is None:
            return 0.0
        a, b, c = self.passage_platt
        return _sigmoid_of_exponent(a * decision + b + c * math.log(max(1, passages)))

    def probability_of(self, reading: Reading) -> float:
        """A reading's calibrated score: the window probability, or the passage probability if higher (or, for a
        :attr:`passage_joint` model, one probability of both)."""
        if reading.passages == 0 or self.passage_platt is None:
            return self.probability(reading.decision, reading.windows)
        if self.passage_joint:
            a, b, c = self.passage_platt
            exponent = (
                self.platt_a * reading.decision
                + self.platt_b
                + self.platt_windows * math.log(max(1, reading.windows))
                + a * reading.passage_decision
                + b
                + c * math.log(max(1, reading.passages))
            )
            return _sigmoid_of_exponent(exponent)
        window = self.probability(reading.decision, reading.windows)
        return max(window, self.passage_probability(reading.passage_decision, reading.passages))

    def score(self, text: str) -> float:
        """``text``'s calibrated injection score (0 to 1): for a long text, its highest window's, discounted by how
        many windows it has (:attr:`platt_windows`), or its highest passage's if that is higher
        (:attr:`passage_platt`)."""
        return self.probability_of(self.reading(text))

    def flagged(self, text: str) -> bool:
        """Whether ``text``'s score reaches the threshold chosen when the model was trained."""
        return self.score(text) >= self.threshold


@dataclass(frozen=True)
class Reading:
    """A text as the model read it: the highest window's decision and how many windows; the highest passage's
    decision and how many passages (0: passages not read)."""

    decision: float
    windows: int
    passage_decision: float = 0.0
    passages: int = 0


def _sigmoid_of_exponent(exponent: float) -> float:
    """``1 / (1 + exp(exponent))``, 0 where ``math.exp`` would overflow (past ~709)."""
    if exponent > 700:
        return 0.0
    return 1.0 / (1.0 + math.exp(exponent))


def _passage_platt(value: Any) -> tuple[float, float, float] | None:
    """A model file's ``passage_platt`` (absent in files written before passages were read)."""
    if value is None:
        return None
    a, b, c = (float(v) for v in value)
    return a, b, c


def _read_json(path: Path) -> dict[str, Any]:
    with gzip.open(path, "rt", encoding="utf-8") as handle:
        data: dict[str, Any] = json.load(handle)
    return data


def _columns(data: dict[str, Any]) -> tuple[dict[str, float], dict[str, float]]:
    """A model file's idf and weights per feature (a feature whose weight is 0 counts for nothing: not kept among
    the weights)."""
    features: list[str] = data["features"]
    return (
        dict(zip(features, data["idf"], strict=True)),
        dict(itertools.compress(zip(features, data["weights"], strict=True), data["weights"])),
    )


class _FileColumn(Mapping[str, float]):
    """The idf or the weights of a model file, per feature, read from the file on first use (see
    :meth:`InjectionModel.from_dict`); its length is known without reading."""

    def __init__(self, path: Path, column: Literal["idf", "weights"], length: int) -> None:
        self._path = path
        self._column = column
        self._length = length

    @functools.cached_property
    def _values(self) -> dict[str, float]:
        values = _columns(_read_json(self._path))[0 if self._column == "idf" else 1]
        if len(values) != self._length:
            raise ValueError(f"injection model: {self._path} changed since it was read")
        return values

    def __getitem__(self, feature: str) -> float:
        return self._values[feature]

    def __iter__(self) -> Iterator[str]:
        return iter(self._values)

    def __len__(self) -> int:
        return self._length

    def __repr__(self) -> str:
        return f"<{self._column} of {self._length:,} features in {self._path}>"


@functools.cache
def shipped_model() -> InjectionModel:
    """The model shipped with the package, read on first use and kept (warm it up off the UI thread)."""
    with resources.as_file(resources.files(__package__ or "processors.builtin") / MODEL_FILE) as path:
        return InjectionModel.read(path)


def injection_score(text: str) -> float:
    """The shipped model's calibrated injection score of ``text`` (0 to 1): the highest of the text's and of every
    payload found encoded or disguised in it (:func:`~processors.builtin.injection_views.views`: base64, Morse, a
    letter shift …), which the model, trained on plain text, would otherwise read as noise."""
    model = shipped_model()
    found = views(text)
    # The first view is ``normalise(text)``: what model_text(text) starts from, so it is not normalised twice.
    whole = model.probability_of(model._reading(found[0].text))
    return max([whole, *(model.score(view.text) for view in found[1:])])


__all__ = [
    "ALL_KINDS",
    "FORMAT",
    "GRAM_SIZES",
    "MODEL_FILE",
    "InjectionModel",
    "Reading",
    "injection_score",
    "model_features",
    "model_text",
    "passage_spans",
    "shipped_model",
    "window_starts",
]
