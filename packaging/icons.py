"""Render the app icon from ``resources/icons/processor-studio.svg`` with Qt (no Pillow, no Inkscape).

    python packaging/icons.py --out build/icons   # write .ico (Windows), .icns (macOS) and sized PNGs there
    python packaging/icons.py --refresh-png       # after editing the SVG: rewrite the committed 256 px PNG

Qt's ``QSvgRenderer`` (QtSvg is part of PySide6-Essentials) paints the SVG into a transparent ``QImage`` at each
size. The Windows ``.ico`` and the macOS ``.icns`` are written by hand: both formats may hold PNG images
directly (ICO since Windows Vista; ICNS types ``ic07``…``ic10`` since macOS 10.5/10.7), so a few lines of
``struct`` replace an image library. ``build.py`` calls :func:`render_all` before PyInstaller runs.
"""

from __future__ import annotations

import argparse
import os
import struct
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
SVG = ROOT / "resources" / "icons" / "processor-studio.svg"
PNG = ROOT / "resources" / "icons" / "processor-studio.png"

ICO_SIZES = (16, 24, 32, 48, 64, 128, 256)
#: ICNS PNG-capable types: ic07 128, ic08 256, ic09 512, ic10 1024 (512@2x), ic11 32 (16@2x), ic12 64 (32@2x).
ICNS_TYPES = ((b"ic11", 32), (b"ic12", 64), (b"ic07", 128), (b"ic08", 256), (b"ic09", 512), (b"ic10", 1024))


def _app():  # type: ignore[no-untyped-def]
    os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
    from PySide6.QtGui import QGuiApplication

    return QGuiApplication.instance() or QGuiApplication(sys.argv[:1])


def render_png(size: int, svg: Path = SVG) -> bytes:
    """The SVG painted into a ``size`` by ``size`` transparent PNG."""
    from PySide6.QtCore import QBuffer, QByteArray, QIODevice
    from PySide6.QtGui import QImage, QPainter
    from PySide6.QtSvg import QSvgRenderer

    _app()
    renderer = QSvgRenderer(str(svg))
    if not renderer.isValid():
        raise SystemExit(f"icons: Qt cannot read {svg}")
    image = QImage(size, size, QImage.Format.Format_ARGB32_Premultiplied)
    image.fill(0)
    painter = QPainter(image)
    painter.setRenderHint(QPainter.RenderHint.Antialiasing)
    painter.setRenderHint(QPainter.RenderHint.SmoothPixmapTransform)
    renderer.render(painter)
    painter.end()
    data = QByteArray()
    buffer = QBuffer(data)
    buffer.open(QIODevice.OpenModeFlag.WriteOnly)
    if not image.save(buffer, "PNG"):
        raise SystemExit("icons: Qt could not encode a PNG")
    buffer.close()
    return bytes(data.data())


def ico(images: dict[int, bytes]) -> bytes:
    """An ICO file whose entries are PNG images (a width/height byte of 0 means 256)."""
    sizes = sorted(images)
    header = struct.pack("<HHH", 0, 1, len(sizes))
    offset = 6 + 16 * len(sizes)
    entries, blobs = b"", b""
    for size in sizes:
        blob = images[size]
        entries += struct.pack("<BBBBHHII", size % 256, size % 256, 0, 0, 1, 32, len(blob), offset + len(blobs))
        blobs += blob
    return header + entries + blobs


def icns(images: dict[bytes, bytes]) -> bytes:
    """An ICNS file of PNG elements (type, big-endian length including the 8-byte element header, data)."""
    body = b"".join(kind + struct.pack(">I", len(blob) + 8) + blob for kind, blob in images.items())
    return b"icns" + struct.pack(">I", len(body) + 8) + body


def render_all(out: Path | None = None, *, refresh_png: bool = False) -> dict[str, Path]:
    """Write ``processor-studio.ico``, ``.icns`` and sized PNGs into ``out``.

    A build never rewrites committed files (Qt's PNG encoder differs between versions and platforms, which left a
    modified ``resources/icons/processor-studio.png`` behind every release build): the committed PNG is rewritten
    only on request (``refresh_png``), after the SVG changed.
    """
    cache: dict[int, bytes] = {}

    def png(size: int) -> bytes:
        if size not in cache:
            cache[size] = render_png(size)
        return cache[size]

    written: dict[str, Path] = {}
    if refresh_png:
        PNG.write_bytes(png(256))
        written["png"] = PNG
    if out is not None:
        out.mkdir(parents=True, exist_ok=True)
        written["ico"] = out / "processor-studio.ico"
        written["ico"].write_bytes(ico({size: png(size) for size in ICO_SIZES}))
        written["icns"] = out / "processor-studio.icns"
        written["icns"].write_bytes(icns({kind: png(size) for kind, size in ICNS_TYPES}))
        for size in (48, 128, 256, 512):  # hicolor theme sizes for the .deb
            path = out / f"processor-studio-{size}.png"
            path.write_bytes(png(size))
            written[f"png{size}"] = path
    return written


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, help="write .ico, .icns and sized PNGs into this folder")
    parser.add_argument("--refresh-png", action="store_true", help=f"rewrite {PNG.relative_to(ROOT)} from the SVG")
    args = parser.parse_args()
    if args.out is None and not args.refresh_png:
        parser.error("nothing to do: give --out FOLDER and/or --refresh-png")
    for kind, path in render_all(args.out, refresh_png=args.refresh_png).items():
        print(f"icons: {kind:7} {path} ({path.stat().st_size} bytes)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
