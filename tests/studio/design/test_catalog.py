"""The studio's catalogue: loaded once per process, reloadable, and grouped by lane for the palette."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from processors.builtin.registry import Catalogue, load_catalogue
from studio.design import catalog
from studio.system import paths

USER_PROCESSOR = '''
from processors import Processor


class Politeness(Processor):
    """Adds nothing; it only has to be found."""

    id = "politeness"
    name = "Politeness"

    def process_input(self, args):
        return args.messages
'''


@pytest.fixture
def data_dir(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    """A fresh user data folder, and the process-wide catalogue as it was before the test."""
    monkeypatch.setenv("PROCESSOR_STUDIO_DATA", str(tmp_path))
    saved = catalog._cached
    catalog._cached = None
    yield tmp_path
    catalog._cached = saved


def test_loaded_once_and_shared(data_dir: Path) -> None:
    first = catalog.studio_catalogue()
    assert catalog.studio_catalogue() is first
    assert "PIIDetector" in first
    assert first.errors == []


def test_reload_picks_up_a_new_user_file(data_dir: Path) -> None:
    before = catalog.studio_catalogue()
    assert "Politeness" not in before
    (paths.processors_folder() / "politeness.py").write_text(USER_PROCESSOR, encoding="utf-8")
    assert "Politeness" not in catalog.studio_catalogue(), "no reload, no change"
    after = catalog.reload()
    assert after is not before
    assert after["Politeness"].source == f"file:{paths.processors_folder() / 'politeness.py'}"
    assert catalog.studio_catalogue() is after


def test_a_broken_user_file_is_listed_not_fatal(data_dir: Path) -> None:
    (paths.processors_folder() / "broken.py").write_text("import no_such_module_here\n", encoding="utf-8")
    loaded = catalog.reload()
    assert "PIIDetector" in loaded
    assert [message for source, message in loaded.errors if source.endswith("broken.py")] == [
        "ModuleNotFoundError: No module named 'no_such_module_here'"
    ]


def test_palette_groups_list_a_type_under_every_lane_it_fits() -> None:
    catalogue: Catalogue = load_catalogue()
    groups = catalog.palette_groups(catalogue)
    assert list(groups) == ["input", "output", "error"]
    names = {lane: [record.type_name for record in records] for lane, records in groups.items()}
    assert "PIIDetector" in names["input"] and "PIIDetector" in names["output"]
    assert "PIIDetector" not in names["error"]
    assert "StreamErrorRetry" in names["error"] and "StreamErrorRetry" not in names["input"]
    assert "UnicodeNormalizer" in names["input"] and "UnicodeNormalizer" not in names["output"]
    listed = {type_name for lane_names in names.values() for type_name in lane_names}
    assert listed == set(catalogue.types), "every type fits some lane"
    for records in groups.values():
        titles = [record.name.casefold() for record in records]
        assert titles == sorted(titles)
