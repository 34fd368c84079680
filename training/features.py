"""Each training text's features as integer ids, extracted once per run, and the count matrix of any fit built from
them with numpy: the matrix scikit-learn's ``CountVectorizer`` builds, array for array, without recounting strings.

A build fits the model 5 times per ``train()`` (4 folds and the final fit) and the model card trains 50 more times
(issue 28); ``CountVectorizer`` counted every string feature of every text again in each fit (a third of a fit's
time, the rest being liblinear's). Here a text's features are counted once: its distinct features as ids of a
run-wide vocabulary, in the order they first appear in the text, with their counts. A fit's matrix is then picked out
of those rows with array operations, reproducing ``CountVectorizer(min_df=...).fit_transform`` exactly (scikit-learn
1.9), down to the order of the entries within each row, which liblinear's sums follow (so the weights are the same
to the last bit):

* ``CountVectorizer`` numbers features in the order they are first seen in the fit's texts, sorts each row's
  entries by that number, drops the features in fewer than ``min_df`` texts, then renumbers the columns in the
  features' sorted (string) order *without* re-sorting the entries: each row stays in first-seen order;
* so here: the first-seen number of each feature of the fit's texts (where it first occurs in the rows, stacked),
  each row's entries sorted by it, the rare features dropped, the columns numbered by the features' string order.

scikit-learn, numpy and scipy are development dependencies (imported when first needed, as in :mod:`training.fit`).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from itertools import count, filterfalse
from typing import TYPE_CHECKING, Any

from processors.builtin.injection_model import model_features, model_text

if TYPE_CHECKING:
    import numpy as np


class FeatureCache:
    """Each text's normalised form and its features (as ids of the run's vocabulary, with counts), computed once for
    all the fits of a run (and handed to worker processes as arrays: :meth:`__getstate__`)."""

    def __init__(self, kinds: tuple[str, ...]) -> None:
        self.kinds = kinds
        #: Every feature seen in the run, by id (ids in the order features were first met).
        self._names: list[str] = []
        self._ids: dict[str, int] = {}
        #: Per text: its row number (in the lists below).
        self._row_of: dict[str, int] = {}
        self._normalised: list[str] = []
        #: Per row: its distinct features' ids in the order they first occur in the text, and their counts.
        self._row_ids: list[np.ndarray[Any, Any]] = []
        self._row_counts: list[np.ndarray[Any, Any]] = []
        #: Per id, its feature's position in the sorted vocabulary (rebuilt when the vocabulary has grown).
        self._rank: np.ndarray[Any, Any] | None = None

    def __call__(self, text: str) -> list[str]:
        """``text``'s features, as :func:`~processors.builtin.injection_model.model_features` gives them (from the
        normalised form kept here: the text is not normalised again)."""
        return model_features(self.normalised(text), self.kinds)

    def normalised(self, text: str) -> str:
        """``text`` as the model reads it (:func:`~processors.builtin.injection_model.model_text`), made once."""
        return self._normalised[self._row(text)]

    def add(self, texts: Sequence[str]) -> None:
        """Extract the features of every text not seen yet (at once, e.g. before the cache is sent to workers)."""
        for text in texts:
            self._row(text)

    def _row(self, text: str) -> int:
        row = self._row_of.get(text)
        if row is not None:
            return row
        import numpy as np

        normalised = model_text(text)
        # Counter keeps the features in the order they first occur (what CountVectorizer's rows keep, too).
        counted = Counter(model_features(normalised, self.kinds))
        ids = self._ids
        ids.update(zip(filterfalse(ids.__contains__, counted), count(len(ids))))
        row = self._row_of[text] = len(self._normalised)
        self._normalised.append(normalised)
        self._row_ids.append(np.fromiter(map(ids.__getitem__, counted), dtype=np.int32, count=len(counted)))
        self._row_counts.append(np.fromiter(counted.values(), dtype=np.int64, count=len(counted)))
        return row

    def _ranks(self) -> np.ndarray[Any, Any]:
        """Each id's position among the run's features in sorted order (the columns' order, as CountVectorizer's)."""
        if len(self._names) != len(self._ids):
            self._names = list(self._ids)  # ids are given in insertion order
        if self._rank is None or len(self._rank) != len(self._names):
            import numpy as np

            order = sorted(range(len(self._names)), key=self._names.__getitem__)
            rank = np.empty(len(order), dtype=np.int64)
            rank[np.asarray(order, dtype=np.int64)] = np.arange(len(order), dtype=np.int64)
            self._rank = rank
        return self._rank

    def counts(self, texts: Sequence[str], min_df: int) -> tuple[Any, list[str]]:
        """The count matrix of ``texts`` and its columns' features: what ``CountVectorizer(analyzer=<the features>,
        min_df=min_df, lowercase=False).fit_transform(texts)`` and its sorted vocabulary give (see the module)."""
        import numpy as np
        from scipy import sparse

        rows = [self._row(text) for text in texts]
        row_ids = [self._row_ids[r] for r in rows]
        lengths = np.fromiter(map(len, row_ids), dtype=np.int64, count=len(row_ids))
        stacked = np.concatenate(row_ids) if row_ids else np.zeros(0, dtype=np.int32)
        counts = np.concatenate([self._row_counts[r] for r in rows]) if rows else np.zeros(0, dtype=np.int64)
        if len(stacked) == 0:
            raise ValueError("empty vocabulary; perhaps the documents only contain stop words")
        indptr = np.zeros(len(rows) + 1, dtype=np.int64)
        np.cumsum(lengths, out=indptr[1:])
        # The fit's features (by id), where each first occurs, and each entry's feature among them.
        present, first, entry_feature = np.unique(stacked, return_index=True, return_inverse=True)
        seen_order = np.argsort(first, kind="stable")  # the fit's features in first-seen order
        seen_number = np.empty(len(present), dtype=np.int64)
        seen_number[seen_order] = np.arange(len(present), dtype=np.int64)
        # Each row's entries in first-seen order (scipy sorts each row by that number, carrying the entry positions).
        by_seen = sparse.csr_matrix(
            (np.arange(len(stacked), dtype=np.int64), seen_number[entry_feature], indptr),
            shape=(len(rows), len(present)),
        )
        by_seen.sort_indices()
        in_row_order = by_seen.data
        entry_feature = entry_feature[in_row_order]
        counts = counts[in_row_order]
        # Document frequency: a row's features are distinct, so a feature's entries are its texts.
        kept = np.bincount(entry_feature, minlength=len(present)) >= min_df
        if not kept.any():
            raise ValueError("After pruning, no terms remain. Try a lower min_df or a higher max_df.")
        kept_ids = present[kept]
        ranks = self._ranks()
        column_order = np.argsort(ranks[kept_ids], kind="stable")
        column_of = np.full(len(present), -1, dtype=np.int64)
        column_of[np.flatnonzero(kept)[column_order]] = np.arange(len(kept_ids), dtype=np.int64)
        keep_entry = kept[entry_feature]
        kept_before = np.zeros(len(keep_entry) + 1, dtype=np.int64)
        np.cumsum(keep_entry, out=kept_before[1:])
        matrix = sparse.csr_matrix(
            (
                counts[keep_entry],
                column_of[entry_feature[keep_entry]].astype(np.int32),
                kept_before[indptr].astype(np.int32),
            ),
            shape=(len(rows), len(kept_ids)),
            dtype=np.int64,
        )
        return matrix, list(map(self._names.__getitem__, kept_ids[column_order].tolist()))

    def __getstate__(self) -> dict[str, Any]:
        """The rows as two long arrays and the vocabulary as a list: the dicts are rebuilt on arrival (a worker
        gets the run's features without extracting them again)."""
        import numpy as np

        state = {name: value for name, value in vars(self).items() if name not in ("_ids", "_rank", "_row_of")}
        state["_names"] = list(self._ids)
        state["_texts"] = list(self._row_of)
        state["_row_sizes"] = np.fromiter(map(len, self._row_ids), dtype=np.int64, count=len(self._row_ids))
        state["_row_ids"] = np.concatenate(self._row_ids) if self._row_ids else np.zeros(0, dtype=np.int32)
        state["_row_counts"] = np.concatenate(self._row_counts) if self._row_counts else np.zeros(0, dtype=np.int64)
        return state

    def __setstate__(self, state: dict[str, Any]) -> None:
        import numpy as np

        sizes = state.pop("_row_sizes")
        bounds = np.cumsum(sizes)[:-1]
        state["_row_ids"] = np.split(state["_row_ids"], bounds) if len(sizes) else []
        state["_row_counts"] = np.split(state["_row_counts"], bounds) if len(sizes) else []
        state["_row_of"] = {text: row for row, text in enumerate(state.pop("_texts"))}
        vars(self).update(state)
        self._ids = {name: i for i, name in enumerate(self._names)}
        self._rank = None
