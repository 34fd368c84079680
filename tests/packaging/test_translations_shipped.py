"""The installers carry the languages: the compiled catalogues as package data and in the bundle, Qt's own Chinese
catalogues kept by the bundle's trimming, a CJK font in the .deb's dependencies, Chinese names in the desktop entry."""

from __future__ import annotations

import configparser
import sys
import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "packaging"))


def test_the_desktop_entry_has_chinese_names() -> None:
    entry = configparser.RawConfigParser(strict=True)
    entry.optionxform = str  # type: ignore[assignment,method-assign]  # keys are case-sensitive: Name[zh_CN]
    entry.read(ROOT / "packaging" / "linux" / "processor-studio.desktop", encoding="utf-8")
    section = entry["Desktop Entry"]
    for language, word in (("zh_CN", "处理器"), ("zh_TW", "處理器")):
        assert word in section[f"Name[{language}]"]
        assert section[f"Comment[{language}]"] and section[f"GenericName[{language}]"]


def test_the_catalogues_are_package_data_and_exist() -> None:
    pyproject = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    assert pyproject["tool"]["setuptools"]["package-data"]["studio.i18n"] == ["*.qm"]
    shipped = {path.name for path in (ROOT / "studio" / "i18n").glob("*.qm")}
    assert {"processor_studio_zh_CN.qm", "processor_studio_zh_TW.qm", "processor_studio_en.qm"} <= shipped


def test_the_bundle_keeps_the_catalogues_and_qts_chinese_ones() -> None:
    spec = (ROOT / "packaging" / "processor_studio.spec").read_text(encoding="utf-8")
    assert '(ROOT / "studio" / "i18n").glob("*.qm")' in spec
    assert 'QT_TRANSLATIONS_KEPT = {"qtbase_zh_CN.qm", "qtbase_zh_TW.qm"}' in spec


def test_the_deb_depends_on_a_cjk_font() -> None:
    import deb

    fonts = [depend for depend in deb.EXTRA_DEPENDS if "cjk" in depend or "wqy" in depend]
    assert fonts == ["fonts-noto-cjk | fonts-wqy-microhei | fonts-wqy-zenhei"]
