#!/usr/bin/env bash
# End-to-end check of the Linux package, as root on Debian/Ubuntu:
#
#   build → apt-get install ./…deb → run the installed program (--bundle-check, --self-test offscreen: exit 0 and a
#   PNG) → upgrade to a newer package version and check the user's threads survived → dpkg -r → nothing left behind.
#
#   sudo packaging/check_deb.sh                 # builds first (python packaging/build.py)
#   sudo packaging/check_deb.sh --skip-build    # checks the newest dist/processor-studio_*.deb as it is
#
# It installs what the build needs when it is missing (binutils for strip/readelf, the system libraries the bundle
# links, which deb.py maps to the package's Depends), and the package itself with `apt-get install ./….deb`, which
# fetches the Depends as a double-click install does. CI (.ci/run) runs it after ./scripts/test. Exits non-zero at
# the first failed step; prints the measured figures (package size, installed size, times) at the end.
set -euo pipefail

cd "$(dirname "${BASH_SOURCE[0]}")/.."
ROOT=$PWD
APP=processor-studio
PYTHON=${PYTHON:-}
if [[ -z $PYTHON ]]; then
    if [[ -x .venv/bin/python ]]; then PYTHON=.venv/bin/python; else PYTHON=python3; fi
fi

step() { printf '\n===== check_deb: %s\n' "$*"; }
fail() { printf 'check_deb: FAIL: %s\n' "$*" >&2; exit 1; }
ok() { printf 'check_deb: ok   %s\n' "$*"; }

[[ $(id -u) -eq 0 ]] || fail "run as root (apt-get install, dpkg -r)"
skip_build=0
for arg in "$@"; do
    case $arg in
        --skip-build) skip_build=1 ;;
        *) fail "unknown argument $arg" ;;
    esac
done

work=$(mktemp -d /tmp/check-deb.XXXXXX)
cleanup() { rm -rf "$work"; }
trap cleanup EXIT
# The installed program runs as a user would, with its own home (its data folder, caches and config go there).
export HOME=$work/home XDG_DATA_HOME=$work/home/.local/share XDG_CONFIG_HOME=$work/home/.config
export XDG_CACHE_HOME=$work/home/.cache XDG_RUNTIME_DIR=$work/runtime QT_QPA_PLATFORM=offscreen
mkdir -p "$HOME" "$XDG_RUNTIME_DIR" && chmod 700 "$XDG_RUNTIME_DIR"
unset PROCESSOR_STUDIO_DATA

# Everything the package may touch, to compare before install and after removal.
snapshot() {
    find /opt /usr/bin /usr/share/applications /usr/share/icons/hicolor /usr/share/doc -path '*/__pycache__' -prune -o \
        \( -name "*$APP*" -o -path "/opt/$APP*" \) -print 2>/dev/null | sort
}

# What the build needs from the system: strip and readelf (binutils), Python's shared library (PyInstaller bundles
# it), and every library the bundle links, so that deb.py finds the Debian package of each (dpkg -S) for Depends.
BUILD_PACKAGES=(binutils "libpython$("$PYTHON" -c 'import sys; print("%d.%d" % sys.version_info[:2])')"
    libgl1 libegl1 libfontconfig1 libglib2.0-0 libxkbcommon0 libdbus-1-3 fonts-dejavu-core
    libx11-6 libx11-xcb1 libxcb1 libxcb-cursor0 libxcb-icccm4 libxcb-image0 libxcb-keysyms1
    libxcb-randr0 libxcb-render-util0 libxcb-render0 libxcb-shape0 libxcb-shm0 libxcb-sync1
    libxcb-util1 libxcb-xfixes0 libxcb-xkb1 libxcb-glx0 libxkbcommon-x11-0
    libwayland-client0 libwayland-cursor0 libwayland-egl1 libfreetype6 libpng16-16 libsqlite3-0
    libssl3 libffi8 libbz2-1.0 liblzma5 zlib1g)
seconds_since() { awk "BEGIN { printf \"%.0f\", $(date +%s.%N) - $1 }"; }
check_started=$(date +%s.%N)

# ---------------------------------------------------------------------------------------------------- build
if ((skip_build == 0)); then
    step "build tools"
    missing=()
    for name in "${BUILD_PACKAGES[@]}"; do
        dpkg-query -W -f='${db:Status-Abbrev}' "$name" 2>/dev/null | grep -q '^ii' || missing+=("$name")
    done
    if ((${#missing[@]})); then
        echo "check_deb: installing what the build needs: ${missing[*]}"
        apt-get update -q && DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends "${missing[@]}" ||
            fail "could not install ${missing[*]}"
    fi
    ok "build tools and libraries installed"
    step "build (python packaging/build.py)"
    build_started=$(date +%s.%N)
    "$PYTHON" packaging/build.py || fail "the build failed (packaging/build.py exit $?)"
    build_seconds=$(seconds_since "$build_started")
    ok "built in $build_seconds s"
fi
deb=$(ls -t dist/${APP}_*.deb 2>/dev/null | grep -v '+check' | head -1 || true)
[[ -n $deb ]] || fail "no dist/${APP}_*.deb (run without --skip-build)"
version=$(dpkg-deb -f "$deb" Version)
ok "package $deb (version $version, $(du -h "$deb" | cut -f1))"

# ---------------------------------------------------------------------------------------------------- install
step "apt-get install ./$(basename "$deb")"
if dpkg-query -W -f='${Status}' "$APP" 2>/dev/null | grep -q 'install ok installed'; then
    echo "check_deb: removing the installed $APP first"
    dpkg -r "$APP" >/dev/null
fi
before=$(snapshot)
[[ -z $before ]] || fail "files of $APP exist before installing: $before"
# What a user does (and a double-click install: GNOME Software): apt installs the package and whatever of its
# Depends is missing.
apt-get update -q >/dev/null || fail "apt-get update failed"
DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends "$ROOT/$deb" ||
    fail "apt-get install ./$(basename "$deb") failed"
installed_kib=$(du -sk /opt/$APP | cut -f1)
installed_h=$(du -sh /opt/$APP | cut -f1)
ok "installed under /opt/$APP: $installed_h"

launcher=$(command -v $APP) || fail "$APP is not on the PATH"
[[ $launcher == /usr/bin/$APP ]] || fail "launcher is $launcher, expected /usr/bin/$APP"
[[ -f /usr/share/applications/$APP.desktop ]] || fail "no desktop entry"
grep -q "^Exec=$APP" /usr/share/applications/$APP.desktop || fail "desktop entry does not run $APP"
[[ -f /usr/share/icons/hicolor/scalable/apps/$APP.svg ]] || fail "no scalable icon"
[[ -f /usr/share/icons/hicolor/256x256/apps/$APP.png ]] || fail "no 256 px icon"
ok "launcher $launcher, desktop entry, icons"

# ---------------------------------------------------------------------------------------------------- run it
step "$APP --bundle-check (installed)"
# LD_DEBUG=files logs every shared library the process loads: importing litellm loads its Rust extension
# (litellm/rust_bridge/_native), which the bundle check must show and the self-test below must not.
(cd "$work" && LD_DEBUG=files LD_DEBUG_OUTPUT=$work/ld-check $APP --bundle-check) ||
    fail "bundle check of the installed program failed"
grep -qs 'rust_bridge/_native' "$work"/ld-check.* || fail "LD_DEBUG did not show litellm being loaded by the check"

step "$APP --self-test (installed, offscreen)"
data=$work/data
shot=$work/self-test.png
startup=()
cpus=()  # the process's CPU time to the window: the figure to compare when the machine is busy (wall is waiting)
for run in 1 2 3; do
    rm -f "$shot"
    started=$(date +%s.%N)
    out=$(cd "$work" && $APP --self-test "$shot" --data-dir "$data" --print-startup-time 2>&1) || {
        echo "$out"; fail "self-test run $run exited non-zero"; }
    ended=$(date +%s.%N)
    ((run > 1)) || echo "$out"
    [[ -s $shot ]] || fail "self-test run $run wrote no screenshot"
    head -c 8 "$shot" | od -An -tx1 | grep -q '89 50 4e 47' || fail "the screenshot is not a PNG"
    seconds=$(sed -n 's/^startup: window shown \([0-9.]*\) s.*/\1/p' <<<"$out")
    [[ -n $seconds ]] || fail "no 'startup: window shown … s' line"
    startup+=("$seconds")
    cpu=$(sed -n 's/^startup: window shown [0-9.]* s after launch (CPU \([0-9.]*\) s).*/\1/p' <<<"$out")
    cpus+=("${cpu:-?}")
    printf 'check_deb: ok   run %s: exit 0, screenshot %s bytes, window shown %s s after launch (CPU %s s), whole self-test %.1f s\n' \
        "$run" "$(stat -c %s "$shot")" "$seconds" "${cpu:-?}" "$(awk "BEGIN { print $ended - $started }")"
done
cp "$shot" "$ROOT/dist/self-test-installed.png"

step "litellm is not loaded at start-up (nor by the offline self-test)"
(cd "$work" && LD_DEBUG=files LD_DEBUG_OUTPUT=$work/ld-app $APP --self-test "$shot" --data-dir "$work/data-ld" \
    >/dev/null 2>&1) || fail "self-test under LD_DEBUG failed"
! grep -qs 'rust_bridge/_native' "$work"/ld-app.* || fail "the app loaded litellm during start-up or the self-test"
ok "no litellm library loaded (the bundle check above did load it, so the probe works)"

threads() {  # thread ids in the data folder's database, one per line
    "$PYTHON" - "$data/studio.db" <<'PY'
import sqlite3, sys
for (thread_id,) in sqlite3.connect(sys.argv[1]).execute("SELECT id FROM threads ORDER BY id"):
    print(thread_id)
PY
}
row_counts() {  # "table rows" for every table of the data folder's database
    "$PYTHON" - "$data/studio.db" <<'PY'
import sqlite3, sys
db = sqlite3.connect(sys.argv[1])
for (table,) in db.execute("SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name"):
    print(table, db.execute(f'SELECT count(*) FROM "{table}"').fetchone()[0])
PY
}
threads_before=$(threads)
[[ -n $threads_before ]] || fail "the self-test saved no thread in $data"
counts_before=$(row_counts)
ok "$(wc -l <<<"$threads_before") threads saved in $data/studio.db; rows: $(tr '\n' ' ' <<<"$counts_before")"

step "nothing written next to the program"
extra=$(comm -13 <(dpkg -L $APP | sort) <(find /opt/$APP | sort))
[[ -z $extra ]] || fail "files in /opt/$APP that the package did not install: $(head -5 <<<"$extra")"
ok "every file under /opt/$APP belongs to the package"

# ---------------------------------------------------------------------------------------------------- upgrade
step "upgrade to $version+check1 keeps the user's threads and designs"
"$PYTHON" packaging/deb.py --bundle /opt/$APP --out "$work" --work "$work/deb" --version "$version+check1" --no-tarball --fast
dpkg -i "$work/${APP}_$version+check1_"*.deb
[[ $(dpkg-query -W -f='${Version}' $APP) == "$version+check1" ]] || fail "the upgrade did not install"
(cd "$work" && $APP --self-test "$shot" --data-dir "$data" >/dev/null 2>&1) || fail "self-test after the upgrade failed"
threads_after=$(threads)
missing=$(comm -23 <(echo "$threads_before") <(echo "$threads_after"))
[[ -z $missing ]] || fail "threads lost in the upgrade: $missing"
(($(wc -l <<<"$threads_after") > $(wc -l <<<"$threads_before"))) || fail "the upgraded app saved no new thread"
counts_after=$(row_counts)
while read -r table rows; do
    now=$(awk -v t="$table" '$1 == t {print $2}' <<<"$counts_after")
    [[ -n $now && $now -ge $rows ]] || fail "table $table had $rows rows before the upgrade, ${now:-none} after"
done <<<"$counts_before"
ok "all $(wc -l <<<"$threads_before") earlier threads kept, $(($(wc -l <<<"$threads_after") - $(wc -l <<<"$threads_before"))) new; no table lost rows ($(tr '\n' ' ' <<<"$counts_after"))"

# ---------------------------------------------------------------------------------------------------- remove
step "dpkg -r"
dpkg -r $APP
status=$(dpkg-query -W -f='${db:Status-Abbrev}' $APP 2>/dev/null || true)
[[ $status != ii* ]] || fail "still installed after dpkg -r ($status)"
[[ ! -e /opt/$APP ]] || fail "/opt/$APP is left behind: $(find /opt/$APP | head -5)"
[[ ! -e /usr/bin/$APP ]] || fail "/usr/bin/$APP is left behind"
[[ ! -e /usr/share/applications/$APP.desktop ]] || fail "the desktop entry is left behind"
after=$(snapshot)
[[ -z $after ]] || fail "left behind after dpkg -r: $after"
dpkg --purge $APP >/dev/null 2>&1 || true
ok "removed: no /opt/$APP, no launcher, no desktop entry or icon"
[[ -d $data ]] && ok "the user's data folder is untouched by the removal ($(du -sh "$data" | cut -f1))"

# ---------------------------------------------------------------------------------------------------- figures
sorted=$(printf '%s\n' "${startup[@]}" | sort -n)
printf '\n===== check_deb: passed\n'
printf 'package:         %s (%s)\n' "$deb" "$(du -h "$deb" | cut -f1)"
printf 'installed size:  %s (%s KiB) in /opt/%s\n' "$installed_h" "$installed_kib" "$APP"
printf 'launch → window: %s s (3 runs: %s)\n' "$(sed -n 2p <<<"$sorted")" "$(echo ${startup[*]})"
printf 'CPU to window:   %s s (3 runs: %s)\n' "$(printf '%s\n' "${cpus[@]}" | sort -n | sed -n 2p)" "$(echo ${cpus[*]})"
printf 'time:            %s s in all%s (load: %s)\n' "$(seconds_since "$check_started")" \
    "${build_seconds:+, of which the build $build_seconds s}" "$(cut -d' ' -f1-3 /proc/loadavg)"
