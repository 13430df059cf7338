#!/usr/bin/env bash
# Records real telemetry of known workloads on an NVIDIA GPU machine, as data/real-h200 was made.
#
#   scripts/record_real_gpu.sh pack [BUILD_DIR]  here: put the built binary (stripped), the Debian
#                                                libraries it links and ../shared/device/record_real.py
#                                                into .devrun/ (git-ignored; carry it to the GPU machine)
#   scripts/record_real_gpu.sh run OUT [SECONDS] [WORKLOAD,...] [PROGRAMME [ARG...]]
#                                                there: the programme (PyTorch + pynvml, 10 Hz, one CSV
#                                                per workload into OUT/traces.tar.gz) while our own
#                                                `record --backend nvml` records the whole run and a
#                                                loop classifies it live. PROGRAMME is the shared
#                                                .devrun/record_real.py (default; made data/real-h200)
#                                                or scripts/gpu_workloads.py (ours; made
#                                                data/real-h200-b), ARGs go to it (e.g. --deadline 540)
#
# The GPU machine needs PyTorch with CUDA and nvidia-ml-py, a glibc at least as new as Debian 12's,
# and the NVIDIA driver; nothing is installed there. Total time: about (workloads x (SECONDS + 2)) +
# a minute (11 workloads at 35 s: 7.1 minutes).
set -euo pipefail
cd "$(dirname "$0")/.."

pack() {
  local build=${1:-build/default}
  rm -rf .devrun && mkdir -p .devrun/lib
  grep -qx '/.devrun/' .git/info/exclude 2>/dev/null || echo '/.devrun/' >>.git/info/exclude
  strip -o .devrun/workloadtruth "$build/src/workloadtruth"
  # Everything it links but the C library itself, which the GPU machine's own must provide.
  ldd "$build/src/workloadtruth" | awk '$3 ~ /^\// {print $3}' |
    grep -Ev '/(libc|libm|libpthread|libdl|librt|ld-linux[^/]*)\.so' | xargs -I{} cp -L {} .devrun/lib/
  cp ../shared/device/record_real.py .devrun/
  du -sh .devrun
}

run() {
  local out=$1 secs=${2:-35} only=${3:-} prog=${4:-.devrun/record_real.py}
  shift $(($# < 4 ? $# : 4))
  local root=$PWD
  # env execs the binary, so $! is its own pid and SIGTERM reaches it (a shell function would not).
  local wt=(env "LD_LIBRARY_PATH=$root/.devrun/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}" "$root/.devrun/workloadtruth")
  {
    date -u
    nvidia-smi --query-gpu=name,driver_version,power.limit,memory.total --format=csv
    "${wt[@]}" --version
    "${wt[@]}" classify --backend nvml --samples 5 --interval 0.2 --json
  } >"$out/env.txt" 2>&1 || true
  "${wt[@]}" record --backend nvml --interval 0.1 --samples 100000000 --out "$out/wt_record.csv" --json \
    >"$out/wt_record.log" 2>&1 &
  local rec=$!
  (while :; do "${wt[@]}" classify --backend nvml --samples 40 --interval 1 --json 2>&1 | tr -d '\n'; echo; sleep 1; done) \
    >"$out/live_classify.jsonl" &
  local live=$!
  # Each programme line stamped with the time (UTC) it was printed: when each workload ended.
  PYTHONUNBUFFERED=1 python3 "$prog" --out "$out/traces.tar.gz" --seconds "$secs" ${only:+--only "$only"} "$@" 2>&1 |
    while IFS= read -r line; do echo "$(date -u +%H:%M:%S.%N | cut -c1-12) $line"; done | tee "$out/schedule.log" ||
    echo "$prog failed; the recorder is stopped all the same"
  sleep 1
  kill -TERM "$rec" && wait "$rec" || true
  kill "$live" 2>/dev/null || true
  pkill -TERM -f "$root/.devrun/workloadtruth classify" || true  # ours only, not any other on the node
  sleep 0.5
  sed -i '/^{/!d' "$out/live_classify.jsonl"  # only whole verdicts: drop a shell's "Terminated"
  cat "$out/wt_record.log"
}

case ${1:-} in
  pack) shift; pack "$@" ;;
  run) shift; run "$@" ;;
  *) sed -n '2,17p' "$0"; exit 2 ;;
esac
