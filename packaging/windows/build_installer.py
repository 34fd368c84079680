"""Windows: compile ``processor_studio.iss`` into ``dist/processor-studio-<version>-windows-x64-setup.exe``.

    python packaging/windows/build_installer.py [--iscc PATH]      (build.py runs this after PyInstaller)

Needs Inno Setup 6.3 or newer, or 7 (``choco install innosetup`` or https://jrsoftware.org/isdl.php); ``ISCC.exe``
is looked up in ``--iscc``, ``$ISCC``, the PATH and the default install folders. Cannot run on Linux or macOS:
the release workflow (``.github/workflows/release.yml``) runs it on a ``windows-latest`` runner.
"""

from __future__ import annotations

import argparse
import os
import shutil
import subprocess
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))

from build_info import APP_ID, ROOT, version, windows_version  # noqa: E402

#: Install folders of Inno Setup, newest first (7 installs beside 6, not over it).
ISCC_FOLDERS = ("Inno Setup 7", "Inno Setup 6")


def find_iscc(explicit: str | None) -> Path:
    candidates = [explicit, os.environ.get("ISCC"), shutil.which("ISCC.exe"), shutil.which("iscc")]
    for base in (
        os.environ.get("PROGRAMFILES(X86)"),
        os.environ.get("PROGRAMFILES"),
        os.environ.get("LOCALAPPDATA") and str(Path(os.environ["LOCALAPPDATA"]) / "Programs"),
    ):
        if base:
            candidates += [str(Path(base) / folder / "ISCC.exe") for folder in ISCC_FOLDERS]
    for candidate in candidates:
        if candidate and Path(candidate).is_file():
            return Path(candidate)
    raise SystemExit(
        "windows: ISCC.exe (Inno Setup 6.3+) not found; install it (choco install innosetup) or pass --iscc / set ISCC"
    )


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--iscc", help="path of ISCC.exe")
    parser.add_argument("--bundle", type=Path, default=ROOT / "dist" / APP_ID)
    parser.add_argument("--out", type=Path, default=ROOT / "dist")
    args = parser.parse_args(argv)
    if not (args.bundle / f"{APP_ID}.exe").is_file():
        raise SystemExit(f"windows: no bundle at {args.bundle} (run packaging/build.py)")
    icon = ROOT / "build" / "icons" / f"{APP_ID}.ico"
    if not icon.is_file():
        raise SystemExit(f"windows: {icon} missing (packaging/icons.py --out build/icons renders it)")
    command = [
        str(find_iscc(args.iscc)),
        "/Qp",
        f"/DAppVersion={version()}",
        f"/DFileVersion={windows_version()}",
        f"/DSourceDir={args.bundle.resolve()}",
        f"/DOutputDir={args.out.resolve()}",
        f"/DIconFile={icon.resolve()}",
        str(HERE / "processor_studio.iss"),
    ]
    print("windows:", " ".join(command), flush=True)
    subprocess.run(command, check=True)
    setup = args.out / f"{APP_ID}-{version()}-windows-x64-setup.exe"
    if not setup.is_file():
        raise SystemExit(f"windows: ISCC finished but {setup} is missing")
    print(f"windows: built {setup} ({setup.stat().st_size / 1e6:.0f} MB)", flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
