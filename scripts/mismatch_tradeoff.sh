#!/usr/bin/env bash
# The declared-label alert's false-alarm trade-off, measured on the simulator: every GPU is
# declared INFERENCE; on inference scenarios any alert is a false alarm, on training scenarios
# (clean and evasive) an alert is a detection, timed from the start of the run. One simulated
# hour per run, 1 s polls, default windows and hysteresis.
# Usage: scripts/mismatch_tradeoff.sh [BUILD_DIR] [SEEDS] [SETTINGS]
#   SETTINGS: space-separated CONFIDENCE:SECONDS pairs (default "0.8:300 0.9:60 0.9:300 0.95:300")
set -eu
build=${1:-build/default}
seeds=${2:-"1 2"}
settings=${3:-"0.8:300 0.9:60 0.9:300 0.95:300"}
wt="$build/src/workloadtruth"
[ -x "$wt" ] || { echo "build first: $wt" >&2; exit 2; }
scenarios=$("$wt" classify --list-scenarios | awk '$2 == "TRAINING" || $2 == "INFERENCE" {if ($3 == "") print $1, $2}')
declared=0=inference,1=inference,2=inference,3=inference,4=inference,5=inference,6=inference,7=inference

printf '%-12s %-10s %14s %26s %22s\n' confidence after_s "false alarms" "training detected" "median time to alert"
for setting in $settings; do
  conf=${setting%%:*} after=${setting##*:}
  fa=0 inf_runs=0 det=0 tr_runs=0 delays=()
  while read -r name label; do
    for seed in $seeds; do
      alert=$("$wt" watch --backend sim --scenario "$name" --duration 3600 --seed "$seed" --no-log --json \
        --declared "$declared" --mismatch-confidence "$conf" --mismatch-after "$after" 2>/dev/null |
        jq -rs 'def t: .[0:19] + "Z" | fromdateiso8601;
                ([.[] | select(.type == "window")][0].window_start | t) as $t0
                | [.[] | select(.type == "mismatch" and .state == "raised")][0] | if . then (.at | t) - $t0 else empty end')
      if [ "$label" = INFERENCE ]; then
        inf_runs=$((inf_runs + 1))
        [ -n "$alert" ] && fa=$((fa + 1))
      else
        tr_runs=$((tr_runs + 1))
        if [ -n "$alert" ]; then det=$((det + 1)); delays+=("$alert"); fi
      fi
    done
  done <<<"$scenarios"
  median=$(printf '%s\n' "${delays[@]:-}" | sort -n | awk 'NF {a[n++] = $1} END {print n ? a[int((n - 1) / 2)] " s" : "-"}')
  printf '%-12s %-10s %8d of %-3d %18d of %-3d %22s\n' "$conf" "$after" "$fa" "$inf_runs" "$det" "$tr_runs" "$median"
done
