"""RowLayout: the chat list's row heights and tops, without a widget."""

from __future__ import annotations

from studio.views.row_layout import RowLayout


def test_tops_add_up_the_heights_and_rows_are_found_by_coordinate() -> None:
    rows = RowLayout()
    rows.reset([10, 20, 30])
    rows.fix_tops()
    assert rows.tops == [0, 10, 30, 60]
    assert rows.total() == 60
    assert [rows.row_at(y) for y in (0, 9, 10, 29, 30, 59, 500, -5)] == [0, 0, 1, 1, 2, 2, 2, 0]


def test_an_insert_shifts_the_rows_below_and_only_their_tops_are_recomputed() -> None:
    rows = RowLayout()
    rows.reset([10, 20, 30])
    rows.fix_tops()
    rows.insert(1, [5, 5])
    assert rows.valid == 1
    rows.fix_tops()
    assert rows.heights == [10, 5, 5, 20, 30]
    assert rows.tops == [0, 10, 15, 20, 40, 70]
    assert rows.measured == [0] * 5


def test_a_measured_height_counts_only_at_the_width_it_was_measured_at() -> None:
    rows = RowLayout()
    rows.reset([10, 10])
    rows.fix_tops()
    assert rows.set_height(1, 40, measured_at=300) is True
    assert rows.is_measured(1, 300) and not rows.is_measured(1, 200) and not rows.is_measured(0, 300)
    assert rows.set_height(1, 40, measured_at=300) is False  # same height: tops stay right
    rows.fix_tops()
    assert rows.total() == 50
    rows.forget_measures()
    assert not rows.is_measured(1, 300)
    rows.set_height(0, 10, measured_at=300)
    rows.forget_measures(1, 1)
    assert rows.is_measured(0, 300) and not rows.is_measured(1, 300)


def test_overlap_with_a_visible_band() -> None:
    rows = RowLayout()
    rows.reset([10, 20, 30])
    rows.fix_tops()
    assert rows.overlaps(1, 1, 0, 15)  # row 1 spans 10..30
    assert not rows.overlaps(2, 2, 0, 30)  # row 2 starts at 30
    assert rows.overlaps(0, 2, 59, 100)
    assert not rows.overlaps(0, 0, 10, 20)
    empty = RowLayout()
    assert len(empty) == 0 and empty.total() == 0
