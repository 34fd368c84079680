"""PaletteModel and its search filter: types grouped by lane, draggable, searchable by name, id, description."""

from __future__ import annotations

import json
from typing import Any

import pytest
from PySide6.QtCore import Qt

from studio.models.chain_model import MIME_TYPE
from studio.models.palette_model import KIND_ROLE, LANE_ROLE, TYPE_ROLE, PaletteFilterModel, PaletteModel
from tests.studio.editor_catalogue import groups, make_catalogue


@pytest.fixture
def model(qapp: Any, qtmodeltester: Any) -> PaletteModel:
    palette = PaletteModel(groups(make_catalogue()))
    qtmodeltester.check(palette)
    return palette


@pytest.fixture
def proxy(model: PaletteModel, qtmodeltester: Any) -> PaletteFilterModel:
    result = PaletteFilterModel()
    result.setSourceModel(model)
    qtmodeltester.check(result)
    return result


def visible(proxy: PaletteFilterModel) -> dict[str, list[str]]:
    shown = {}
    for row in range(proxy.rowCount()):
        header = proxy.index(row, 0)
        shown[header.data()] = [proxy.index(r, 0, header).data(TYPE_ROLE) for r in range(proxy.rowCount(header))]
    return shown


def test_types_are_listed_under_every_lane_they_fit(model: PaletteModel) -> None:
    catalogue = make_catalogue()
    assert [model.item(row).text() for row in range(model.rowCount())] == ["Input", "Output", "Error"]
    for lane in ("input", "output", "error"):
        assert sorted(model.type_names(lane)) == sorted(r.type_name for r in catalogue if lane in r.lanes)
    assert "PIIDetector" in model.type_names("input") and "PIIDetector" in model.type_names("output")
    assert "PIIDetector" not in model.type_names("error")
    assert model.type_names("error") == ["PrefillErrorHandler", "StreamErrorRetry"]  # sorted by name
    assert model.header_index("error").data(KIND_ROLE) == "lane"


def test_type_rows_drag_as_palette_payloads_headers_do_not(model: PaletteModel) -> None:
    output = model.header_index("output")
    row = model.type_names("output").index("PIIDetector")
    pii = model.index(row, 0, output)
    assert pii.data() == "PII detector"
    assert pii.data(LANE_ROLE) == "output"
    mime = model.mimeData([pii])
    assert json.loads(bytes(mime.data(MIME_TYPE).data())) == {
        "source": "palette",
        "type": "PIIDetector",
        "uid": None,
        "lane": "output",
    }
    assert model.mimeData([output]) is None
    assert not model.flags(output) & Qt.ItemFlag.ItemIsDragEnabled
    assert model.flags(pii) & Qt.ItemFlag.ItemIsDragEnabled


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("pii det", {"Input": ["PIIDetector"], "Output": ["PIIDetector"]}),  # by name, every word
        ("stream-error-retry-processor", {"Error": ["StreamErrorRetry"]}),  # by id
        ("PRICE MAP", {"Input": ["CostGuard"]}),  # by description, any case
        ("unicodenormalizer", {"Input": ["UnicodeNormalizer"]}),  # by type name
        ("echo", {"Output": ["Echo"]}),  # a user file's type too
        ("zzz", {}),
    ],
)
def test_search_filters_by_name_id_and_description(
    proxy: PaletteFilterModel, text: str, expected: dict[str, list[str]]
) -> None:
    proxy.set_search_text(text)
    assert visible(proxy) == expected
    assert proxy.visible_type_count() == sum(len(v) for v in expected.values())


def test_an_empty_search_shows_everything(proxy: PaletteFilterModel, model: PaletteModel) -> None:
    proxy.set_search_text("zzz")
    assert proxy.rowCount() == 0  # a lane header alone never shows
    proxy.set_search_text("   ")
    assert visible(proxy) == {
        "Input": model.type_names("input"),
        "Output": model.type_names("output"),
        "Error": model.type_names("error"),
    }


def test_set_groups_rebuilds(model: PaletteModel) -> None:
    model.set_groups({"input": [], "output": [], "error": []})
    assert model.rowCount() == 3
    assert model.type_names("input") == []
