"""What the About dialog says: the studio's version, its data folder, and the bundled components' licences.

Read from the installed packages' metadata (``importlib.metadata``), so the list follows what is actually
installed or bundled, not a hand-kept copy: the studio's own requirements, each with its version and licence
(the ``License-Expression`` field, else a short ``License`` field, else the ``License ::`` classifier), and Qt
itself (its version from ``qVersion()``, under the LGPL as shipped by PySide6).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from importlib import metadata

from studio.texts import translate

__all__ = ["DISTRIBUTION", "Component", "bundled_components", "licence_of", "studio_version"]

#: The studio's own distribution name.
DISTRIBUTION = "processor-studio"


@dataclass(frozen=True, slots=True)
class Component:
    name: str
    version: str
    licence: str


def studio_version() -> str:
    try:
        return metadata.version(DISTRIBUTION)
    except metadata.PackageNotFoundError:  # run from a source tree that was never installed
        return "unknown (not installed)"


def licence_of(meta: metadata.PackageMetadata) -> str:
    """The licence a package declares, in a few words."""
    expression = _field(meta, "License-Expression")
    if expression:
        return expression
    text = _field(meta, "License").strip()
    if text and "\n" not in text and len(text) <= 60:
        return text
    for classifier in meta.get_all("Classifier") or []:
        if classifier.startswith("License ::"):
            return str(classifier).rsplit("::", 1)[-1].strip()
    if text:  # a whole licence text: its first line names it
        return text.splitlines()[0].strip()[:60]
    return "unknown"


def _field(meta: metadata.PackageMetadata, name: str) -> str:
    values = meta.get_all(name) or []
    return str(values[0]) if values else ""


def _requirements() -> list[str]:
    """The names of the studio's own (non-optional) requirements."""
    try:
        requires = metadata.requires(DISTRIBUTION) or []
    except metadata.PackageNotFoundError:
        return []
    names = []
    for requirement in requires:
        if "extra ==" in requirement:
            continue
        match = re.match(r"[A-Za-z0-9._-]+", requirement)
        if match:
            names.append(match.group(0))
    return names


def bundled_components(qt_version: str | None = None) -> list[Component]:
    """Qt and every installed requirement of the studio, with version and licence, sorted by name."""
    components: list[Component] = []
    if qt_version:
        shipped = translate("AboutDialog", "LGPL-3.0-only (as shipped by PySide6)")
        components.append(Component("Qt", qt_version, shipped))
    for name in _requirements():
        try:
            meta = metadata.metadata(name)
        except metadata.PackageNotFoundError:
            continue
        components.append(Component(str(meta["Name"]), str(meta["Version"]), licence_of(meta)))
    return sorted(components, key=lambda component: component.name.lower())
