#!/usr/bin/env bash
# `cmake --install` into a scratch root: the binary runs, the systemd unit points at it, and
# systemd itself reads the unit without complaint and rates its sandbox (skipped, saying so,
# where systemd-analyze is absent).
# Usage: install_test.sh BUILD_DIR
set -u
build=$1
root=$(mktemp -d)
trap 'rm -rf "$root"' EXIT
fail=0
bad() { echo "FAIL $1"; fail=1; }

DESTDIR="$root" cmake --install "$build" >/dev/null || bad "cmake --install"
prefix=$(sed -n 's/^CMAKE_INSTALL_PREFIX:PATH=//p' "$build/CMakeCache.txt")
bin="$root$prefix/bin/workloadtruth"
unit="$root$prefix/lib/systemd/system/workloadtruth-watch.service"
"$bin" --version >/dev/null 2>&1 || bad "installed binary runs"
[ -f "$root$prefix/share/doc/workloadtruth/examples/workloadtruth.default" ] || bad "defaults example installed"
grep -q "^ExecStart=$prefix/bin/workloadtruth watch --plain " "$unit" || bad "unit runs the installed binary"
# Every option of the commented examples is one watch takes (they would rot otherwise).
help=$("$bin" watch --help)
for opt in $(sed -n 's/^# WT_WATCH_ARGS=//p' "$root$prefix/share/doc/workloadtruth/examples/workloadtruth.default" |
  grep -o -- '--[a-z0-9-]*' | sort -u); do
  grep -q -- " $opt[ ,]" <<<"$help" || bad "the defaults example's $opt is no option of watch"
done

# The unit's command line as systemd would run it, on the simulator instead of the node's GPUs and
# with the log in the scratch root: its fixed options are ones watch takes.
exec_line=$(sed -n 's/^ExecStart=//p' "$unit")
args=${exec_line//\/var\/lib\/workloadtruth\//$root/}
args=${args//\$WT_WATCH_ARGS/--backend sim --scenario training/pretrain --duration 60}
args=${args/#$prefix\/bin\/workloadtruth/$bin}
# shellcheck disable=SC2086  # split on blanks, as systemd does
$args >"$root/watch.out" 2>&1 || bad "the unit's command line: $(tail -2 "$root/watch.out")"
grep -q "^watch ended (end of data)" "$root/watch.out" || bad "the unit's command line ran watch to its end"
[ -s "$root/workloadtruth.log.jsonl" ] && "$bin" verify-log "$root/workloadtruth.log.jsonl" >/dev/null || bad "its log verifies"

if command -v systemd-analyze >/dev/null; then
  # The unit as it will be, but pointing at the scratch root's binary (verify checks it exists).
  copy="$root/workloadtruth-watch.service"
  sed "s|^ExecStart=$prefix/bin/|ExecStart=$root$prefix/bin/|" "$unit" >"$copy"
  out=$(cd "$root" && systemd-analyze verify ./workloadtruth-watch.service 2>&1) || bad "systemd-analyze verify"
  [ -z "$out" ] || bad "systemd-analyze verify says: $out"
  exposure=$(cd "$root" && systemd-analyze security --offline=yes ./workloadtruth-watch.service 2>/dev/null |
    sed -n 's/.*Overall exposure level for workloadtruth-watch.service: \([0-9.]*\).*/\1/p')
  echo "systemd-analyze security: exposure $exposure"
  awk -v e="$exposure" 'BEGIN { exit !(e != "" && e < 5.0) }' || bad "sandbox exposure $exposure (wanted < 5.0, systemd's OK)"
else
  echo "skipped: systemd-analyze is not installed, so the unit was not checked by systemd"
fi
[ "$fail" -eq 0 ] && echo "install: all checks passed"
exit "$fail"
