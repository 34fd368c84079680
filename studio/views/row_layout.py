"""Where each row of a virtual list lies: heights (estimated until measured at a width) and the tops they add up to.

Pure Python, apart from the view that paints (:class:`~studio.views.chat_list_view.ChatListView`), so the
bookkeeping that makes a 10,000-message thread open by measuring one screenful can be read and tested alone. Tops
are recomputed lazily from the first row whose height changed (:meth:`RowLayout.fix_tops`).
"""

from __future__ import annotations

import bisect
import itertools
from collections.abc import Sequence


class RowLayout:
    """Heights and tops of a list's rows; a height is an estimate until measured at the current width."""

    def __init__(self) -> None:
        self.heights: list[int] = []
        #: The width each height was measured at; 0 for an estimate.
        self.measured: list[int] = []
        #: The top of each row, plus the total height at the end; right for rows up to ``valid``.
        self.tops: list[int] = [0]
        self.valid = 0

    def __len__(self) -> int:
        return len(self.heights)

    def reset(self, estimates: Sequence[int]) -> None:
        """Start again from these estimated heights."""
        self.heights = list(estimates)
        self.measured = [0] * len(self.heights)
        self.tops = [0] * (len(self.heights) + 1)
        self.valid = 0

    def insert(self, start: int, estimates: Sequence[int]) -> None:
        """New rows at ``start``, with estimated heights."""
        self.heights[start:start] = estimates
        self.measured[start:start] = [0] * len(estimates)
        self.tops[start + 1 : start + 1] = [0] * len(estimates)
        self.valid = min(self.valid, start)

    def forget_measures(self, first: int = 0, last: int | None = None) -> None:
        """Rows ``first..last`` (all by default) need measuring again (their content or the width changed)."""
        end = len(self.heights) if last is None else last + 1
        self.measured[first:end] = [0] * (end - first)

    def is_measured(self, row: int, width: int) -> bool:
        return self.measured[row] == width

    def set_height(self, row: int, height: int, *, measured_at: int = 0) -> bool:
        """Record a row's height (measured at ``measured_at``, or an estimate); True when it changed."""
        self.measured[row] = measured_at
        if height == self.heights[row]:
            return False
        self.heights[row] = height
        self.valid = min(self.valid, row)
        return True

    def fix_tops(self) -> None:
        start, count = self.valid, len(self.heights)
        if start < count:
            self.tops[start:] = itertools.accumulate(self.heights[start:], initial=self.tops[start])
        self.valid = count

    def row_at(self, y: int) -> int:
        """The row covering content coordinate ``y`` (clamped to the rows there are)."""
        row = bisect.bisect_right(self.tops, y, 0, len(self.heights)) - 1
        return max(0, min(row, len(self.heights) - 1))

    def total(self) -> int:
        return self.tops[len(self.heights)] if self.heights else 0

    def overlaps(self, first: int, last: int, top: int, bottom: int) -> bool:
        """Whether rows ``first..last`` show between content coordinates ``top`` and ``bottom``."""
        return self.tops[first] < bottom and self.tops[last] + self.heights[last] > top
