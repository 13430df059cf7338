#!/usr/bin/env bash
# End-to-end checks of the workloadtruth binary: exit codes, JSON shapes, messages.
# Usage: cli_test.sh BINARY FIXTURE_DIR   (LD_LIBRARY_PATH points at the fake NVML library)
set -u
wt=$1
fx=$2
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
pass=0 fail=0

check() {  # check NAME EXPECTED_EXIT COMMAND...
  local name=$1 want=$2
  shift 2
  "$@" >"$tmp/out" 2>"$tmp/err"
  local got=$?
  if [ "$got" -eq "$want" ]; then
    pass=$((pass + 1))
  else
    fail=$((fail + 1))
    echo "FAIL $name: exit $got, wanted $want"
    sed 's/^/  stdout: /' "$tmp/out" | head -20
    sed 's/^/  stderr: /' "$tmp/err" | head -20
  fi
}
expect() {  # expect NAME SHELL-CONDITION (on the last command's output files)
  if eval "$2"; then pass=$((pass + 1)); else
    fail=$((fail + 1))
    echo "FAIL $1: $2"
    sed 's/^/  stdout: /' "$tmp/out" | head -20
    sed 's/^/  stderr: /' "$tmp/err" | head -20
  fi
}

check version 0 "$wt" --version
expect version-text 'grep -Eq "^workloadtruth [0-9]+\.[0-9]+\.[0-9]+$" "$tmp/out"'
for cmd in "" classify record calibrate; do
  check "help $cmd" 0 "$wt" $cmd --help
  expect "help-json $cmd" 'grep -q -- "--json" "$tmp/out" || [ -z "$cmd" ]'
done
check no-command 2 "$wt"
check unknown-flag 2 "$wt" classify --bogus
check bad-profile 2 "$wt" classify --backend synthetic --profile mining
check stride-over-window 2 "$wt" classify --backend synthetic --window 10 --stride 20

# Seed parity: the synthetic object and its fields.
check synthetic-json 0 "$wt" classify --backend synthetic --profile training --samples 30 --interval 0 --json
expect synthetic-fields 'jq -e "(keys == [\"confidence\",\"features\",\"gpu_index\",\"reasons\",\"sample_count\",\"window_seconds\",\"workload_type\"]) and .workload_type == \"TRAINING\" and .sample_count == 30 and .window_seconds == 29" "$tmp/out" >/dev/null'
expect synthetic-features 'jq -e ".features | has(\"avg_gpu_util_pct\") and has(\"std_gpu_util_pct\") and has(\"mem_growth_mib_per_sample\") and has(\"avg_power_watts\") and has(\"std_power_watts\") and has(\"avg_process_count\")" "$tmp/out" >/dev/null'
check synthetic-idle 0 "$wt" classify --backend synthetic --profile idle --samples 30 --interval 0 --json
expect synthetic-idle-type 'jq -e ".workload_type == \"IDLE\"" "$tmp/out" >/dev/null'
check synthetic-text 0 "$wt" classify --backend synthetic --profile inference --samples 30 --interval 0
expect synthetic-text-verdict 'grep -q INFERENCE "$tmp/out" && grep -q "signal to investigate" "$tmp/out"'

# Replay: every GPU, windows, the documented JSON shape.
check replay-json 0 "$wt" classify --replay "$fx/csv/two_gpus.csv" --json
expect replay-shape 'jq -e "(.source | startswith(\"replay:\")) and (.gpus | length == 2) and .gpus[0].workload_type == \"TRAINING\" and .gpus[1].workload_type == \"IDLE\" and (.gpus[0].windows[0] | has(\"start\") and has(\"end\") and has(\"workload_type\") and has(\"confidence\")) and (.gpus[0] | has(\"uuid\") and has(\"name\") and has(\"reasons\") and has(\"features\"))" "$tmp/out" >/dev/null'
check replay-text 0 "$wt" classify --replay "$fx/csv/two_gpus.csv"
expect replay-text-lines 'grep -q "^0 .*TRAINING" "$tmp/out" && grep -q "^1 .*IDLE" "$tmp/out" && grep -q "note: .*fan.speed" "$tmp/err"'
check noheader 0 "$wt" classify --replay "$fx/csv/noheader_nounits.csv" --columns timestamp,index,utilization.gpu,power.draw --json
check noheader-missing-columns 1 "$wt" classify --replay "$fx/csv/noheader_nounits.csv"
expect noheader-message 'grep -q "noheader_nounits.csv:1: no header line" "$tmp/err"'

# Bad input: named file and line, exit 1, the good GPUs still reported.
check bad-lines 1 "$wt" classify --replay "$fx/csv/bad_lines.csv" --json
expect bad-lines-named 'grep -q "bad_lines.csv:6: utilization.gpu \[%\]: .nan %. is not a finite number" "$tmp/err"'
expect bad-lines-still-classified 'jq -e ".gpus | length == 2" "$tmp/out" >/dev/null && jq -e "[.errors[] | select(.where == \"GPU 1\")] | length == 1" "$tmp/out" >/dev/null'
check missing-file 1 "$wt" classify --replay "$tmp/nope.csv" --json
expect missing-file-json 'jq -e ".exit_code == 1 and (.error | contains(\"nope.csv\"))" "$tmp/out" >/dev/null'
head -c 3000 /dev/urandom >"$tmp/random.bin"
printf '\0' >>"$tmp/random.bin"
check binary-file 1 "$wt" classify --replay "$tmp/random.bin"
: >"$tmp/empty.csv"
check empty-file 1 "$wt" classify --replay "$tmp/empty.csv"
printf '{"format":"workloadtruth-trace","version":1}\n{"time_s": 1, "gpu_util_pct": 5}\n{"time_s": 2, "gpu_u' >"$tmp/torn.jsonl"
check torn-jsonl 1 "$wt" classify --replay "$tmp/torn.jsonl" --format jsonl

# record -> replay round trip through the CLI, both formats.
for f in csv jsonl; do
  check "record-$f" 0 "$wt" record --backend synthetic --profile inference --samples 60 --interval 0 --out "$tmp/rec.$f" --format $f --json
  expect "record-$f-json" 'jq -e ".samples == 60" "$tmp/out" >/dev/null'
  check "replay-$f" 0 "$wt" classify --replay "$tmp/rec.$f" --json
  expect "replay-$f-count" 'jq -e ".gpus[0].sample_count == 60" "$tmp/out" >/dev/null'
  check "rerecord-$f" 0 "$wt" record --replay "$tmp/rec.$f" --out "$tmp/rec2.$f" --format $f
  expect "rerecord-$f-identical" 'cmp -s "$tmp/rec.$f" "$tmp/rec2.$f"'
done
check record-over-input 2 "$wt" record --replay "$tmp/rec.csv" --out "$tmp/rec.csv"
expect record-over-input-intact 'cmp -s "$tmp/rec.csv" "$tmp/rec2.csv"'

# Live NVML through the fake driver library, and without any driver.
if [ -f "$fx/nvml/two_gpus.txt" ]; then
  check nvml-json 0 env FAKE_NVML_FIXTURE="$fx/nvml/two_gpus.txt" "$wt" classify --backend nvml --samples 3 --interval 0.01 --json
  expect nvml-gpus 'jq -e "(.gpus | length == 2) and .source == \"nvml\"" "$tmp/out" >/dev/null'
  check nvml-one-gpu 0 env FAKE_NVML_FIXTURE="$fx/nvml/two_gpus.txt" "$wt" classify --backend nvml --gpu 1 --samples 3 --interval 0.01 --json
  expect nvml-one-gpu-index 'jq -e "(.gpus | length == 1) and .gpus[0].gpu_index == 1" "$tmp/out" >/dev/null'
  check nvml-record 0 env FAKE_NVML_FIXTURE="$fx/nvml/two_gpus.txt" "$wt" record --backend nvml --samples 3 --interval 0.01 --out "$tmp/live.csv"
  check nvml-replay 0 "$wt" classify --replay "$tmp/live.csv" --json
  check nvml-init-error 3 env FAKE_NVML_FIXTURE="$fx/nvml/two_gpus.txt" FAKE_NVML_INIT_ERROR=9 "$wt" classify --backend nvml --samples 3 --interval 0.01
fi
check no-driver 3 env -u LD_LIBRARY_PATH "$wt" classify --backend nvml --samples 1
expect no-driver-message '[ $(wc -l <"$tmp/err") -eq 1 ] && grep -q "libnvidia-ml.so.1" "$tmp/err"'

# The physical simulator: scenarios, record to CSV and replay, legacy profile aliases.
check sim-list 0 "$wt" classify --list-scenarios
expect sim-list-text 'grep -q "training/pretrain/power-cap" "$tmp/out" && grep -q "NVIDIA B200" "$tmp/out"'
check sim-record 0 "$wt" record --backend sim --scenario training/ddp --gpu-model "NVIDIA H100 80GB HBM3" --duration 60 --interval 0.5 --seed 3 --out "$tmp/sim.csv" --json
expect sim-record-count 'jq -e ".samples == 480 and .source == \"sim:training/ddp\"" "$tmp/out" >/dev/null'
check sim-replay 0 "$wt" classify --replay "$tmp/sim.csv" --json
expect sim-replay-gpus 'jq -e "(.gpus | length == 4) and .gpus[0].name == \"NVIDIA H100 80GB HBM3\"" "$tmp/out" >/dev/null'
check sim-again 0 "$wt" record --backend sim --scenario training/ddp --gpu-model "NVIDIA H100 80GB HBM3" --duration 60 --interval 0.5 --seed 3 --out "$tmp/sim2.csv"
expect sim-deterministic 'cmp -s "$tmp/sim.csv" "$tmp/sim2.csv"'
check sim-classify 0 "$wt" classify --backend sim --scenario idle/bare --duration 60 --json
check sim-bad-scenario 2 "$wt" classify --backend sim --scenario training/nope
expect sim-bad-scenario-message 'grep -q "unknown scenario" "$tmp/err"'

# Calibration: real vs simulated feature spreads; skips (exit 0) when no real traces exist.
check calibrate-absent 0 "$wt" calibrate --real "$tmp/no-such-dir" --json
expect calibrate-absent-skip 'jq -e ".skipped | contains(\"skipping\")" "$tmp/out" >/dev/null && grep -q "no-such-dir" "$tmp/err"'
mkdir -p "$tmp/real"
"$wt" record --backend sim --scenario hpc/md --duration 120 --interval 1 --seed 5 --out "$tmp/real/hpc__sim__md.csv" >/dev/null
check calibrate-json 0 "$wt" calibrate --real "$tmp/real" --traces 1 --duration 60 --json
expect calibrate-shape 'jq -e "(.classes | length == 1) and .classes[0].key == \"HPC\" and .classes[0].real_windows > 0 and (.classes[0].features.util_mean.real.p50 > 50) and (.classes[0].features.util_mean | has(\"sim\") and has(\"covered\"))" "$tmp/out" >/dev/null'
check calibrate-text 0 "$wt" calibrate --real "$tmp/real" --traces 1 --duration 60 --by-source
expect calibrate-text-rows 'grep -q "^HPC real:sim:" "$tmp/out" && grep -q "power_frac_mean" "$tmp/out"'

check sim-bad-gpu 2 "$wt" classify --backend sim --scenario idle/bare --gpu-model "Voodoo 2"
check legacy-profile 0 "$wt" classify --backend synthetic --profile legacy-training --samples 30 --interval 0 --json
expect legacy-profile-type 'jq -e ".workload_type == \"TRAINING\"" "$tmp/out" >/dev/null'

echo "cli: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
