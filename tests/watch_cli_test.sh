#!/usr/bin/env bash
# End-to-end checks of `workloadtruth watch`: JSON lines, plain lines, declared labels, the
# mismatch alert and its command, the audit log, and a clean shutdown on SIGTERM.
# Usage: watch_cli_test.sh BINARY FIXTURE_DIR   (LD_LIBRARY_PATH points at the fake NVML library)
set -u
wt=$1
fx=$(cd "$2" && pwd)
source "$(dirname "$0")/cli_checks.sh"
csv="$fx/csv/two_gpus.csv"  # 90 s at 1 Hz; the seed rules (a fixed classifier) call GPU 0 training, GPU 1 idle

check help 0 "$wt" watch --help
expect help-json 'grep -q -- "--json" "$tmp/out" && grep -q -- "--on-mismatch" "$tmp/out"'
check stride-over-window 2 "$wt" watch --replay "$csv" --classifier rules --window 10 --stride 20
check synthetic-needs-samples 2 "$wt" watch --backend synthetic
check classify-samples-zero 2 "$wt" classify --backend synthetic --samples 0

# --once on a replay: one window verdict per GPU, as JSON lines, then the end line.
check once-json 0 "$wt" watch --replay "$csv" --classifier rules --once --json --no-log
expect once-every-line-json 'jq -e . "$tmp/out" >/dev/null && [ $(grep -c "" "$tmp/out") -eq 3 ]'
expect once-windows 'jq -se "[.[] | select(.type == \"window\") | .gpu_index] == [0, 1] and .[0].workload_type == .[0].job_type and (.[0] | has(\"window_start\") and has(\"confidence\") and has(\"held_s\") and has(\"declared\") and has(\"mismatch\"))" "$tmp/out" >/dev/null'
expect once-end 'tail -1 "$tmp/out" | jq -e ".type == \"end\" and .reason == \"--once\" and .log == null" >/dev/null'
cp "$tmp/out" "$tmp/once.out"
check once-positional 0 "$wt" watch "$csv" --classifier rules --once --json --no-log
expect once-positional-same 'cmp -s "$tmp/out" "$tmp/once.out"'
# The whole replay (as fast as it reads): a log entry per window per GPU, and the log verifies.
check replay-log 0 "$wt" watch --replay "$csv" --classifier rules --json --log "$tmp/a.log"
expect replay-windows-logged 'n=$(jq -s "[.[] | select(.type == \"window\")] | length" "$tmp/out"); [ "$n" -ge 8 ] && [ "$(grep -c "" "$tmp/a.log")" -eq "$n" ] && tail -1 "$tmp/out" | jq -e ".log_entries == $n and .reason == \"end of data\"" >/dev/null'
expect replay-partial-flushed 'jq -se "[.[] | select(.type == \"window\" and .gpu_index == 0)] | last | .partial" "$tmp/out" >/dev/null'
check replay-log-verifies 0 "$wt" verify-log "$tmp/a.log"
check replay-log-locked-appends 0 "$wt" watch --replay "$csv" --classifier rules --once --json --log "$tmp/a.log"
check replay-log-still-verifies 0 "$wt" verify-log "$tmp/a.log"
(cd "$tmp" && "$wt" watch --replay "$csv" --classifier rules --once --json >/dev/null 2>&1)
expect default-log-file '[ -s "$tmp/workloadtruth.log.jsonl" ]'

# --job: GPU 1 idles, but as part of GPU 0's job its job verdict is the job's (TRAINING), and a
# declaration of inference on it is flagged, by the job.
check job-json 0 "$wt" watch --replay "$csv" --classifier rules --json --no-log --job node=all --declared 1=inference --mismatch-after 30 --mismatch-confidence 0.5
expect job-json-lines 'jq -se "[.[] | select(.type == \"window\" and .gpu_index == 1)] | last | .job_group == \"node\" and .job_type == \"TRAINING\" and .workload_type == \"IDLE\"" "$tmp/out" >/dev/null'
expect job-json-alert 'jq -se "[.[] | select(.type == \"mismatch\" and .state == \"raised\")] | length == 1 and .[0].gpu_index == 1 and .[0].job_group == \"node\" and .[0].observed == \"TRAINING\"" "$tmp/out" >/dev/null'
check job-plain 0 "$wt" watch --replay "$csv" --classifier rules --no-log --job node=0,1
expect job-plain-lines 'grep -q "GPU 1  job node  TRAINING" "$tmp/out"'
check job-alone 0 "$wt" watch --replay "$csv" --classifier rules --json --no-log --declared 1=inference --mismatch-after 30 --mismatch-confidence 0.5
expect job-alone-no-alert 'jq -se "([.[] | select(.type == \"mismatch\")] | length == 0) and ([.[] | select(.type == \"window\")] | all(.job_group == null))" "$tmp/out" >/dev/null'
check job-overlap 2 "$wt" watch --replay "$csv" --classifier rules --no-log --job a=0 --job b=0-1
check job-missing-gpu 0 "$wt" watch --replay "$csv" --classifier rules --no-log --json --job a=0,7
expect job-missing-gpu-warned '[ "$(grep -c "warning: job a: GPU 7 is not in the source (by the first windows)" "$tmp/err")" -eq 1 ]'

# Plain lines when stdout is not a terminal: one per job-verdict change, and a summary.
check plain 0 "$wt" watch --replay "$csv" --classifier rules --no-log --declared 0=training
expect plain-lines 'grep -q "GPU 0  TRAINING  conf [0-9.]*  since .*declared TRAINING" "$tmp/out" && grep -q "GPU 1  IDLE" "$tmp/out" && grep -q "^watch ended (end of data): .* windows from 2 GPUs$" "$tmp/out" && ! grep -q "{" "$tmp/out"'

# Declared labels: GPU 0 declared INFERENCE while it trains -> a mismatch alert, logged, printed,
# and given to --on-mismatch on stdin. GPU 1 (idle) declared TRAINING is no mismatch.
printf '#!/bin/sh\ncat >> "$1"\n' >"$tmp/alert.sh"
chmod +x "$tmp/alert.sh"
mm=(--mismatch-after 30 --mismatch-confidence 0.5 --on-mismatch "$tmp/alert.sh $tmp/alert.out")
check mismatch-flag 0 "$wt" watch --replay "$csv" --classifier rules --json --log "$tmp/m.log" --declared 0=inference,1=training "${mm[@]}"
expect mismatch-event 'jq -se "[.[] | select(.type == \"mismatch\")] | length == 1 and .[0].state == \"raised\" and .[0].gpu_index == 0 and .[0].declared == \"INFERENCE\" and .[0].observed == \"TRAINING\" and .[0].duration_s >= 30" "$tmp/out" >/dev/null'
expect mismatch-window-flag 'jq -se "[.[] | select(.type == \"window\" and .gpu_index == 0)] | last | .mismatch and .declared == \"INFERENCE\"" "$tmp/out" >/dev/null'
expect mismatch-logged '[ $(grep -c "\"type\":\"mismatch\"" "$tmp/m.log") -eq 1 ]'
expect mismatch-command 'jq -e ".type == \"mismatch\" and .gpu_index == 0 and .declared == \"INFERENCE\"" "$tmp/alert.out" >/dev/null'
check mismatch-log-verifies 0 "$wt" verify-log "$tmp/m.log"
check mismatch-plain 0 "$wt" watch --replay "$csv" --classifier rules --no-log --declared 0=inference --mismatch-after 30 --mismatch-confidence 0.5
expect mismatch-plain-line 'grep -q "GPU 0  MISMATCH declared INFERENCE (0), observed TRAINING (conf [0-9.]*) for " "$tmp/out"'
check no-mismatch-short 0 "$wt" watch --replay "$csv" --classifier rules --json --no-log --declared 0=inference --mismatch-after 600
expect no-mismatch-short-events '! grep -q "\"type\":\"mismatch\"" "$tmp/out"'

# The same declarations from a mapping file, in both formats; a bad file is an error at start.
printf '# owners\n0 = inference\n' >"$tmp/map.txt"
echo '{"GPU-00000000-0000-0000-0000-000000000000": "inference"}' >"$tmp/map.json"
check mapping-lines 0 "$wt" watch --replay "$csv" --classifier rules --json --no-log --declared-file "$tmp/map.txt" --mismatch-after 30 --mismatch-confidence 0.5
expect mapping-lines-event 'jq -se "[.[] | select(.type == \"mismatch\")] | length == 1" "$tmp/out" >/dev/null'
uuid=$(jq -r 'select(.type == "window" and .gpu_index == 0) | .uuid' "$tmp/out" | head -1)
if [ -n "$uuid" ]; then echo "{\"$uuid\": \"inference\"}" >"$tmp/map.json"; fi
check mapping-json 0 "$wt" watch --replay "$csv" --classifier rules --json --no-log --declared-file "$tmp/map.json" --mismatch-after 30 --mismatch-confidence 0.5
expect mapping-json-declared 'jq -se "[.[] | select(.type == \"window\" and .gpu_index == 0)] | last | .declared == \"INFERENCE\"" "$tmp/out" >/dev/null'
printf '0=inference\n1 training\n' >"$tmp/bad_map.txt"
check mapping-bad 1 "$wt" watch --replay "$csv" --classifier rules --no-log --declared-file "$tmp/bad_map.txt"
expect mapping-bad-message 'grep -q "bad_map.txt:2: .1 training. is not KEY=type" "$tmp/err"'
check mapping-missing 1 "$wt" watch --replay "$csv" --classifier rules --no-log --declared-file "$tmp/nope.txt"
# A bad line is said once (as it comes, not again at the end), and the exit says it.
{ cat "$csv"; echo "2024/02/16 17:12:43.709, 0, x"; } >"$tmp/bad_line.csv"
check bad-line 1 "$wt" watch --replay "$tmp/bad_line.csv" --classifier rules --no-log --plain
expect bad-line-said-once 'test "$(grep -c "bad_line.csv:182: expected 13 fields, found 3; line skipped" "$tmp/err")" = 1'
check declared-bad 2 "$wt" watch --replay "$csv" --classifier rules --no-log --declared 0=gaming

# Declared by what runs on the GPU, on the live (fake) NVML library. A real process named
# ddp-trainer stands in for the workload: the fixture lists its PID as a compute process of GPU 0,
# and `watch` names it from /proc.
if [ -f "$fx/nvml/two_gpus.txt" ]; then
  cp "$(command -v sleep)" "$tmp/ddp-trainer"
  "$tmp/ddp-trainer" 120 &
  trainer=$!
  sed "s/4242/$trainer/g" "$fx/nvml/two_gpus.txt" >"$tmp/procs.txt"
  live=(--backend nvml --gpu 0 --interval 0.02 --samples 60 --window 0.2 --stride 0.1 --json --no-log)
  mm0=(--mismatch-after 0.3 --mismatch-confidence 0)
  check process-declared 0 env FAKE_NVML_FIXTURE="$tmp/procs.txt" "$wt" watch "${live[@]}" "${mm0[@]}" --declared process:ddp-trainer=mining
  expect process-declared-window 'jq -se "[.[] | select(.type == \"window\")] | last | .declared == \"MINING\" and .declared_by == \"process:ddp-trainer\" and .declared_conflict == null" "$tmp/out" >/dev/null'
  expect process-declared-alert 'jq -se "[.[] | select(.type == \"mismatch\")] | .[0].state == \"raised\" and .[0].declared == \"MINING\" and .[0].declared_by == \"process:ddp-trainer\"" "$tmp/out" >/dev/null'
  check process-undeclared 0 env FAKE_NVML_FIXTURE="$tmp/procs.txt" "$wt" watch "${live[@]}" "${mm0[@]}" --declared process:ddp-other=mining
  expect process-undeclared-none '! grep -q "\"type\":\"mismatch\"" "$tmp/out" && jq -se "[.[] | select(.type == \"window\")] | all(.declared == null)" "$tmp/out" >/dev/null'
  kill "$trainer"
  wait "$trainer" 2>/dev/null

  # Pods from a procfs tree (--proc-root): the fixture's PIDs 4243 and 4250 in two pods. Declared
  # alike they agree; declared differently they conflict, and the GPU has no declaration.
  for pid in 4243 4250; do
    mkdir -p "$tmp/proc/$pid"
    echo python >"$tmp/proc/$pid/comm"
    echo "0::/kubepods.slice/cri-containerd-$(printf '%064d' "$pid").scope" >"$tmp/proc/$pid/cgroup"
    printf 'KUBERNETES_SERVICE_HOST=10.0.0.1\0HOSTNAME=pod-%s\0WORKLOADTRUTH_DECLARED=inference\0' "$pid" \
      >"$tmp/proc/$pid/environ"
  done
  # What the processes say of themselves (--declared-env), when no key of the operator's applies.
  check env-declared 0 env FAKE_NVML_FIXTURE="$fx/nvml/two_gpus.txt" "$wt" watch "${live[@]}" "${mm0[@]}" --proc-root "$tmp/proc" --declared-env WORKLOADTRUTH_DECLARED
  expect env-declared-by 'jq -se "[.[] | select(.type == \"window\")] | last | .declared == \"INFERENCE\" and .declared_by == \"env:WORKLOADTRUTH_DECLARED\"" "$tmp/out" >/dev/null'
  check env-declared-replay 2 "$wt" watch --replay "$fx/csv/two_gpus.csv" --declared-env WORKLOADTRUTH_DECLARED --no-log
  expect env-declared-replay-says-why 'grep -q "only --backend nvml, amd or auto list; not replay" "$tmp/err"'
  printf 'pod:pod-4243=mining\npod:pod-4250=mining\nprocess:python=inference\n' >"$tmp/pods.txt"
  check pod-declared 0 env FAKE_NVML_FIXTURE="$fx/nvml/two_gpus.txt" "$wt" watch "${live[@]}" "${mm0[@]}" --proc-root "$tmp/proc" --declared-file "$tmp/pods.txt"
  expect pod-declared-by 'jq -se "[.[] | select(.type == \"window\")] | last | .declared == \"MINING\" and .declared_by == \"pod:pod-4243, pod:pod-4250\"" "$tmp/out" >/dev/null'
  printf 'pod:pod-4243=mining\npod:pod-4250=training\n' >"$tmp/pods.txt"
  check pod-conflict 0 env FAKE_NVML_FIXTURE="$fx/nvml/two_gpus.txt" "$wt" watch "${live[@]}" "${mm0[@]}" --proc-root "$tmp/proc" --declared-file "$tmp/pods.txt"
  expect pod-conflict-window 'jq -se "[.[] | select(.type == \"window\")] | last | .declared == null and .declared_conflict == \"pod:pod-4243=MINING (pid 4243); pod:pod-4250=TRAINING (pid 4250)\"" "$tmp/out" >/dev/null'
  expect pod-conflict-warned '[ "$(grep -c "GPU 0: declarations conflict, so none applies: pod:pod-4243=MINING (pid 4243); pod:pod-4250=TRAINING (pid 4250)" "$tmp/err")" -eq 1 ]'
  expect pod-conflict-no-alert '! grep -q "\"type\":\"mismatch\"" "$tmp/out"'
  # --job-by pod: PID 4243 (pod-4243) runs on both GPUs, so they are one job; GPU 1 reads
  # INFERENCE alone and takes the job's TRAINING.
  sed -e '/^pids 0 compute 4242,4243,4250/d' -e 's/^pids 0 compute 4242,4243$/&\npids 1 compute 4243/' "$fx/nvml/two_gpus.txt" |
    awk '$1 == "poll" && $2 == "1" && $3 != "lost" {$17 = 1} $1 == "poll" && $2 == "0" && $17 == 3 {$17 = 2} {print}' >"$tmp/one_pod.txt"
  both=(--backend nvml --interval 0.02 --samples 60 --window 0.2 --stride 0.1 --json --no-log --proc-root "$tmp/proc")
  check job-by-pod 1 env FAKE_NVML_FIXTURE="$tmp/one_pod.txt" "$wt" watch "${both[@]}" --job-by pod
  expect job-by-pod-groups 'jq -se "[.[] | select(.type == \"window\")] | all(.job_group == \"pod:pod-4243\") and (map(select(.gpu_index == 1)) | length > 0 and all(.job_type == \"TRAINING\"))" "$tmp/out" >/dev/null'
  check job-by-container 1 env FAKE_NVML_FIXTURE="$tmp/one_pod.txt" "$wt" watch "${both[@]}" --job-by container
  expect job-by-container-groups 'jq -se "[.[] | select(.type == \"window\")] | all(.job_group == \"container:000000000000\")" "$tmp/out" >/dev/null'
  # Slurm jobs from the processes' cgroup (cgroup v2 layout): PID 4243 in job 101.
  mkdir -p "$tmp/slurmproc/4243"
  echo python >"$tmp/slurmproc/4243/comm"
  echo "0::/system.slice/slurmstepd.scope/job_101/step_0/user/task_0" >"$tmp/slurmproc/4243/cgroup"
  slurm=(--backend nvml --interval 0.02 --samples 60 --window 0.2 --stride 0.1 --json --no-log --proc-root "$tmp/slurmproc")
  check job-by-slurm 1 env FAKE_NVML_FIXTURE="$tmp/one_pod.txt" "$wt" watch "${slurm[@]}" --job-by slurm
  expect job-by-slurm-groups 'jq -se "[.[] | select(.type == \"window\")] | length > 0 and all(.job_group == \"slurm:101\")" "$tmp/out" >/dev/null'
  check slurm-declared 1 env FAKE_NVML_FIXTURE="$tmp/one_pod.txt" "$wt" watch "${slurm[@]}" --declared slurm:101=inference
  expect slurm-declared-by 'jq -se "[.[] | select(.type == \"window\")] | length > 0 and all(.declared == \"INFERENCE\" and .declared_by == \"slurm:101\")" "$tmp/out" >/dev/null'
  check job-by-and-job 2 "$wt" watch --replay "$csv" --classifier rules --no-log --job a=0 --job-by pod
  echo "container:12ab=training" >"$tmp/short_id.txt"
  check container-key-bad 1 "$wt" watch --replay "$csv" --classifier rules --no-log --declared-file "$tmp/short_id.txt"
  expect container-key-bad-message 'grep -q "12 to 64 hex digits" "$tmp/err"'
fi

# Processes on AMD GPUs, from the driver's KFD list in a sysfs tree (--sys-root; fixtures/kfd)
# on the fake ROCm SMI library: PID 4243 (pod-4243) on GPU 0, 4250 (pod-4250) on GPU 1, 4301
# (no pod) on both. GPU 1 is gone after a few polls (the fixture).
if [ -f "$fx/rocm/mi250x_rocm5.txt" ]; then
  mkdir -p "$tmp/sys/class/kfd"
  ln -s "$fx/kfd/mi250x" "$tmp/sys/class/kfd/kfd"
  for pid in 4243 4250; do
    mkdir -p "$tmp/amdproc/$pid"
    echo python >"$tmp/amdproc/$pid/comm"
    printf 'KUBERNETES_SERVICE_HOST=10.0.0.1\0HOSTNAME=pod-%s\0' "$pid" >"$tmp/amdproc/$pid/environ"
  done
  amd=(--backend amd --interval 0.02 --samples 60 --window 0.2 --stride 0.1 --json --no-log --proc-root "$tmp/amdproc")
  check amd-pod-declared 1 env FAKE_RSMI_FIXTURE="$fx/rocm/mi250x_rocm5.txt" "$wt" watch "${amd[@]}" --sys-root "$tmp/sys" --declared pod:pod-4250=mining
  expect amd-pod-declared-gpu1 'jq -se "[.[] | select(.type == \"window\")] | (map(select(.gpu_index == 1)) | length > 0 and all(.declared == \"MINING\" and .declared_by == \"pod:pod-4250\")) and (map(select(.gpu_index == 0)) | length > 0 and all(.declared == null))" "$tmp/out" >/dev/null'
  check amd-job-by-pod 1 env FAKE_RSMI_FIXTURE="$fx/rocm/mi250x_rocm5.txt" "$wt" watch "${amd[@]}" --sys-root "$tmp/sys" --job-by pod
  expect amd-job-by-pod-groups 'jq -se "[.[] | select(.type == \"window\")] | (map(select(.gpu_index == 0)) | all(.job_group == \"pod:pod-4243\")) and (map(select(.gpu_index == 1)) | length > 0 and all(.job_group == \"pod:pod-4250\"))" "$tmp/out" >/dev/null'
  # No KFD where --sys-root points: the processes are unknown, so no pod key matches.
  check amd-no-kfd 1 env FAKE_RSMI_FIXTURE="$fx/rocm/mi250x_rocm5.txt" "$wt" watch "${amd[@]}" --sys-root "$tmp/nowhere" --declared pod:pod-4250=mining
  expect amd-no-kfd-undeclared 'jq -se "[.[] | select(.type == \"window\")] | length > 0 and all(.declared == null)" "$tmp/out" >/dev/null'
fi

# Live NVML (fake library) until SIGTERM: the last window is flushed, the log closes with a
# signed final checkpoint and verifies.
if [ -f "$fx/nvml/two_gpus.txt" ]; then
  "$wt" keygen --out "$tmp/k" >/dev/null
  FAKE_NVML_FIXTURE="$fx/nvml/two_gpus.txt" "$wt" watch --backend nvml --interval 0.05 --samples 0 --window 0.5 \
    --stride 0.25 --json --log "$tmp/live.log" --sign-key "$tmp/k.key" >"$tmp/out" 2>"$tmp/err" &
  pid=$!
  for _ in $(seq 300); do [ -s "$tmp/live.log" ] && break; sleep 0.1; done  # slow under ASan on a busy machine
  sleep 0.5
  kill -TERM $pid
  wait $pid
  rc=$?
  expect sigterm-exit "[ $rc -eq 1 ]"  # 1: the fixture's GPU 1 is lost on the way (a diagnostic)
  expect sigterm-end 'tail -1 "$tmp/out" | jq -e ".type == \"end\" and .reason == \"SIGTERM\" and .windows > 2" >/dev/null'
  check sigterm-log-verifies 0 "$wt" verify-log "$tmp/live.log" --pubkey "$tmp/k.pub"
  expect sigterm-final-checkpoint 'tail -1 "$tmp/live.log" | jq -e ".type == \"checkpoint\" and .final" >/dev/null'
fi

# A log fed through a pipe (as `nvidia-smi -l 1 | watch --replay /dev/stdin`) is watched as it
# comes: a window while the writer, still there, has gone quiet; then SIGINT is heeded at once.
mkfifo "$tmp/feed"
"$wt" watch --replay "$tmp/feed" --classifier rules --json --no-log >"$tmp/out" 2>"$tmp/err" &
pid=$!
exec 3>"$tmp/feed"
head -72 "$csv" >&3  # 35 s of both GPUs: a first 30 s window each
for _ in $(seq 100); do grep -q '"type":"window"' "$tmp/out" && break; sleep 0.1; done
expect pipe-window-while-open 'grep -q "\"type\":\"window\"" "$tmp/out"'
kill -INT $pid
for _ in $(seq 30); do kill -0 $pid 2>/dev/null || break; sleep 0.1; done
expect pipe-sigint-heeded '! kill -0 $pid 2>/dev/null'
kill -KILL $pid 2>/dev/null  # where it was not heeded, so that the checks go on
wait $pid
exec 3>&-
expect pipe-sigint-end 'tail -1 "$tmp/out" | jq -e ".type == \"end\" and .reason == \"SIGINT\"" >/dev/null'

# Three nodes' pipes: one sends a row and goes quiet, still open; one ends with nothing (a node
# down: said, and the others read on); the last one's windows come all the same (each pipe is
# read on its own), and SIGINT is heeded.
mkfifo "$tmp/quiet" "$tmp/busy" "$tmp/down"
"$wt" watch --replay nodeq="$tmp/quiet" --replay nodex="$tmp/down" --replay nodeb="$tmp/busy" --classifier rules \
  --json --no-log >"$tmp/out" 2>"$tmp/err" &
pid=$!
exec 5>"$tmp/down"
exec 5>&-
exec 3>"$tmp/quiet"
printf '%s\n' "$(head -1 "$csv")" \
  "2024/05/01 10:00:00.000, 0, GPU-qqqq-0000, NVIDIA A100-SXM4-40GB, 0 %, 0 %, 4 MiB, 40960 MiB, 36 W, 30, 210 MHz, 1215 MHz, [N/A]" >&3
exec 4>"$tmp/busy"
head -72 "$csv" >&4
exec 4>&-
for _ in $(seq 100); do grep -q '"host":"nodeb"' "$tmp/out" && break; sleep 0.1; done
expect pipes-quiet-one-holds-back-none 'grep "\"type\":\"window\"" "$tmp/out" | grep -q "\"host\":\"nodeb\""'
expect pipes-node-down-said 'grep -q "down: no samples in 0 lines; the others are read on" "$tmp/err"'
kill -INT $pid
for _ in $(seq 30); do kill -0 $pid 2>/dev/null || break; sleep 0.1; done
expect pipes-sigint-heeded '! kill -0 $pid 2>/dev/null'
kill -KILL $pid 2>/dev/null
wait $pid
exec 3>&-
expect pipes-sigint-end 'tail -1 "$tmp/out" | jq -e ".type == \"end\" and .reason == \"SIGINT\"" >/dev/null'

# Prometheus metrics while watching a live (fake NVML) source: scraped mid-run, then SIGTERM.
metrics_url() {  # metrics_url STDERR_FILE: the URL a starting watch says it serves metrics on
  wait_for_line "$1" 's|.*serving metrics on \(https*://[^ ]*\)$|\1|p'
}
check metrics-bad-address 2 "$wt" watch --replay "$csv" --no-log --metrics-listen 127.0.0.1:http
check metrics-replay 0 "$wt" watch --replay "$csv" --classifier rules --no-log --metrics-listen 127.0.0.1:0
expect metrics-replay-said 'grep -q "serving metrics on http://127.0.0.1:[0-9]*/metrics" "$tmp/err"'
if [ -f "$fx/nvml/two_gpus.txt" ] && command -v python3 >/dev/null; then
  FAKE_NVML_FIXTURE="$fx/nvml/two_gpus.txt" "$wt" watch --backend nvml --interval 0.05 --samples 0 --window 0.5 \
    --stride 0.25 --no-log --plain --declared 0=inference --metrics-listen 127.0.0.1:0 >"$tmp/m.out" 2>"$tmp/m.err" &
  pid=$!
  url=$(metrics_url "$tmp/m.err")
  sleep 1.5  # a few windows
  check metrics-scrape 0 python3 -c 'import sys, urllib.request
r = urllib.request.urlopen(sys.argv[1], timeout=5)
print(r.headers["Content-Type"]); sys.stdout.write(r.read().decode())' "$url"
  expect metrics-content-type 'head -1 "$tmp/out" | grep -q "^text/plain; version=0.0.4"'
  expect metrics-verdict 'grep -Eq "^workloadtruth_job_verdict\{gpu=\"0\",uuid=\"[^\"]+\",name=\"[^\"]+\",class=\"[A-Z]+\"\} 1$" "$tmp/out"'
  expect metrics-windows 'grep -Eq "^workloadtruth_windows_total\{gpu=\"0\".*\} [1-9]" "$tmp/out"'
  expect metrics-declared 'grep -q "^workloadtruth_declared_info{gpu=\"0\".*class=\"INFERENCE\"} 1$" "$tmp/out" && grep -q "^workloadtruth_declared_mismatch{gpu=\"0\"" "$tmp/out"'
  kill -TERM $pid
  wait $pid
  rc=$?
  expect metrics-sigterm-exit "[ $rc -eq 1 ]"  # 1: the fixture's GPU 1 is lost on the way (a diagnostic)
else
  echo "skip: no fake NVML fixture or no python3, so no live metrics scrape"
fi

# Who may scrape: flags that do not go together, then https with a client certificate and a token.
printf 's3cret\n' >"$tmp/token"
printf 'prometheus:pw\n' >"$tmp/basic"
: >"$tmp/empty-token"
check metrics-access-without-listen 2 "$wt" watch --replay "$csv" --no-log --metrics-bearer-token-file "$tmp/token"
expect metrics-access-without-listen-says-why 'grep -q "need --metrics-listen" "$tmp/err"'
check metrics-token-and-basic 2 "$wt" watch --replay "$csv" --no-log --metrics-listen 127.0.0.1:0 \
  --metrics-bearer-token-file "$tmp/token" --metrics-basic-auth-file "$tmp/basic"
expect metrics-token-and-basic-says-why 'grep -q "cannot be combined" "$tmp/err"'
check metrics-empty-token 1 "$wt" watch --replay "$csv" --no-log --metrics-listen 127.0.0.1:0 \
  --metrics-bearer-token-file "$tmp/empty-token"
expect metrics-empty-token-says-why 'grep -q "empty-token: the bearer token file is empty" "$tmp/err"'
check metrics-token-over-http 0 "$wt" watch --replay "$csv" --classifier rules --no-log --metrics-listen 127.0.0.1:0 \
  --metrics-bearer-token-file "$tmp/token"
expect metrics-token-over-http-warned 'grep -q "the metrics credentials travel in clear text" "$tmp/err"'
if [ -f "$fx/nvml/two_gpus.txt" ] && command -v python3 >/dev/null && command -v openssl >/dev/null; then
  make_test_certs "$tmp"  # the endpoint's certificate (for 127.0.0.1) and the scraper's
  check metrics-cert-without-key 2 "$wt" watch --replay "$csv" --no-log --metrics-listen 127.0.0.1:0 \
    --metrics-cert-file "$tmp/server.pem"
  expect metrics-cert-without-key-says-why 'grep -q "\-\-metrics-cert-file and --metrics-key-file go together" "$tmp/err"'
  check metrics-client-ca-without-tls 2 "$wt" watch --replay "$csv" --no-log --metrics-listen 127.0.0.1:0 \
    --metrics-client-ca-file "$tmp/ca.pem"
  expect metrics-client-ca-without-tls-says-why 'grep -q "\-\-metrics-client-ca-file needs --metrics-cert-file" "$tmp/err"'
  check metrics-wrong-key 1 "$wt" watch --replay "$csv" --no-log --metrics-listen 127.0.0.1:0 \
    --metrics-cert-file "$tmp/server.pem" --metrics-key-file "$tmp/client.key"
  expect metrics-wrong-key-says-why 'grep -q "cannot load the metrics certificate and its key" "$tmp/err"'
  FAKE_NVML_FIXTURE="$fx/nvml/two_gpus.txt" "$wt" watch --backend nvml --interval 0.05 --samples 0 --window 0.5 \
    --stride 0.25 --no-log --plain --metrics-listen 127.0.0.1:0 --metrics-cert-file "$tmp/server.pem" \
    --metrics-key-file "$tmp/server.key" --metrics-client-ca-file "$tmp/ca.pem" \
    --metrics-bearer-token-file "$tmp/token" >"$tmp/s.out" 2>"$tmp/s.err" &
  pid=$!
  url=$(metrics_url "$tmp/s.err")
  expect metrics-https-said '[ -n "$url" ]'
  sleep 1
  # scrape URL [CLIENT-CERT [TOKEN]]: prints the HTTP status, then the body.
  scrape='import ssl, sys, urllib.error, urllib.request
tls = ssl.create_default_context(cafile=sys.argv[2])
if len(sys.argv) > 3: tls.load_cert_chain(sys.argv[3], sys.argv[4])
req = urllib.request.Request(sys.argv[1])
if len(sys.argv) > 5: req.add_header("Authorization", "Bearer " + sys.argv[5])
try:
    r = urllib.request.urlopen(req, timeout=5, context=tls)
    print(r.status); sys.stdout.write(r.read().decode())
except urllib.error.HTTPError as e:
    print(e.code)'
  check metrics-mtls-scrape 0 python3 -c "$scrape" "$url" "$tmp/ca.pem" "$tmp/client.pem" "$tmp/client.key" s3cret
  expect metrics-mtls-scraped 'head -1 "$tmp/out" | grep -qx 200 && grep -q "^workloadtruth_job_verdict{gpu=\"0\"" "$tmp/out"'
  check metrics-mtls-no-token 0 python3 -c "$scrape" "$url" "$tmp/ca.pem" "$tmp/client.pem" "$tmp/client.key"
  expect metrics-mtls-no-token-refused 'head -1 "$tmp/out" | grep -qx 401 && ! grep -q workloadtruth_ "$tmp/out"'
  check metrics-mtls-no-client-cert 1 python3 -c "$scrape" "$url" "$tmp/ca.pem"
  expect metrics-mtls-no-client-cert-refused '! grep -q workloadtruth_ "$tmp/out"'
  # The token rotated while watch runs (renamed over, as a secret store does): the next scrape needs the new one.
  printf 'n3w\n' >"$tmp/token.new" && mv "$tmp/token.new" "$tmp/token"
  check metrics-rotated-old-token 0 python3 -c "$scrape" "$url" "$tmp/ca.pem" "$tmp/client.pem" "$tmp/client.key" s3cret
  expect metrics-rotated-old-token-refused 'head -1 "$tmp/out" | grep -qx 401'
  check metrics-rotated-new-token 0 python3 -c "$scrape" "$url" "$tmp/ca.pem" "$tmp/client.pem" "$tmp/client.key" n3w
  expect metrics-rotated-new-token-taken 'head -1 "$tmp/out" | grep -qx 200'
  expect metrics-rotated-said 'grep -q "^workloadtruth: the metrics endpoint reloaded its credentials: a file changed$" "$tmp/s.err"'
  kill -TERM $pid
  wait $pid
else
  echo "skip: no fake NVML fixture, python3 or openssl, so no https metrics scrape"
fi

report "watch cli"
