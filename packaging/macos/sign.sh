#!/usr/bin/env bash
# macOS: sign "dist/Processor Studio.app" with a Developer ID (before build_dmg.sh), or notarize and staple the
# .dmg (after it). Every step is skipped, with one log line saying why, when its secrets are absent, so the release
# workflow needs no edit the day a maintainer adds a certificate.
#
#   bash packaging/macos/sign.sh app       needs MACOS_CERTIFICATE (base64 .p12), MACOS_CERTIFICATE_PASSWORD,
#                                          MACOS_SIGNING_IDENTITY ("Developer ID Application: Name (TEAMID)")
#   bash packaging/macos/sign.sh dmg DMG   needs APPLE_ID, APPLE_TEAM_ID, APPLE_APP_PASSWORD (an app-specific
#                                          password) and an app signed by the step above
set -euo pipefail

cd "$(dirname "${BASH_SOURCE[0]}")/../.."
app="dist/Processor Studio.app"
entitlements="packaging/macos/entitlements.plist"

skip() { echo "macos sign: $* — skipped; the app keeps its ad hoc signature (users allow it once, see README)"; exit 0; }

sign_app() {
    [[ -n ${MACOS_CERTIFICATE:-} && -n ${MACOS_CERTIFICATE_PASSWORD:-} && -n ${MACOS_SIGNING_IDENTITY:-} ]] ||
        skip "no MACOS_CERTIFICATE / MACOS_CERTIFICATE_PASSWORD / MACOS_SIGNING_IDENTITY secrets"
    [[ -d $app ]] || { echo "macos sign: $app missing (run python packaging/build.py --bundle-only)" >&2; exit 1; }
    local work keychain password
    work=$(mktemp -d)
    keychain="$work/signing.keychain-db"
    password=$(uuidgen)
    trap 'security delete-keychain "$keychain" >/dev/null 2>&1 || true; rm -rf "$work"' EXIT
    printf '%s' "$MACOS_CERTIFICATE" | base64 --decode >"$work/certificate.p12"
    security create-keychain -p "$password" "$keychain"
    security set-keychain-settings -lut 3600 "$keychain"
    security unlock-keychain -p "$password" "$keychain"
    security import "$work/certificate.p12" -k "$keychain" -P "$MACOS_CERTIFICATE_PASSWORD" -T /usr/bin/codesign
    security set-key-partition-list -S apple-tool:,apple: -s -k "$password" "$keychain" >/dev/null
    security list-keychains -d user -s "$keychain" $(security list-keychains -d user | tr -d '"')
    # Hardened runtime (required for notarization) with the entitlements an embedded Python needs.
    codesign --force --deep --timestamp --options runtime --entitlements "$entitlements" \
        --keychain "$keychain" --sign "$MACOS_SIGNING_IDENTITY" "$app"
    codesign --verify --deep --strict --verbose=2 "$app"
    echo "macos sign: signed $app as $MACOS_SIGNING_IDENTITY"
}

notarize_dmg() {
    local dmg=$1
    [[ -n ${APPLE_ID:-} && -n ${APPLE_TEAM_ID:-} && -n ${APPLE_APP_PASSWORD:-} ]] ||
        skip "no APPLE_ID / APPLE_TEAM_ID / APPLE_APP_PASSWORD secrets (not notarized)"
    [[ -f $dmg ]] || { echo "macos sign: $dmg missing" >&2; exit 1; }
    codesign --verify --deep --strict "$app" 2>/dev/null && codesign -dv "$app" 2>&1 | grep -q "Authority=Developer ID" ||
        skip "the app has no Developer ID signature (Apple notarizes only signed apps)"
    xcrun notarytool submit "$dmg" --apple-id "$APPLE_ID" --team-id "$APPLE_TEAM_ID" \
        --password "$APPLE_APP_PASSWORD" --wait --timeout 30m
    xcrun stapler staple "$dmg"
    xcrun stapler validate "$dmg"
    echo "macos sign: notarized and stapled $dmg"
}

case "${1:-}" in
    app) sign_app ;;
    dmg) notarize_dmg "${2:?usage: sign.sh dmg FILE.dmg}" ;;
    *) echo "usage: sign.sh app | sign.sh dmg FILE.dmg" >&2; exit 2 ;;
esac
