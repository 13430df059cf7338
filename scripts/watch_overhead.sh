#!/usr/bin/env bash
# Measures `watch`'s own cost at 1 Hz on 8 GPUs, through the fake NVML library (no GPU needed):
# CPU time per wall second and peak RSS, read from /proc while it runs with the audit log on.
# Usage: scripts/watch_overhead.sh [BUILD_DIR] [SECONDS] [DECLARED] [METRICS] [tls]   (default build/default, 60 s)
# DECLARED, given, is passed as --declared (process:bash=training names each GPU's processes
# from /proc at every window: the fixture lists this script's own shell on every GPU); METRICS,
# given, as --metrics-listen (e.g. 127.0.0.1:0), and the metrics are scraped once a second;
# with `tls` as well, over https with a client certificate and a bearer token (openssl makes a
# throwaway CA), as a locked-down Prometheus would scrape it.
# Startup (loading the model, opening the log) is left out: CPU time is counted from 5 s in.
set -eu
build=${1:-build/default}
seconds=${2:-60}
declared=()
[ -n "${3:-}" ] && declared=(--declared "$3")
[ -n "${4:-}" ] && declared+=(--metrics-listen "$4")
wt="$build/src/workloadtruth"
lib="$build/tests/fake_nvml/lib"
[ -x "$wt" ] && [ -d "$lib" ] || { echo "build first: $wt and $lib are needed" >&2; exit 2; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
scrape_args=()
if [ "${5:-}" = tls ]; then
  source "$(dirname "$0")/make_test_certs.sh"
  make_test_certs "$tmp"
  printf 'overhead-token\n' >"$tmp/token"
  declared+=(--metrics-cert-file "$tmp/server.pem" --metrics-key-file "$tmp/server.key"
    --metrics-client-ca-file "$tmp/ca.pem" --metrics-bearer-token-file "$tmp/token")
  scrape_args=("$tmp/ca.pem" "$tmp/client.pem" "$tmp/client.key" overhead-token)
fi

# 8 GPUs, 120 polls each of a training-like pattern (then the fake repeats the last poll).
{
  for g in 0 1 2 3 4 5 6 7; do
    printf 'gpu GPU-%08d-0000-4000-8000-000000000000 00000000:%02X:00.0 NVIDIA H100 80GB HBM3\n' "$g" $((0x18 + g))
    printf 'pids %d compute %d\n' "$g" $$
  done
  for t in $(seq 0 119); do
    for g in 0 1 2 3 4 5 6 7; do
      u=$(( (t * 7 + g * 13) % 40 + 60 ))
      p=$(( 400000 + u * 3000 ))
      printf 'poll %d %d %d %d 60000000000 85899345920 %d 700000 70 1980 2619 12000 3000 %d %d 1 %d,%d %d,%d %d,%d\n' \
        "$g" "$t" "$u" $((u / 2)) "$p" $((t * 1000000)) $((t * 500000)) "$p" "$p" "$u" "$u" $((u / 2)) $((u / 2))
    done
  done
} >"$tmp/eight_gpus.txt"

LD_LIBRARY_PATH="$lib" FAKE_NVML_FIXTURE="$tmp/eight_gpus.txt" "$wt" watch --backend nvml --interval 1 \
  --samples 0 --log "$tmp/overhead.log.jsonl" --json "${declared[@]}" >"$tmp/out.jsonl" 2>"$tmp/err" &
pid=$!
ticks=$(getconf CLK_TCK)
cpu_ticks() { awk '{print $14 + $15}' "/proc/$pid/stat"; }  # utime + stime
sleep 5
t0=$(cpu_ticks)
start=$(date +%s.%N)
scrapes=0
if [ -n "${4:-}" ]; then
  url=$(sed -n 's|.*serving metrics on \(https*://[^ ]*\)$|\1|p' "$tmp/err")
  until_s=$(($(date +%s) + seconds))
  while [ "$(date +%s)" -lt "$until_s" ]; do
    python3 -c 'import ssl, sys, urllib.request
req, tls = urllib.request.Request(sys.argv[1]), None
if len(sys.argv) > 2:
    tls = ssl.create_default_context(cafile=sys.argv[2]); tls.load_cert_chain(sys.argv[3], sys.argv[4])
    req.add_header("Authorization", "Bearer " + sys.argv[5])
urllib.request.urlopen(req, timeout=5, context=tls).read()' "$url" "${scrape_args[@]}" &&
      scrapes=$((scrapes + 1))
    sleep 1
  done
else
  sleep "$seconds"
fi
t1=$(cpu_ticks)
end=$(date +%s.%N)
hwm_kb=$(awk '/^VmHWM:/ {print $2}' "/proc/$pid/status")
rss_kb=$(awk '/^VmRSS:/ {print $2}' "/proc/$pid/status")
kill -TERM "$pid"
wait "$pid" || true

windows=$(grep -c '"type":"window"' "$tmp/out.jsonl" || true)
awk -v c0="$t0" -v c1="$t1" -v hz="$ticks" -v s="$start" -v e="$end" -v kb="$rss_kb" -v hwm="$hwm_kb" -v w="$windows" 'BEGIN {
  cpu = (c1 - c0) / hz; wall = e - s
  printf "watch at 1 Hz on 8 fake NVML GPUs, audit log on: %.2f s CPU in %.1f s = %.3f%% of one core (target < 0.5%%: %s)\n",
         cpu, wall, 100 * cpu / wall, (100 * cpu / wall < 0.5 ? "met" : "NOT met")
  printf "RSS while running %.1f MB (target < 30 MB: %s); peak %.1f MB (while the model loads); %d windows classified and logged\n",
         kb * 1.024 / 1000, (kb * 1.024 / 1000 < 30 ? "met" : "NOT met"), hwm * 1.024 / 1000, w
}'
[ -n "${4:-}" ] && echo "metrics served at $url, scraped $scrapes times"
"$wt" verify-log "$tmp/overhead.log.jsonl"
