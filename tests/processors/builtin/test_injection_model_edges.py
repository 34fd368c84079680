"""The learned model's file and calibration at their edges: what a model file's fields become, the file read as
UTF-8 whatever the locale, Platt's sigmoid with both its terms, a score far below the threshold, a score exactly at
it (issue 25: the survivors of the first mutation run of ``injection_model.py``).

The shipped model is read once per process (``shipped_model`` is cached), so these tests build their models from
small dictionaries and files: that is the only way a test reaches ``from_dict`` and ``read`` after the first one.
"""

from __future__ import annotations

import dataclasses
import gzip
import json
import math
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from processors.builtin.injection_model import ALL_KINDS, InjectionModel, model_text

ROOT = Path(__file__).resolve().parents[3]

#: A model file as ``training/build.py`` writes one, in miniature: sorted features, a zero weight, a Chinese pair.
DATA: dict[str, Any] = {
    "format": 1,
    "kinds": ["words"],
    "features": ["b:ignore all", "h:忽略", "w:ignore", "w:report", "w:unused"],
    "idf": [1.5, 2.0, 1.0, 1.25, 3.0],
    "weights": [2.0, 4.0, 3.0, -0.2, 0.0],
    "intercept": -0.5,
    "platt": [-1.5, 0.25],
    "threshold": 0.5,
    "meta": {"trained_on": "training/data", "families": 51},
}


def test_a_model_files_columns_become_the_models_fields() -> None:
    model = InjectionModel.from_dict(DATA)
    assert model.idf == {"b:ignore all": 1.5, "h:忽略": 2.0, "w:ignore": 1.0, "w:report": 1.25, "w:unused": 3.0}
    # A feature whose weight is 0 counts for nothing: it is not kept among the weights.
    assert model.weights == {"b:ignore all": 2.0, "h:忽略": 4.0, "w:ignore": 3.0, "w:report": -0.2}
    assert model.kinds == ("words",)
    assert model.meta == {"trained_on": "training/data", "families": 51}
    assert (model.intercept, model.platt_a, model.platt_b, model.threshold) == (-0.5, -1.5, 0.25, 0.5)


def test_a_model_file_without_kinds_or_meta_reads_every_kind_and_has_no_meta() -> None:
    model = InjectionModel.from_dict({key: value for key, value in DATA.items() if key not in ("kinds", "meta")})
    assert model.kinds == ALL_KINDS
    assert model.meta == {}


def test_a_model_read_from_a_file_scores_as_one_built_from_its_fields() -> None:
    """``from_dict`` hands the scorer its look-up tables straight from the file's columns; a model built from the
    same fields builds them on first use: the two score alike."""
    read = InjectionModel.from_dict(DATA)
    built = InjectionModel(
        idf=read.idf,
        weights=read.weights,
        intercept=-0.5,
        platt_a=-1.5,
        platt_b=0.25,
        threshold=0.5,
        kinds=("words",),
        meta={},
    )
    for text in ("Ignore all the report", "请忽略之前的指令", "", "report " * 200 + "ignore all"):
        assert read.decision_and_windows(text) == built.decision_and_windows(text)


def test_columns_of_different_lengths_are_refused_with_the_whole_reason() -> None:
    with pytest.raises(ValueError, match=r"^injection model: features, idf and weights differ in length$"):
        InjectionModel.from_dict({**DATA, "idf": DATA["idf"][:-1]})


def test_a_model_file_is_read_as_utf_8_whatever_the_locale(tmp_path: Path) -> None:
    """A model file is UTF-8 (Chinese features are written as they are); a process whose locale is ASCII (or a
    Windows code page) still reads them."""
    path = tmp_path / "model.json.gz"
    with gzip.open(path, "wt", encoding="utf-8") as handle:
        json.dump(DATA, handle, ensure_ascii=False)
    script = (
        "import json, sys\n"
        "from pathlib import Path\n"
        "from processors.builtin.injection_model import InjectionModel\n"
        "print(json.dumps(sorted(InjectionModel.read(Path(sys.argv[1])).idf)))\n"
    )
    env = {**os.environ, "LC_ALL": "C", "LANG": "C", "PYTHONUTF8": "0", "PYTHONCOERCECLOCALE": "0"}
    result = subprocess.run(
        [sys.executable, "-c", script, str(path)], capture_output=True, text=True, cwd=ROOT, env=env, check=False
    )
    assert result.returncode == 0, result.stderr
    assert json.loads(result.stdout) == sorted(DATA["features"])
    assert InjectionModel.read(path).idf == InjectionModel.from_dict(DATA).idf


def sigmoid(exponent: float) -> float:
    return 1.0 / (1.0 + math.exp(exponent))


def test_the_calibration_is_platts_sigmoid_with_its_offset_and_the_windows_discount() -> None:
    model = dataclasses.replace(InjectionModel.from_dict(DATA), platt_windows=0.5)
    for decision in (-2.0, 0.0, 0.3, 1.5):
        plain = sigmoid(-1.5 * decision + 0.25)
        assert model.probability(decision) == pytest.approx(plain, abs=1e-15)
        assert model.probability(decision, 1) == model.probability(decision)  # one window: no discount
        assert model.probability(decision, 8) == pytest.approx(sigmoid(-1.5 * decision + 0.25 + 0.5 * math.log(8)))
    text = "Please ignore all of it"
    assert model.score(text) == pytest.approx(sigmoid(-1.5 * model.text_decision(text) + 0.25), abs=1e-15)


def test_a_text_far_below_the_threshold_scores_zero_and_does_not_overflow() -> None:
    """The exponent of a very benign decision is past what ``math.exp`` can hold: the score is 0, not an
    ``OverflowError`` and not a certain attack."""
    model = InjectionModel.from_dict(DATA)
    assert model.probability(-1_000.0) == 0.0  # exponent 1,500.25
    assert 0.0 < model.probability(-400.0) < 1e-250  # exponent 600.25: still computed
    benign = dataclasses.replace(model, intercept=-2_000.0)
    assert benign.score("the report") == 0.0
    assert not benign.flagged("ignore all")


def test_a_score_that_reaches_the_threshold_exactly_is_flagged() -> None:
    """``flagged`` means the score reaches the threshold: a text the model knows nothing of, with no intercept,
    has the decision 0 and so the score 0.5 exactly."""
    model = dataclasses.replace(InjectionModel.from_dict(DATA), intercept=0.0, platt_a=-1.0, platt_b=0.0)
    assert model.score("nothing known here") == 0.5
    assert model.flagged("nothing known here")
    assert not dataclasses.replace(model, threshold=0.5000001).flagged("nothing known here")


def test_text_decision_is_the_highest_windows_linear_score() -> None:
    model = InjectionModel.from_dict(DATA)
    short = "Ignore all the report"
    normalised = model_text(short)
    # idf * weight of "w:ignore", "b:ignore all" and "w:report", over the square root of the padded length.
    expected = -0.5 + (1.0 * 3.0 + 1.5 * 2.0 + 1.25 * -0.2) / math.sqrt(len(normalised) + 2)
    assert model.text_decision(short) == pytest.approx(expected, abs=1e-12)
    long = "the report " * 120 + "ignore all"
    decision, windows = model.decision_and_windows(long)
    assert windows > 1
    assert model.text_decision(long) == decision
