#!/usr/bin/env bash
# macOS: put dist/Processor Studio.app (made by PyInstaller from packaging/processor_studio.spec, windowed) into
# dist/processor-studio-<version>-macos-<arch>.dmg, with an Applications link to drag it onto.
#
#   bash packaging/macos/build_dmg.sh        (python packaging/build.py runs it after PyInstaller on macOS)
#
# Uses only tools macOS ships (ditto, codesign, hdiutil). The app is signed ad hoc (PyInstaller does that; it is
# required on Apple silicon), not with a Developer ID, so the first start needs right-click → Open; signing and
# notarizing need an Apple Developer account (see packaging/README.md). Cannot run on Linux or Windows: the
# release workflow (.github/workflows/release.yml) runs it on a macos-latest runner.
set -euo pipefail

cd "$(dirname "${BASH_SOURCE[0]}")/../.."
PYTHON=${PYTHON:-python3}
app="dist/Processor Studio.app"
[[ -d $app ]] || { echo "macos: $app missing (run python packaging/build.py)" >&2; exit 1; }

version=$("$PYTHON" -c 'import sys; sys.path.insert(0, "packaging"); from build_info import version; print(version())')
arch=$(uname -m)
dmg="dist/processor-studio-${version}-macos-${arch}.dmg"
staging=build/dmg

rm -rf "$staging" "$dmg"
mkdir -p "$staging"
ditto "$app" "$staging/Processor Studio.app"
ln -s /Applications "$staging/Applications"

# The bundle must still carry a valid (ad hoc) signature after copying, or Apple silicon refuses to start it.
codesign --verify --deep --strict "$staging/Processor Studio.app" ||
    codesign --force --deep --sign - "$staging/Processor Studio.app"

# hdiutil fails now and then with "Resource busy" on CI runners (Spotlight or XProtect still holds the staging
# folder); a few spaced retries make that a delay instead of a failed release.
attempt=1
until hdiutil create -volname "Processor Studio" -srcfolder "$staging" -fs HFS+ -format UDZO -ov "$dmg"; do
    if ((attempt >= 5)); then
        echo "macos: hdiutil create failed $attempt times; giving up" >&2
        exit 1
    fi
    echo "macos: hdiutil create failed (attempt $attempt of 5); retrying in $((attempt * 5)) s" >&2
    sleep $((attempt * 5))
    attempt=$((attempt + 1))
done
hdiutil verify "$dmg"
rm -rf "$staging"
echo "macos: built $dmg ($(du -h "$dmg" | cut -f1))"
