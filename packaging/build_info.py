"""Names and metadata every packaging script shares, read from ``pyproject.toml`` (one source of truth)."""

from __future__ import annotations

import functools
import re
import tomllib
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
APP_ID = "processor-studio"  # package, executable, desktop entry and icon name
APP_NAME = "Processor Studio"
BUNDLE_ID = "org.processorstudio.ProcessorStudio"  # macOS bundle identifier
SUMMARY = "design LLM agents and test their guardrails by hand"
DESCRIPTION = """
A desktop app to design LLM agents and test their guardrails: put input, output and error processors
in a chain, chat with the agent, and watch what each processor passed, changed, dropped or aborted.
Works offline with a built-in demo model; talks to OpenAI, Anthropic, Gemini, Ollama and any other
provider litellm supports.
"""


@functools.cache
def project() -> dict[str, Any]:
    with (ROOT / "pyproject.toml").open("rb") as handle:
        data: dict[str, Any] = tomllib.load(handle)["project"]
    return data


def version() -> str:
    return str(project()["version"])


def windows_version() -> str:
    """``major.minor.patch.0`` for the Windows file version resource (numbers only)."""
    numbers = [int(part) for part in re.findall(r"\d+", version())[:3]]
    return ".".join(str(n) for n in [*numbers, 0, 0, 0][:4])


def windows_version_file(folder: Path | None = None) -> Path:
    """Write the Windows version resource PyInstaller embeds in ``processor-studio.exe`` and return its path.

    The text is PyInstaller's ``VSVersionInfo`` format (what ``pyi-grab_version`` prints), with the numeric file
    version from :func:`windows_version` and the product version from ``pyproject.toml``.
    """
    numbers = tuple(int(part) for part in windows_version().split("."))
    strings = {
        "CompanyName": f"{APP_NAME} developers",
        "FileDescription": APP_NAME,
        "FileVersion": windows_version(),
        "InternalName": APP_ID,
        "OriginalFilename": f"{APP_ID}.exe",
        "ProductName": APP_NAME,
        "ProductVersion": version(),
    }
    entries = ",\n            ".join(f"StringStruct({key!r}, {value!r})" for key, value in strings.items())
    text = f"""VSVersionInfo(
  ffi=FixedFileInfo(filevers={numbers}, prodvers={numbers}, mask=0x3f, flags=0x0, OS=0x40004,
                    fileType=0x1, subtype=0x0, date=(0, 0)),
  kids=[
    StringFileInfo([StringTable('040904B0', [
            {entries}])]),
    VarFileInfo([VarStruct('Translation', [1033, 1200])]),
  ],
)
"""
    folder = folder or ROOT / "build"
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / "windows-version.txt"
    path.write_text(text, encoding="utf-8")
    return path


#: The oldest macOS the app may claim when no PySide6 wheel tag can be read (PySide6-Essentials 6.11.3's wheels
#: are tagged ``macosx_13_0``: its Qt refuses older systems, so an older ``LSMinimumSystemVersion`` lets the app
#: start on macOS 12 and crash at load instead of being refused by the Finder).
MACOS_MINIMUM_FALLBACK = "13.0"


def macos_minimum_version(tags: list[str] | None = None) -> str:
    """The ``LSMinimumSystemVersion`` for the bundle: the highest macOS version the installed Qt wheels require.

    Read from the ``Tag:`` lines of the installed PySide6-Essentials and shiboken6 wheels (``cp39-abi3-
    macosx_13_0_universal2`` → ``13.0``), so upgrading PySide6 moves the minimum with it. ``tags`` is for tests.
    """
    if tags is None:
        tags = []
        from importlib.metadata import PackageNotFoundError, distribution

        for name in ("PySide6-Essentials", "shiboken6"):
            try:
                wheel = distribution(name).read_text("WHEEL") or ""
            except PackageNotFoundError:
                continue
            tags += [line.split(":", 1)[1].strip() for line in wheel.splitlines() if line.startswith("Tag:")]
    found = [(int(major), int(minor)) for major, minor in re.findall(r"macosx_(\d+)_(\d+)_", " ".join(tags))]
    if not found:
        return MACOS_MINIMUM_FALLBACK
    major, minor = max(found)
    return f"{major}.{minor}"


def _people(key: str) -> list[dict[str, str]]:
    return [person for person in project().get(key, []) if isinstance(person, dict)]


def maintainer() -> str:
    """``Name <email>`` from pyproject's maintainers or authors (a .deb must name one)."""
    for person in _people("maintainers") + _people("authors"):
        if person.get("email"):
            return f"{person.get('name', APP_NAME + ' maintainers')} <{person['email']}>"
    return f"{APP_NAME} maintainers <maintainers@processor-studio.invalid>"


def homepage() -> str | None:
    urls: dict[str, str] = project().get("urls", {})
    for key in ("Homepage", "homepage", "Source", "Repository"):
        if key in urls:
            return urls[key]
    return None


MAINTAINER = maintainer()
HOMEPAGE = homepage()


def tag_mismatch(tag: str) -> str | None:
    """Why a release tag does not name this version (``None`` when ``v<version>`` matches ``pyproject.toml``).

    A tag ``v0.2.0`` on a tree whose ``pyproject.toml`` says 0.1.0 would ship installers named 0.1.0 under a
    0.2.0 release; the release workflow stops before building instead.
    """
    expected = f"v{version()}"
    if tag == expected:
        return None
    return (
        f"the tag {tag!r} does not match the version in pyproject.toml ({version()!r}): tag the commit "
        f'{expected!r}, or set version = "{tag.removeprefix("v")}" in pyproject.toml and tag again'
    )


if __name__ == "__main__":
    import sys

    if len(sys.argv) != 3 or sys.argv[1] != "--check-tag":
        raise SystemExit("usage: python packaging/build_info.py --check-tag vX.Y.Z")
    problem = tag_mismatch(sys.argv[2])
    if problem:
        raise SystemExit(f"release: {problem}")
    print(f"release: the tag {sys.argv[2]} matches pyproject.toml")
