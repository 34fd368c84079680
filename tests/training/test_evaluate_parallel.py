"""The model card's leave-out fits give the same figures in worker processes as one after the other."""

from __future__ import annotations

from typing import Any

import pytest

from training.evaluate import HeldOut, leave_one_family_out
from training.fit import VARIANTS, load_rows

pytest.importorskip("sklearn")


def figures(results: list[HeldOut]) -> list[tuple[Any, ...]]:
    return [(h.family, h.threshold, sorted((k, r.tp, r.fn, r.fp, r.tn) for k, r in h.model.items())) for h in results]


def test_leaving_families_out_in_two_processes_gives_the_figures_of_one(monkeypatch: pytest.MonkeyPatch) -> None:
    families = ["team-w-en", "team-w-everyday", "team-w-zh"]
    rows = [row for index, row in enumerate(load_rows(families=families)) if index % 8 == 0]
    variant = VARIANTS["chars4+words C=4"]
    monkeypatch.setenv("TRAIN_PROCESSES", "1")
    alone = figures(leave_one_family_out(rows, variant, lambda _: None))
    monkeypatch.setenv("TRAIN_PROCESSES", "2")
    together = figures(leave_one_family_out(rows, variant, lambda _: None))
    assert [f[0] for f in alone] == families
    assert together == alone
