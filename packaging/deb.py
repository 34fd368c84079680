"""Package the Linux bundle (``dist/processor-studio/``) as a ``.deb`` and a ``.tar.gz``, offline.

    python packaging/deb.py [--bundle dist/processor-studio] [--out dist]     (build.py calls this on Linux)

The ``.deb`` installs

- the bundle under ``/opt/processor-studio/`` (the program never writes there: user data goes to the user data
  folder, ``studio/system/paths.py``),
- the launcher ``/usr/bin/processor-studio`` (a symlink; PyInstaller's bootloader finds its folder through
  ``/proc/self/exe``),
- the desktop entry ``/usr/share/applications/processor-studio.desktop`` and the icon in the hicolor theme
  (SVG plus 48 to 512 px PNGs),

and removes all of it with ``dpkg -r`` (dpkg owns every file; the maintainer scripts only refresh the desktop
and icon caches). ``Depends`` is computed, like ``dpkg-shlibdeps`` does: every shared library the bundle's ELF
files need that the bundle does not carry is looked up with ``ldconfig -p`` and ``dpkg -S``, plus the libraries
Qt opens at run time (``libGL``, ``libEGL``) and a font. The ``.tar.gz`` holds the same bundle with the desktop
entry and icon, for other distributions (its README lists the same system packages).

Built with ``dpkg-deb --root-owner-group -Zxz --build``: no fakeroot, no network.
"""

from __future__ import annotations

import argparse
import io
import os
import platform
import re
import shutil
import subprocess
import sys
import tarfile
import textwrap
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from build_info import APP_ID, APP_NAME, DESCRIPTION, HOMEPAGE, MAINTAINER, ROOT, SUMMARY, version

PACKAGE = APP_ID
INSTALL_DIR = f"/opt/{APP_ID}"
LINUX_DIR = Path(__file__).resolve().parent / "linux"
ICON_SVG = ROOT / "resources" / "icons" / f"{APP_ID}.svg"
ICON_SIZES = (48, 128, 256, 512)

#: Loaded with dlopen (so not in any NEEDED list) or not a library: Qt's OpenGL/EGL dispatch and a font
#: (without one Qt draws every glyph as a box).
EXTRA_DEPENDS = (
    "libgl1",
    "libegl1",
    "fonts-dejavu-core | fonts-liberation2 | fonts-freefont-ttf",
    # Chinese (the studio ships Simplified and Traditional Chinese): without a CJK font every character is a box.
    "fonts-noto-cjk | fonts-wqy-microhei | fonts-wqy-zenhei",
)
#: Debian packages of libraries the bundle may need that a headless build machine often lacks (used only when
#: ``ldconfig``/``dpkg -S`` cannot say; the names are the same on Debian 12 and Ubuntu 22.04/24.04).
KNOWN_PACKAGES = {
    "libwayland-client.so.0": "libwayland-client0",
    "libwayland-cursor.so.0": "libwayland-cursor0",
    "libwayland-egl.so.1": "libwayland-egl1",
    "libxcb-cursor.so.0": "libxcb-cursor0",
    "libxcb-icccm.so.4": "libxcb-icccm4",
    "libxcb-image.so.0": "libxcb-image0",
    "libxcb-keysyms.so.1": "libxcb-keysyms1",
    "libxcb-render-util.so.0": "libxcb-render-util0",
    "libxcb-shape.so.0": "libxcb-shape0",
    "libxkbcommon-x11.so.0": "libxkbcommon-x11-0",
}
#: Shared libraries of the C library itself: covered by the libc6 (>= build version) dependency.
LIBC_SONAMES = re.compile(r"^(libc|libm|libdl|libpthread|librt|libutil|libresolv|libanl|ld-linux.*)\.so")


def say(message: str) -> None:
    print(f"deb: {message}", flush=True)


# ------------------------------------------------------------------------------------------- dependencies
def _is_elf(path: Path) -> bool:
    try:
        with path.open("rb") as handle:
            return handle.read(4) == b"\x7fELF"
    except OSError:
        return False


def needed_sonames(bundle: Path) -> dict[str, set[str]]:
    """soname → the bundle files that need it (from ``readelf -d``'s NEEDED entries)."""
    needs: dict[str, set[str]] = {}
    for path in bundle.rglob("*"):
        if path.is_symlink() or not path.is_file() or not _is_elf(path):
            continue
        output = subprocess.run(["readelf", "-d", str(path)], capture_output=True, text=True, check=True).stdout
        for soname in re.findall(r"\(NEEDED\)\s+Shared library: \[([^\]]+)\]", output):
            needs.setdefault(soname, set()).add(str(path.relative_to(bundle)))
    return needs


def system_library_paths() -> dict[str, str]:
    """soname → path, for this machine's architecture (``ldconfig -p``)."""
    machine = platform.machine()
    arch_tag = {"x86_64": "x86-64", "aarch64": "AArch64"}.get(machine, machine)
    output = subprocess.run(["ldconfig", "-p"], capture_output=True, text=True, check=True).stdout
    paths: dict[str, str] = {}
    for name, flags, path in re.findall(r"^\s*(\S+) \(([^)]*)\) => (\S+)$", output, flags=re.M):
        if arch_tag in flags or "," not in flags:
            paths.setdefault(name, path)
    return paths


def owning_package(path: str) -> str | None:
    """The Debian package that installed ``path`` (trying the path with /usr merged and unmerged)."""
    candidates = [path, os.path.realpath(path)]
    for candidate in list(candidates):
        if candidate.startswith("/usr/lib/"):
            candidates.append(candidate[len("/usr") :])
        elif candidate.startswith("/lib/"):
            candidates.append("/usr" + candidate)
    for candidate in dict.fromkeys(candidates):
        result = subprocess.run(["dpkg", "-S", candidate], capture_output=True, text=True)
        if result.returncode == 0:
            return result.stdout.split(":", 1)[0].strip()
    return None


def package_version(package: str) -> str:
    return subprocess.run(
        ["dpkg-query", "-W", "-f=${Version}", package], capture_output=True, text=True, check=True
    ).stdout.strip()


def compute_depends(bundle: Path) -> tuple[list[str], dict[str, list[str]]]:
    """The ``Depends`` list, and the sonames behind each package (for the build log and README)."""
    bundled = {path.name for path in bundle.rglob("*")}
    needs = needed_sonames(bundle)
    system = system_library_paths()
    packages: dict[str, list[str]] = {}
    unresolved: list[str] = []
    for soname in sorted(needs):
        if soname in bundled or LIBC_SONAMES.match(soname):
            continue
        path = system.get(soname)
        package = (owning_package(path) if path else None) or KNOWN_PACKAGES.get(soname)
        if package is None:
            unresolved.append(f"{soname} (needed by {', '.join(sorted(needs[soname])[:3])})")
            continue
        packages.setdefault(package, []).append(soname)
    if unresolved:
        raise SystemExit(
            "deb: the bundle needs libraries that are neither in it nor installed here, so their "
            "Debian packages are unknown (a dropped Qt library? see QT_LIBS_DROPPED in the spec; or "
            "install them and build again):\n  " + "\n  ".join(unresolved)
        )
    libc = package_version("libc6").split("-")[0].split("+")[0]
    depends = [f"libc6 (>= {libc})", *sorted(packages), *(d for d in EXTRA_DEPENDS if d not in packages)]
    return depends, packages


# ------------------------------------------------------------------------------------------- staging
def _copy_bundle(bundle: Path, target: Path) -> None:
    shutil.copytree(bundle, target, symlinks=True)
    for path in [target, *target.rglob("*")]:  # dpkg installs the modes it finds: make them uniform
        if path.is_symlink():
            continue
        if path.is_dir():
            path.chmod(0o755)
        else:
            executable = path.stat().st_mode & 0o111 or path.suffix == ".so" or ".so." in path.name
            path.chmod(0o755 if executable else 0o644)


def _write(path: Path, text: str, mode: int = 0o644) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")
    path.chmod(mode)


def _install_desktop_files(root: Path, icons: Path) -> None:
    """The desktop entry and the hicolor icons under ``root/usr/share``."""
    share = root / "usr" / "share"
    desktop = (LINUX_DIR / f"{APP_ID}.desktop").read_text(encoding="utf-8")
    _write(share / "applications" / f"{APP_ID}.desktop", desktop)
    scalable = share / "icons" / "hicolor" / "scalable" / "apps" / f"{APP_ID}.svg"
    scalable.parent.mkdir(parents=True, exist_ok=True)
    shutil.copyfile(ICON_SVG, scalable)
    for size in ICON_SIZES:
        target = share / "icons" / "hicolor" / f"{size}x{size}" / "apps" / f"{APP_ID}.png"
        target.parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(icons / f"{APP_ID}-{size}.png", target)
    for path in share.rglob("*"):
        path.chmod(0o755 if path.is_dir() else 0o644)


def _installed_size_kib(root: Path) -> int:
    total = 0
    for path in root.rglob("*"):
        if "DEBIAN" in path.relative_to(root).parts[:1]:
            continue
        total += path.lstat().st_size if path.is_symlink() or path.is_file() else 0
    return (total + 1023) // 1024


CONTROL = """Package: {package}
Version: {version}
Architecture: {arch}
Maintainer: {maintainer}
Installed-Size: {installed_size}
Depends: {depends}
Section: devel
Priority: optional
{homepage}Description: {summary}
{description}
"""

REFRESH_CACHES = """\
    if command -v update-desktop-database >/dev/null 2>&1; then
        update-desktop-database -q /usr/share/applications || true
    fi
    if command -v gtk-update-icon-cache >/dev/null 2>&1; then
        gtk-update-icon-cache -q -t -f /usr/share/icons/hicolor || true
    fi
"""

POSTINST = f"""#!/bin/sh
# Refresh the menus' view of the desktop entry and the icon theme (both optional tools).
set -e
if [ "$1" = "configure" ]; then
{REFRESH_CACHES}fi
exit 0
"""

POSTRM = f"""#!/bin/sh
# dpkg has removed every file of the package; refresh the caches that listed them. User data (threads, designs)
# lives in each user's data folder (~/.local/share/ProcessorStudio) and is never removed by the package.
set -e
if [ "$1" = "remove" ] || [ "$1" = "purge" ]; then
{REFRESH_CACHES}fi
exit 0
"""

COPYRIGHT = """Format: https://www.debian.org/doc/packaging-manuals/copyright-format/1.0/
Upstream-Name: {name}
Source: {homepage}
Comment: The program in /opt/{package} is a PyInstaller bundle of Processor Studio with its Python
 dependencies, Qt and data files, each under its own licence: the list and the licence texts follow
 (resources/licences/THIRD-PARTY-NOTICES.txt, generated by packaging/licences.py).
 .
"""

NOTICES = ROOT / "resources" / "licences" / "THIRD-PARTY-NOTICES.txt"


def copyright_text(name: str, homepage: str, package: str) -> str:
    """Debian's copyright file: the header, then the generated notices as the Comment's continuation lines."""
    notices = NOTICES.read_text(encoding="utf-8").splitlines()
    body = "".join(f" {line}\n" if line.strip() else " .\n" for line in notices)
    return COPYRIGHT.format(name=name, homepage=homepage, package=package) + body


def debian_arch() -> str:
    return subprocess.run(["dpkg", "--print-architecture"], capture_output=True, text=True, check=True).stdout.strip()


def build_deb(bundle: Path, out: Path, icons: Path, work: Path, ver: str | None = None, fast: bool = False) -> Path:
    """Stage and build the .deb; ``fast`` compresses with gzip -1 (for throw-away test packages)."""
    ver = ver or version()
    arch = debian_arch()
    root = work / f"{PACKAGE}_{ver}_{arch}"
    if root.exists():
        shutil.rmtree(root)
    say(f"staging {root}")
    _copy_bundle(bundle, root / INSTALL_DIR.lstrip("/"))
    launcher = root / "usr" / "bin" / APP_ID
    launcher.parent.mkdir(parents=True)
    launcher.symlink_to(f"{INSTALL_DIR}/{APP_ID}")
    _install_desktop_files(root, icons)
    _write(
        root / "usr" / "share" / "doc" / PACKAGE / "copyright",
        copyright_text(APP_NAME, HOMEPAGE or "(not published)", PACKAGE),
    )
    for folder in (root / "usr", root / "usr" / "bin", root / "opt"):
        folder.chmod(0o755)

    depends, by_package = compute_depends(bundle)
    for package, sonames in sorted(by_package.items()):
        say(f"depends on {package:24} for {', '.join(sonames)}")
    description = "\n".join(f" {line}" if line.strip() else " ." for line in DESCRIPTION.strip().splitlines())
    debian = root / "DEBIAN"
    _write(
        debian / "control",
        CONTROL.format(
            package=PACKAGE,
            version=ver,
            arch=arch,
            maintainer=MAINTAINER,
            installed_size=_installed_size_kib(root),
            depends=", ".join(depends),
            homepage=f"Homepage: {HOMEPAGE}\n" if HOMEPAGE else "",
            summary=SUMMARY,
            description=description,
        ),
    )
    _write(debian / "postinst", POSTINST, 0o755)
    _write(debian / "postrm", POSTRM, 0o755)
    debian.chmod(0o755)

    target = out / f"{PACKAGE}_{ver}_{arch}.deb"
    started = time.perf_counter()
    compression = ["-Zgzip", "-z1"] if fast else ["-Zxz"]
    subprocess.run(
        ["dpkg-deb", "--root-owner-group", *compression, "--build", str(root), str(target)],
        check=True,
        stdout=subprocess.DEVNULL,
    )
    say(
        f"built {target} ({target.stat().st_size / 1e6:.0f} MB, {time.perf_counter() - started:.0f} s); "
        f"Installed-Size {_installed_size_kib(root) / 1024:.0f} MiB"
    )
    shutil.rmtree(root)
    return target


TARBALL_README = """{name} {version} for Linux ({arch})

Run it in place:            ./{package}/{package}
Install for your user:      ./install.sh          (a launcher in ~/.local/bin, a menu entry and icon)
Uninstall:                  ./install.sh --uninstall

It needs these system packages (Debian/Ubuntu names; most desktops have them):
  {depends}

Debian and Ubuntu users: prefer the .deb package; `sudo apt install ./{package}_{version}_*.deb` installs
them for you.
Your threads and designs are kept in ~/.local/share/ProcessorStudio, never in this folder.
"""

INSTALL_SH = """#!/bin/sh
# Install (or with --uninstall remove) Processor Studio for the current user from this unpacked folder.
set -eu
here=$(cd "$(dirname "$0")" && pwd)
data=${{XDG_DATA_HOME:-$HOME/.local/share}}
bin=$HOME/.local/bin
if [ "${{1:-}}" = "--uninstall" ]; then
    rm -f "$bin/{app}" "$data/applications/{app}.desktop" "$data/icons/hicolor/scalable/apps/{app}.svg"
    echo "Removed the launcher, menu entry and icon (this folder and your data are untouched)."
    exit 0
fi
mkdir -p "$bin" "$data/applications" "$data/icons/hicolor/scalable/apps"
ln -sf "$here/{app}/{app}" "$bin/{app}"
cp "$here/{app}.svg" "$data/icons/hicolor/scalable/apps/{app}.svg"
sed -e "s|^Exec=.*|Exec=$here/{app}/{app}|" -e "s|^TryExec=.*|TryExec=$here/{app}/{app}|" \
    "$here/{app}.desktop" > "$data/applications/{app}.desktop"
echo "Installed: run '{app}' or pick Processor Studio from the applications menu."
"""


def build_tarball(bundle: Path, out: Path, depends: list[str]) -> Path:
    ver = version()
    arch = platform.machine()
    top = f"{PACKAGE}-{ver}-linux-{arch}"
    target = out / f"{top}.tar.gz"
    names = " ".join(d.split(" ")[0] for d in depends)
    readme = TARBALL_README.format(
        name=APP_NAME,
        version=ver,
        arch=arch,
        package=PACKAGE,
        depends=textwrap.fill(names, 100, subsequent_indent="  "),
    )
    started = time.perf_counter()

    def add_text(archive: tarfile.TarFile, name: str, text: str, mode: int = 0o644) -> None:
        data = text.encode()
        info = tarfile.TarInfo(f"{top}/{name}")
        info.size, info.mode, info.mtime = len(data), mode, int(time.time())
        archive.addfile(info, io.BytesIO(data))

    def owner(info: tarfile.TarInfo) -> tarfile.TarInfo:
        info.uid = info.gid = 0
        info.uname = info.gname = "root"
        return info

    with tarfile.open(target, "w:gz", compresslevel=6) as archive:
        archive.add(bundle, arcname=f"{top}/{PACKAGE}", filter=owner)
        archive.add(ICON_SVG, arcname=f"{top}/{APP_ID}.svg", filter=owner)
        archive.add(LINUX_DIR / f"{APP_ID}.desktop", arcname=f"{top}/{APP_ID}.desktop", filter=owner)
        add_text(archive, "README.txt", readme)
        add_text(archive, "install.sh", INSTALL_SH.format(app=APP_ID), 0o755)
    say(f"built {target} ({target.stat().st_size / 1e6:.0f} MB, {time.perf_counter() - started:.0f} s)")
    return target


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="Package the Linux bundle as .deb and .tar.gz")
    parser.add_argument("--bundle", type=Path, default=ROOT / "dist" / APP_ID)
    parser.add_argument("--out", type=Path, default=ROOT / "dist")
    parser.add_argument("--icons", type=Path, default=ROOT / "build" / "icons")
    parser.add_argument("--work", type=Path, default=ROOT / "build" / "deb")
    parser.add_argument("--no-tarball", action="store_true")
    parser.add_argument("--version", help="package version (default: pyproject's); check_deb.sh makes an upgrade")
    parser.add_argument("--fast", action="store_true", help="gzip -1 instead of xz (test packages)")
    args = parser.parse_args(argv)
    if not (args.bundle / APP_ID).is_file():
        raise SystemExit(f"deb: no bundle at {args.bundle} (run packaging/build.py)")
    args.out.mkdir(parents=True, exist_ok=True)
    args.work.mkdir(parents=True, exist_ok=True)
    build_deb(args.bundle, args.out, args.icons, args.work, args.version, args.fast)
    if not args.no_tarball:
        depends, _ = compute_depends(args.bundle)
        build_tarball(args.bundle, args.out, depends)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
