"""The Lab window's figure tables, written from the lab's metric registry and its per-category attack counts, so the
studio shows the figures the reports and the command show."""

from __future__ import annotations

from typing import Any

from lab.metrics import METRICS, attacks_by_category, confusion
from studio.models.lab_tables import METRIC_TITLES, category_table, metric_title, overall_cells, processor_table
from tests.lab.test_metrics import result

RESULTS = [
    result("a1", "attack", "blocked", ("inj",), category="direct"),
    result("a2", "attack", "passed", category="direct"),
    result("a3", "attack", "error", category="pii"),
    result("b1", "benign", "blocked", ("inj",), category="direct"),
    result("b2", "benign", "passed", category="pii"),
]


def test_every_metric_of_the_registry_has_a_studio_title_and_a_column_in_order(qapp: Any) -> None:
    assert set(METRIC_TITLES) == {metric.key for metric in METRICS}, "a new metric needs its title in lab_tables"
    table = category_table(RESULTS)
    assert table.columns[1:] == [metric_title(metric) for metric in METRICS]
    assert table.columns[1:5] == ["TP", "FP", "FN", "TN"]
    direct = table.rows[0]
    assert direct == ["direct", "1", "1", "1", "0", "0", "50.0%", "50.0%", "100.0%", "-", "-", "-"]
    assert overall_cells(confusion(RESULTS))[1:] == ["1", "1", "1", "1", "1", "50.0%", "50.0%", "50.0%", "-", "-", "-"]
    # the bars are the registry's bar metrics (recall, FPR), nothing else
    bars = [column for column, heat in enumerate(table.heat[0]) if heat is not None]
    assert [table.columns[column] for column in bars] == [metric_title(m) for m in METRICS if m.bar]


def test_the_heat_maps_rows_are_the_registrys_categories_of_attacks(qapp: Any) -> None:
    table = processor_table(RESULTS)
    categories = attacks_by_category(RESULTS)
    assert [row[0] for row in table.rows] == [f"{name} ({attacks.total})" for name, attacks in categories.items()]
    assert [row[-1] for row in table.rows] == [str(attacks.missed) for attacks in categories.values()]
    assert [row[-1] for row in table.rows] == ["1", "1"]


def test_the_confusion_tables_show_refused_and_succeeded_attacks_beside_blocked(qapp: Any) -> None:
    from tests.lab.test_metrics import MODEL_RESULTS

    table = category_table(MODEL_RESULTS)
    titles = ["Refused", "Attack succeeded", "Attack success rate"]
    assert table.columns[-3:] == titles
    assert table.rows[0][1] == "1" and table.rows[0][-3:] == ["1", "1", "25.0%"]  # one blocked, one of each
