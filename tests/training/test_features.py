"""The features counted once per run give every fit exactly what CountVectorizer gave it: the same count matrix,
array for array (liblinear's sums follow the order of each row's entries), so the same weights, the same model
file and the same model card figures, only sooner (issue 28).

The reference is the code the fits ran before (``reference_fit_linear``: CountVectorizer over each text's string
features, the text normalised again for its length); the new path must agree with it exactly, not nearly.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from processors.builtin.injection_model import InjectionModel, model_features, model_text
from training import fit
from training.evaluate import HeldOut, leave_one_family_out
from training.features import FeatureCache
from training.fit import SEED, VARIANTS, Variant, load_rows, train

pytest.importorskip("sklearn")
pytestmark = pytest.mark.timeout(900)

#: Small families, two of them of long documents (read in windows, cut into pieces).
FAMILIES = ["team-w-longdocs", "team-w-longzh2", "team-w-manuals", "team-w-web"]


def reference_counts(texts: Sequence[str], kinds: tuple[str, ...], min_df: int) -> tuple[Any, list[str]]:
    """CountVectorizer's matrix and sorted vocabulary, as every fit built them before."""
    from sklearn.feature_extraction.text import CountVectorizer

    vectorizer = CountVectorizer(analyzer=lambda features: features, min_df=min_df, lowercase=False)
    counts = vectorizer.fit_transform([model_features(model_text(t), kinds) for t in texts])
    vocabulary: dict[str, int] = vectorizer.vocabulary_
    return counts, sorted(vocabulary, key=vocabulary.__getitem__)


def reference_fit_linear(
    texts: Sequence[str], labels: Sequence[int], variant: Variant, cache: FeatureCache
) -> InjectionModel:
    """``training.fit._fit_linear`` as it was before the features were counted once per run (``cache`` unused)."""
    import numpy as np
    from scipy import sparse
    from sklearn.feature_extraction.text import TfidfTransformer
    from sklearn.linear_model import LogisticRegression

    counts, features = reference_counts(texts, variant.kinds, variant.min_df)
    idf = TfidfTransformer().fit(counts).idf_
    lengths = np.sqrt([len(model_text(t)) + 2.0 for t in texts])
    matrix = sparse.diags(1.0 / lengths) @ counts @ sparse.diags(idf)
    ratio = np.ones(matrix.shape[1])
    if variant.nb:
        present = (counts > 0).astype(np.float64)
        label_array = np.asarray(labels)
        attack_counts = np.asarray(present[label_array == 1].sum(axis=0)).ravel() + 1.0
        benign_counts = np.asarray(present[label_array == 0].sum(axis=0)).ravel() + 1.0
        ratio = np.abs(np.log((attack_counts / attack_counts.sum()) / (benign_counts / benign_counts.sum())))
        matrix = matrix @ sparse.diags(ratio)
    classifier = LogisticRegression(
        C=variant.c, solver="liblinear", class_weight="balanced", random_state=SEED, max_iter=1000
    )
    classifier.fit(matrix, list(labels))
    return InjectionModel(
        idf=dict(zip(features, (float(x) for x in idf), strict=True)),
        weights=dict(zip(features, (float(x) for x in classifier.coef_[0] * ratio), strict=True)),
        intercept=float(classifier.intercept_[0]),
        platt_a=-1.0,
        platt_b=0.0,
        threshold=0.5,
        kinds=variant.kinds,
        meta={"variant": variant.name},
        window=variant.window,
        stride=variant.stride,
    )


def assert_same_matrix(ours: tuple[Any, list[str]], theirs: tuple[Any, list[str]]) -> None:
    (matrix, features), (expected, expected_features) = ours, theirs
    assert features == expected_features
    assert type(matrix) is type(expected)
    assert matrix.shape == expected.shape
    for name in ("data", "indices", "indptr"):
        got, want = getattr(matrix, name), getattr(expected, name)
        assert got.dtype == want.dtype, name
        assert got.tolist() == want.tolist(), name


@pytest.fixture(scope="module")
def rows() -> list[dict[str, Any]]:
    return load_rows(families=FAMILIES)


def test_a_fits_count_matrix_is_count_vectorizers_array_for_array(rows: list[dict[str, Any]]) -> None:
    texts = [r["text"] for r in rows]
    rng = random.Random(SEED)
    for kinds in (("chars4", "words"), ("chars3", "chars4", "chars5", "words"), ("words",)):
        cache = FeatureCache(kinds)
        for min_df in (1, 2, 3):
            chosen = sorted(rng.sample(range(len(texts)), len(texts) // 2))
            subset = [texts[i] for i in chosen]
            assert_same_matrix(cache.counts(subset, min_df), reference_counts(subset, kinds, min_df))


#: Texts made to meet the corner cases: repeated features, Latin and Chinese, characters beyond the BMP, spaces
#: only, the same text twice.
_TEXT = st.text(alphabet=st.sampled_from("ab c'1 忽略指令請幫我 😀\u00a0ABÇ\n"), max_size=40)


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.lists(_TEXT, min_size=1, max_size=12), st.integers(1, 3))
def test_any_texts_count_as_count_vectorizer_counts_them(texts: list[str], min_df: int) -> None:
    kinds = ("chars4", "words")
    try:
        expected = reference_counts(texts, kinds, min_df)
    except ValueError:  # no feature at all, or none in min_df texts: refused the same way
        with pytest.raises(ValueError, match=r"vocabulary|no terms remain"):
            FeatureCache(kinds).counts(texts, min_df)
        return
    cache = FeatureCache(kinds)
    cache.add(texts[::-1])  # the run's vocabulary met in another order: the fit's matrix does not change
    assert_same_matrix(cache.counts(texts, min_df), expected)


def test_the_cache_travels_to_a_worker_whole(rows: list[dict[str, Any]]) -> None:
    import pickle

    kinds = ("chars4", "words")
    texts = [r["text"] for r in rows[::5]]
    cache = FeatureCache(kinds)
    cache.add(texts[: len(texts) // 2])
    arrived = pickle.loads(pickle.dumps(cache))
    # Texts it has and texts it has not: the worker extracts the new ones into the vocabulary that came with it.
    assert_same_matrix(arrived.counts(texts[1:], 2), reference_counts(texts[1:], kinds, 2))
    assert arrived.normalised(texts[0]) == model_text(texts[0])
    assert arrived(texts[0]) == model_features(model_text(texts[0]), kinds)
    empty = pickle.loads(pickle.dumps(FeatureCache(kinds)))
    assert_same_matrix(empty.counts(texts[:7], 1), reference_counts(texts[:7], kinds, 1))


@pytest.mark.parametrize(
    "name", ["chars4+words C=4", "chars4+words C=4 pieces 200", "chars4+words C=4 nb", "chars3-5+words C=4"]
)
def test_a_trained_model_is_the_old_one_to_the_last_bit(
    rows: list[dict[str, Any]], name: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    sample = rows[::4]
    variant = VARIANTS[name]
    new_scores: list[float] = []
    new = train(sample, variant, FeatureCache(variant.kinds), new_scores)
    monkeypatch.setattr(fit, "_fit_linear", reference_fit_linear)
    old_scores: list[float] = []
    old = train(sample, variant, FeatureCache(variant.kinds), old_scores)
    assert new == old
    assert new_scores == old_scores


def figures(results: list[HeldOut]) -> list[tuple[Any, ...]]:
    return [
        (
            h.family,
            h.threshold,
            sorted((k, r.tp, r.fn, r.fp, r.tn, r.misses, r.false_alarms) for k, r in h.model.items()),
            sorted((k, r.tp, r.fn, r.fp, r.tn) for k, r in h.heuristics.items()),
        )
        for h in results
    ]


def test_leaving_four_families_out_gives_the_old_figures(
    rows: list[dict[str, Any]], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("TRAIN_PROCESSES", "1")
    sample = rows[::2]
    variant = VARIANTS["chars4+words C=4"]
    new = figures(leave_one_family_out(sample, variant, lambda _: None))
    monkeypatch.setattr(fit, "_fit_linear", reference_fit_linear)
    old = figures(leave_one_family_out(sample, variant, lambda _: None))
    assert [f[0] for f in new] == FAMILIES
    assert new == old
