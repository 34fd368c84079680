"""The studio's languages: Qt translators for Simplified Chinese, Traditional Chinese and English.

Every user-visible string of the studio goes through :func:`translate` (Qt's ``QCoreApplication.translate``) with
an explicit context, so ``pyside6-lupdate`` finds it (``scripts/translations update`` writes
``resources/i18n/processor_studio_<lang>.ts``) and ``pyside6-lrelease`` compiles it into ``studio/i18n/*.qm``,
shipped as package data. The language is, in order: ``--lang`` on the command line, the choice kept from the
Settings dialog, the system locale; anything else falls back to English (the source texts)::

    from studio import i18n

    language = i18n.choose_language(args.lang)       # "zh_CN", "zh_TW" or "en"
    i18n.install(app, language)                      # our catalogue and Qt's own (standard buttons, dialogs)
    label.setText(i18n.translate("MainWindow", "Threads"))

A plug-in ships its own catalogue — its processors' texts under the keys :mod:`studio.i18n.processor_texts` names —
as ``<name>_<lang>.qm`` beside one of its modules, and points at that module with an entry point of the group
``processor_studio.translations`` (``toy_guard = "toy_guard"``); :func:`install` loads it with ours (the module is
found, not imported).

A changed language applies at the next start (the Settings dialog offers to restart at once, keeping what was
typed): rebuilding every view in place would race the running reply and the inspector's history.
"""

from __future__ import annotations

import importlib.util
import logging
from importlib.metadata import entry_points
from pathlib import Path

from PySide6.QtCore import QCoreApplication, QLibraryInfo, QLocale, QSettings, QTranslator

from studio.system.paths import data_dir
from studio.texts import translator as texts

__all__ = [
    "DEFAULT_LANGUAGE",
    "LANGUAGES",
    "choose_language",
    "current_language",
    "current_locale",
    "install",
    "plugin_catalogues",
    "qm_dir",
    "save_language",
    "saved_language",
    "system_language",
    "translate",
]

#: The languages the studio ships, by Qt locale name, with the name a reader of that language recognises.
LANGUAGES: dict[str, str] = {"en": "English", "zh_CN": "简体中文", "zh_TW": "繁體中文"}
DEFAULT_LANGUAGE = "en"
#: The catalogue's file stem: ``processor_studio_zh_CN.qm``.
CATALOGUE = "processor_studio"
#: The entry-point group of plug-ins' catalogues: ``<name> = "<module>"``, the ``.qm`` files beside that module.
TRANSLATIONS_GROUP = "processor_studio.translations"

logger = logging.getLogger(__name__)

texts.set_translator(QCoreApplication.translate)
#: ``translate("Context", "text")``, or with a count, ``translate("Context", "%n model(s)", None, n)``.
translate = texts.translate

_SETTING = "ui/language"
#: The translators installed on the application (kept referenced: Qt does not own them).
_installed: list[QTranslator] = []
_locale: list[QLocale] = [QLocale(QLocale.Language.English, QLocale.Country.UnitedStates)]
_language: list[str] = [DEFAULT_LANGUAGE]


def qm_dir() -> Path:
    """The compiled catalogues: beside this module, in a checkout, a wheel and the PyInstaller bundle alike."""
    return Path(__file__).resolve().parent


def normalize(name: str | None) -> str | None:
    """A shipped language for a locale name (``zh-Hans-CN``, ``zh_HK``, ``en_GB.UTF-8``), or None."""
    if not name:
        return None
    text = name.split(".")[0].replace("-", "_")
    if text in LANGUAGES:
        return text
    lowered = text.lower()
    if lowered.startswith("zh"):
        # Traditional script: Taiwan, Hong Kong, Macao or an explicit Hant; Simplified otherwise (mainland, SG).
        return "zh_TW" if any(tag in lowered for tag in ("hant", "_tw", "_hk", "_mo")) else "zh_CN"
    if lowered.startswith("en"):
        return "en"
    return None


def system_language(locale: QLocale | None = None) -> str:
    """The shipped language closest to the system locale (English when none fits)."""
    locale = locale or QLocale.system()
    if locale.language() == QLocale.Language.Chinese:
        script = locale.script()
        if script == QLocale.Script.TraditionalChineseScript:
            return "zh_TW"
        if script == QLocale.Script.SimplifiedChineseScript:
            return "zh_CN"
        return normalize(locale.name()) or "zh_CN"
    for name in locale.uiLanguages():
        found = normalize(name)
        if found is not None:
            return found
    return DEFAULT_LANGUAGE


def _settings() -> QSettings:
    return QSettings(str(data_dir() / "settings.ini"), QSettings.Format.IniFormat)


def saved_language() -> str | None:
    """The language picked in Settings, if any."""
    return normalize(str(_settings().value(_SETTING, "") or ""))


def save_language(language: str) -> None:
    """Keep the Settings dialog's choice for the next start."""
    if language not in LANGUAGES:
        raise ValueError(f"unknown language {language!r}; known: {', '.join(LANGUAGES)}")
    settings = _settings()
    settings.setValue(_SETTING, language)
    settings.sync()


def choose_language(requested: str | None = None) -> str:
    """``--lang`` when given, else the kept choice, else the system's language."""
    return normalize(requested) or saved_language() or system_language()


def install(app: QCoreApplication, language: str) -> bool:
    """Install the catalogues of ``language`` (replacing any installed before). False when a ``.qm`` is missing:
    the studio then shows English, the source texts, rather than failing."""
    for translator in _installed:
        app.removeTranslator(translator)
    _installed.clear()
    locale = QLocale(language)
    locale.setNumberOptions(QLocale.NumberOption.DefaultNumberOptions)
    _locale[0] = locale
    texts.set_number_format(lambda value, decimals: locale.toString(float(value), "f", decimals))
    _language[0] = language
    QLocale.setDefault(locale)
    if language == DEFAULT_LANGUAGE:
        return True
    ours = QTranslator(app)
    loaded = ours.load(f"{CATALOGUE}_{language}", str(qm_dir()))
    if loaded:
        app.installTranslator(ours)
        _installed.append(ours)
    for name, folder in plugin_catalogues():
        theirs = QTranslator(app)
        if theirs.load(f"{name}_{language}", str(folder)):
            app.installTranslator(theirs)
            _installed.append(theirs)
    # Qt's own texts: the standard buttons (OK, Cancel), file dialogs, context menus of text fields.
    qt_base = QTranslator(app)
    if qt_base.load(f"qtbase_{language}", QLibraryInfo.path(QLibraryInfo.LibraryPath.TranslationsPath)):
        app.installTranslator(qt_base)
        _installed.append(qt_base)
    return loaded


def plugin_catalogues() -> list[tuple[str, Path]]:
    """``(name, folder)`` of each plug-in catalogue the entry points name; one that cannot be found is skipped
    (logged): a plug-in's texts must not stop the studio's."""
    found = []
    try:
        points = list(entry_points(group=TRANSLATIONS_GROUP))
    except Exception as error:  # a broken distribution's metadata
        logger.warning("Reading the %s entry points failed: %s", TRANSLATIONS_GROUP, error)
        return []
    for point in points:
        try:
            spec = importlib.util.find_spec(point.module)
        except (ImportError, ValueError) as error:
            logger.warning("Plug-in catalogue %s: %s", point.name, error)
            continue
        if spec is None or spec.origin is None:
            logger.warning("Plug-in catalogue %s: module %s not found", point.name, point.module)
            continue
        found.append((point.name, Path(spec.origin).parent))
    return found


def current_language() -> str:
    """The language installed last (English before any)."""
    return _language[0]


def current_locale() -> QLocale:
    """The locale of the installed language: numbers, dates and durations are formatted with it."""
    return _locale[0]
