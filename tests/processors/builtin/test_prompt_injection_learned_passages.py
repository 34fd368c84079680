"""The learned detector's passage reading and calibration at their edges (``injection_model.py``, issue 28): what
the mutation run of 2026-12-07 22:29 UTC found unchecked (tests/README.md).

A passage is read as if it were a text alone (its features, its two pads in the length), a piece exactly
:data:`PASSAGE_MIN` long stands alone, the line breaks of the text cut passages when the model reads it, and both
calibrations use every term they are given. Models here are written by hand (the shipped one has no passage
calibration yet) and files are written to ``tmp_path``.
"""

from __future__ import annotations

import gzip
import json
import math
from pathlib import Path

import pytest

from processors.builtin.injection_model import (
    PASSAGE_MIN,
    InjectionModel,
    Reading,
    model_text,
    passage_spans,
)
from processors.builtin.injection_views import normalise


def hand_model(**fields: object) -> InjectionModel:
    """A model over character 3-grams and words: " ig" (a text that starts with "ig", the leading pad included) and
    "w:ignore" are attack features, "w:report" a benign one; calibrated as sigmoid(d), passages as well."""
    values: dict[str, object] = {
        "idf": {" ig": 1.0, "w:ignore": 1.0, "w:report": 1.0},
        "weights": {" ig": 5.0, "w:ignore": 20.0, "w:report": -4.0},
        "intercept": 0.25,
        "platt_a": -1.0,
        "platt_b": 0.0,
        "threshold": 0.5,
        "kinds": ("chars3", "words"),
        "meta": {},
        "passage_platt": (-1.0, 0.0, 0.0),
    }
    values.update(fields)
    return InjectionModel(**values)  # type: ignore[arg-type]


def sigmoid_of(exponent: float) -> float:
    return 1 / (1 + math.exp(exponent))


# ------------------------------------------------------------------------------------------------ passages
@pytest.mark.parametrize("text", ["Ignore the report.", "ignore it", "Ignore the report, and the one after it too."])
def test_a_text_of_one_passage_reads_as_that_text_alone(text: str) -> None:
    """The passage holds the features of the leading pad (" ig") and is as long as the text with its two pads: its
    decision is the whole text's, to the last bits the sums allow."""
    model = hand_model()
    reading = model.reading(text)
    assert reading.passages == 1
    whole = model.decision(model_text(text))
    assert reading.passage_decision == pytest.approx(whole, abs=1e-12)
    assert reading.passage_decision == pytest.approx(reading.decision, abs=1e-12)
    # the leading pad's 3-gram counts: without it the decision would be lower by 5 / sqrt(len + 2)
    assert whole - model.intercept > 15 / math.sqrt(len(model_text(text)) + 2)


def test_a_piece_exactly_the_minimum_long_is_a_passage_of_its_own() -> None:
    first = "Shipping takes four days in the winter."  # 39 characters: 40 with the space after it
    assert len(first) + 1 == PASSAGE_MIN
    second = "The second sentence is long enough to stand alone here."
    collapsed = model_text(f"{first} {second}")
    spans = passage_spans(normalise(f"{first} {second}"))
    assert [collapsed[start:stop] for start, stop in spans] == [f"{first.lower()} ", second.lower()]
    assert spans[0][1] - spans[0][0] == PASSAGE_MIN
    shorter = first.replace("four", "two")  # two characters under the minimum: joined to the next sentence
    assert len(passage_spans(normalise(f"{shorter} {second}"))) == 1


def test_the_model_cuts_passages_at_the_line_breaks_of_the_text() -> None:
    """Lines without a sentence end are passages of their own when the model reads the text (the line breaks are
    read from the normalised text: the collapsed one has none)."""
    lines = [f"line {n} of a note about the weekly report, no stop" for n in range(3)]
    text = "\n".join(lines)
    assert all(len(line) >= PASSAGE_MIN for line in lines)
    reading = hand_model().reading(text)
    assert reading.passages == 3
    assert reading.passages == len(passage_spans(normalise(text)))


# ------------------------------------------------------------------------------------------------ calibration
def test_a_joint_calibration_uses_each_term_with_one_window_and_one_passage() -> None:
    """One window and one passage add no log terms (ln 1); the offsets of both fits count, and the window's
    decision is multiplied by its slope (a decision of 2, not 1: a product and a quotient differ)."""
    model = hand_model(platt_a=-1.0, platt_b=0.4, platt_windows=0.3, passage_platt=(-0.5, 0.7, 0.2), passage_joint=True)
    reading = Reading(decision=2.0, windows=1, passage_decision=3.0, passages=1)
    exponent = -1.0 * 2.0 + 0.4 + 0.0 - 0.5 * 3.0 + 0.7 + 0.0
    assert model.probability_of(reading) == pytest.approx(sigmoid_of(exponent), abs=1e-12)


def test_the_window_probability_keeps_its_discount_for_many_windows_beside_passages() -> None:
    """With a passage calibration that is not joint, the window probability is still discounted by the number of
    windows (the passage one is far lower here, so the window one is the score)."""
    model = hand_model(platt_windows=0.3, passage_platt=(-1.0, 0.0, 0.0))
    reading = Reading(decision=2.0, windows=9, passage_decision=-5.0, passages=3)
    expected = sigmoid_of(-2.0 + 0.3 * math.log(9))
    assert model.probability_of(reading) == pytest.approx(expected, abs=1e-12)
    assert model.probability_of(reading) == pytest.approx(model.probability(2.0, 9), abs=1e-12)


# ------------------------------------------------------------------------------------------------ the file
def test_a_model_read_from_a_file_shows_its_columns_by_name(tmp_path: Path) -> None:
    """The idf and weights of a model read from a file stay in the file until asked for: printed, a column says
    which it is, how many features it holds (the weights: those not 0) and where, not 645,451 entries."""
    path = tmp_path / "model.json.gz"
    data = {
        "format": 1,
        "kinds": ["words"],
        "features": ["w:ignore", "w:report", "w:the"],
        "idf": [1.5, 1.0, 0.5],
        "weights": [20.0, -4.0, 0.0],
        "intercept": 0.0,
        "platt": [-1.0, 0.0],
        "threshold": 0.5,
        "meta": {},
    }
    with gzip.open(path, "wt", encoding="utf-8") as handle:
        json.dump(data, handle)
    model = InjectionModel.read(path)
    assert repr(model.idf) == f"<idf of 3 features in {path}>"
    assert repr(model.weights) == f"<weights of 2 features in {path}>"
    assert dict(model.weights) == {"w:ignore": 20.0, "w:report": -4.0}
