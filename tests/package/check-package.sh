#!/usr/bin/env bash
# The package test: build the .deb with CPack from this build tree, unpack it into a temporary
# prefix, validate what a desktop installs (desktop file, AppStream metainfo, man pages), and run
# the installed programs from there: folio --version, folio list against the installed demo
# server, and an offscreen window start on it, ended by SIGTERM. A missing install rule or
# dependency fails here.
#   tests/package/check-package.sh BUILD_DIR
set -euo pipefail
build=$(cd "$1" && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
app_id=dev.folio.Folio

step() { echo "== $*"; }
fail() { echo "FAIL: $*" >&2; exit 1; }

step "cpack -G DEB"
(cd "$build" && cpack -G DEB -B "$work/out") >"$work/cpack.log" 2>&1 || { cat "$work/cpack.log"; fail "cpack"; }
debs=("$work"/out/folio_*.deb)
[ -f "${debs[0]}" ] || fail "no folio_*.deb in $work/out"
deb=${debs[0]}
echo "$(basename "$deb"): $(stat -c %s "$deb") bytes"

step "control fields"
depends=$(dpkg-deb --field "$deb" Depends)
echo "Depends: $depends"
for lib in libqt6core6 libqt6gui6 libqt6widgets6 libqt6network6 libqt6svg6 libqt6keychain1 libsimdjson; do
  grep -q "$lib" <<<"$depends" || fail "Depends lacks $lib"
done
[ "$(dpkg-deb --field "$deb" Package)" = folio ] || fail "package name"

step "unpack into a temporary prefix"
dpkg-deb -x "$deb" "$work/root"
prefix=$work/root/usr
for f in bin/folio bin/folio-demo-server \
         share/applications/$app_id.desktop \
         share/icons/hicolor/scalable/apps/$app_id.svg \
         share/metainfo/$app_id.metainfo.xml \
         share/man/man1/folio.1.gz share/man/man1/folio-demo-server.1.gz; do
  [ -e "$prefix/$f" ] || fail "the package lacks $f"
done
(cd "$work/root" && find . -type f | sort)
# The screenshot tool (tests/ui, folio-screenshots) is for docs/screenshots, not for users.
! (cd "$work/root" && find . -name '*shots*' | grep -q .) || fail "the package holds a screenshot tool"

step "desktop-file-validate"
desktop-file-validate "$prefix/share/applications/$app_id.desktop"
grep -q "^Icon=$app_id$" "$prefix/share/applications/$app_id.desktop" || fail "Icon= is not $app_id"

step "appstreamcli validate"
appstreamcli validate --no-net "$prefix/share/metainfo/$app_id.metainfo.xml"

step "man pages"
for page in folio folio-demo-server; do
  # man's --warnings makes groff report every formatting problem on stderr.
  MANWIDTH=80 man --warnings -E UTF-8 -l "$prefix/share/man/man1/$page.1.gz" >"$work/$page.txt" 2>"$work/$page.warn"
  [ ! -s "$work/$page.warn" ] || { cat "$work/$page.warn"; fail "groff warnings in $page.1"; }
done
grep -q "folio list <list>" "$work/folio.txt" || fail "folio.1 lacks the list command's help"

step "installed folio --version"
"$prefix/bin/folio" --version | tee "$work/version.txt"
grep -q '^folio [0-9]' "$work/version.txt" || fail "--version"

export XDG_CONFIG_HOME=$work/config XDG_DATA_HOME=$work/data XDG_CACHE_HOME=$work/cache
step "installed folio list tools against the installed demo server"
"$prefix/bin/folio" list tools --pages 1 --format json -- "$prefix/bin/folio-demo-server" >"$work/list.json"
python3 - "$work/list.json" <<'PY'
import json, sys
doc = json.load(open(sys.argv[1]))
assert len(doc["items"]) > 0, "no tools"
print(len(doc["items"]), "tools on the first page")
PY

step "installed window start (offscreen, on the demo server beside it)"
# folio -v with no arguments opens the window on the embedded demo server and logs its connection;
# once connected, SIGTERM ends it (no handler: status 143), and any other end is a failure.
unset QT_LOGGING_RULES
QT_QPA_PLATFORM=offscreen "$prefix/bin/folio" -v >"$work/window.log" 2>&1 &
window=$!
for _ in $(seq 300); do
  grep -q "folio.net.mcp: connected" "$work/window.log" && break
  kill -0 "$window" 2>/dev/null || break
  sleep 0.1
done
if ! grep -q "folio.net.mcp: connected" "$work/window.log"; then
  kill -KILL "$window" 2>/dev/null || true
  cat "$work/window.log"
  fail "the installed window did not connect to the demo server within 30 s"
fi
kill -TERM "$window" 2>/dev/null || true
status=0
wait "$window" || status=$?
[ "$status" -eq 143 ] || { cat "$work/window.log"; fail "the installed window ended with status $status, not SIGTERM's 143"; }
grep -q "folio.app: folio " "$work/window.log" || { cat "$work/window.log"; fail "no folio.app line in the window's log"; }
echo "PASS"
