"""Release metadata derived from one source of truth: the tag check, the macOS minimum, the Windows version file."""

import plistlib
import subprocess
import sys
import types
from pathlib import Path

import build_info
import pytest

PACKAGING = Path(build_info.__file__).resolve().parent


def test_a_tag_naming_the_pyproject_version_passes() -> None:
    assert build_info.tag_mismatch(f"v{build_info.version()}") is None


@pytest.mark.parametrize("tag", ["v9.9.9", build_info.version(), "v" + build_info.version() + "-rc1"])
def test_a_tag_naming_another_version_is_refused_with_the_fix(tag: str) -> None:
    problem = build_info.tag_mismatch(tag)
    assert problem is not None
    assert repr(tag) in problem and repr(build_info.version()) in problem
    assert f"'v{build_info.version()}'" in problem  # says which tag would be right


def test_the_release_workflow_stops_on_a_mismatched_tag() -> None:
    """What the workflow's first job runs: exit 1 with the reason, or 0."""
    script = str(PACKAGING / "build_info.py")
    bad = subprocess.run([sys.executable, script, "--check-tag", "v9.9.9"], capture_output=True, text=True)
    good = subprocess.run(
        [sys.executable, script, "--check-tag", f"v{build_info.version()}"], capture_output=True, text=True
    )
    assert bad.returncode == 1 and "does not match the version in pyproject.toml" in bad.stderr
    assert good.returncode == 0 and "matches" in good.stdout


@pytest.mark.parametrize(
    ("tags", "expected"),
    [
        (["cp39-abi3-macosx_13_0_universal2"], "13.0"),
        (["cp39-abi3-macosx_11_0_arm64", "cp39-abi3-macosx_13_0_x86_64"], "13.0"),  # the strictest wins
        (["cp39-abi3-macosx_14_2_universal2", "cp39-abi3-manylinux_2_28_x86_64"], "14.2"),
        (["cp39-abi3-manylinux_2_28_x86_64"], build_info.MACOS_MINIMUM_FALLBACK),  # no macOS tag: the fallback
    ],
)
def test_the_macos_minimum_comes_from_the_qt_wheel_tags(tags: list[str], expected: str) -> None:
    assert build_info.macos_minimum_version(tags) == expected


def test_the_macos_minimum_is_never_below_what_pyside6_6_11_needs() -> None:
    """PySide6 6.11.3 ships macOS wheels for 13.0 and later: the app must not claim to run on macOS 12."""
    major, minor = (int(part) for part in build_info.macos_minimum_version().split("."))
    assert (major, minor) >= (13, 0)


def test_the_windows_version_resource_parses_as_pyinstaller_reads_it(tmp_path: Path, monkeypatch) -> None:
    # PyInstaller's parser imports Windows-only modules at import time; it uses neither to parse the text.
    monkeypatch.setitem(sys.modules, "pefile", types.ModuleType("pefile"))
    import PyInstaller.compat

    monkeypatch.setattr(PyInstaller.compat, "win32api", None, raising=False)
    from PyInstaller.utils.win32.versioninfo import load_version_info_from_text_file

    path = build_info.windows_version_file(tmp_path)
    info = load_version_info_from_text_file(str(path))
    numbers = tuple(int(part) for part in build_info.windows_version().split("."))
    assert info.ffi.fileVersionMS == (numbers[0] << 16) | numbers[1]
    assert info.ffi.fileVersionLS == (numbers[2] << 16) | numbers[3]
    strings = {entry.name: entry.val for entry in info.kids[0].kids[0].kids}
    assert strings["ProductVersion"] == build_info.version()
    assert strings["OriginalFilename"] == "processor-studio.exe"
    assert len(info.toRaw()) > 0  # serialises into the resource PyInstaller embeds


def test_the_entitlements_file_is_a_valid_plist() -> None:
    with (PACKAGING / "macos" / "entitlements.plist").open("rb") as handle:
        entitlements = plistlib.load(handle)
    assert entitlements["com.apple.security.cs.allow-unsigned-executable-memory"] is True
