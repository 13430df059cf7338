#!/usr/bin/env bash
# End-to-end checks of the workloadtruth binary: exit codes, JSON shapes, messages.
# Usage: cli_test.sh BINARY FIXTURE_DIR   (LD_LIBRARY_PATH points at the fake NVML library)
set -u
wt=$1
fx=$2
source "$(dirname "$0")/cli_checks.sh"

check version 0 "$wt" --version
expect version-text 'grep -Eq "^workloadtruth [0-9]+\.[0-9]+\.[0-9]+$" "$tmp/out"'
for cmd in "" classify record keygen verify-log report train benchmark calibrate mcp; do
  check "help $cmd" 0 "$wt" $cmd --help
  expect "help-json $cmd" 'grep -q -- "--json" "$tmp/out" || [ -z "$cmd" ]'
done
check no-command 2 "$wt"
check mcp-key-without-log 2 "$wt" mcp --sign-key "$tmp/none.key" </dev/null
check mcp-missing-key 1 "$wt" mcp --audit-log "$tmp/mcp.log.jsonl" --sign-key "$tmp/none.key" </dev/null
expect mcp-missing-key-stdout-clean '[ ! -s "$tmp/out" ] && grep -q none.key "$tmp/err"'
echo secret > "$tmp/mcp.token"
check mcp-credentials-without-url 2 "$wt" mcp --bearer-token-file "$tmp/mcp.token" </dev/null
: > "$tmp/mcp.empty-token"
check mcp-empty-token 1 "$wt" mcp --url http://127.0.0.1:1 --bearer-token-file "$tmp/mcp.empty-token" </dev/null
expect mcp-empty-token-named 'grep -q "mcp.empty-token: the bearer token file is empty" "$tmp/err"'
check unknown-flag 2 "$wt" classify --bogus
check bad-profile 2 "$wt" classify --backend synthetic --profile mining
check stride-over-window 2 "$wt" classify --backend synthetic --window 10 --stride 20
# CLI::Range alone lets "nan" through; every floating-point flag is checked for a finite number.
check nan-window 2 "$wt" classify --backend sim --window nan
expect nan-window-named 'grep -q -- "--window: Value nan is not a finite number" "$tmp/err"'
check nan-interval 2 "$wt" classify --backend sim --scenario training/pretrain --interval nan
check inf-mismatch-confidence 2 "$wt" watch --backend sim --mismatch-confidence inf --samples 40 --interval 0
expect inf-mismatch-confidence-named 'grep -q -- "--mismatch-confidence: Value inf is not a finite number" "$tmp/err"'
check nan-real-weight 2 "$wt" train --real-weight nan --out "$tmp/nan.model.json"
expect nan-real-weight-nothing-written '[ ! -e "$tmp/nan.model.json" ]'
# A file whose every data line is bad stops on "no samples", naming the first bad line and why.
printf 'timestamp, index, utilization.gpu [%%], power.draw [W]\n2024/01/01 00:00:00.000, 0, 5 %%, 1e15 W\n2024/01/01 00:00:01.000, 0, 500 %%, 100 W\n' >"$tmp/all_bad.csv"
check all-lines-bad 1 "$wt" classify "$tmp/all_bad.csv" --json
expect all-lines-bad-named 'jq -e ".exit_code == 1 and (.error | contains(\"all_bad.csv:2: power.draw [W]: 1e+15 is outside the plausible range\") and contains(\"(and 1 more)\"))" "$tmp/out" >/dev/null'
echo "an earlier recording" >"$tmp/kept.csv"
check record-all-lines-bad 1 "$wt" record --replay "$tmp/all_bad.csv" --out "$tmp/kept.csv"
expect record-all-lines-bad-keeps-out '[ "$(cat "$tmp/kept.csv")" = "an earlier recording" ] && grep -q "all_bad.csv:2" "$tmp/err"'

# Seed parity: the synthetic object and its fields, with the seed rules.
check synthetic-json 0 "$wt" classify --backend synthetic --profile training --samples 30 --interval 0 --classifier rules --json
expect synthetic-fields 'jq -e "(keys == [\"confidence\",\"features\",\"gpu_index\",\"reasons\",\"sample_count\",\"window_seconds\",\"workload_type\"]) and .workload_type == \"TRAINING\" and .sample_count == 30 and .window_seconds == 29" "$tmp/out" >/dev/null'
expect synthetic-features 'jq -e ".features | has(\"avg_gpu_util_pct\") and has(\"std_gpu_util_pct\") and has(\"mem_growth_mib_per_sample\") and has(\"avg_power_watts\") and has(\"std_power_watts\") and has(\"avg_process_count\")" "$tmp/out" >/dev/null'
check synthetic-idle 0 "$wt" classify --backend synthetic --profile idle --samples 30 --interval 0 --classifier rules --json
expect synthetic-idle-type 'jq -e ".workload_type == \"IDLE\"" "$tmp/out" >/dev/null'
check synthetic-text 0 "$wt" classify --backend synthetic --profile inference --samples 30 --interval 0 --classifier rules
expect synthetic-text-verdict 'grep -q INFERENCE "$tmp/out" && grep -q "signal to investigate" "$tmp/out"'

# Replay: every GPU, windows, the documented JSON shape (the fixture was made for the seed rules).
check replay-json 0 "$wt" classify --replay "$fx/csv/two_gpus.csv" --classifier rules --json
expect replay-shape 'jq -e "(.source | startswith(\"replay:\")) and (.gpus | length == 2) and .gpus[0].workload_type == \"TRAINING\" and .gpus[1].workload_type == \"IDLE\" and (.gpus[0].windows[0] | has(\"start\") and has(\"end\") and has(\"workload_type\") and has(\"confidence\")) and (.gpus[0] | has(\"uuid\") and has(\"name\") and has(\"reasons\") and has(\"features\"))" "$tmp/out" >/dev/null'
check replay-text 0 "$wt" classify --replay "$fx/csv/two_gpus.csv" --classifier rules
expect replay-text-lines 'grep -q "^0 .*TRAINING" "$tmp/out" && grep -q "^1 .*IDLE" "$tmp/out" && grep -q "note: .*fan.speed" "$tmp/err"'
cp "$tmp/out" "$tmp/replay-text.out"
check replay-positional 0 "$wt" classify "$fx/csv/two_gpus.csv" --classifier rules
expect replay-positional-same 'cmp -s "$tmp/out" "$tmp/replay-text.out"'
check replay-positional-and-flag 2 "$wt" classify "$fx/csv/two_gpus.csv" --replay "$fx/csv/two_gpus.csv"
# Several nodes' logs: one fleet, each file's GPUs named after the file, a job across them.
cp "$fx/csv/two_gpus.csv" "$tmp/node-a.csv"
sed -e 's/GPU-aaaa-0000/GPU-cccc-2222/' -e 's/GPU-bbbb-1111/GPU-dddd-3333/' "$fx/csv/two_gpus.csv" >"$tmp/node-b.csv"
check fleet-files 0 "$wt" classify "$tmp/node-a.csv" "$tmp/node-b.csv" --classifier rules --job trainers=node-a/0,node-b/0 --json
expect fleet-files-named 'jq -e "([.gpus[] | .host + \"/\" + (.gpu_index | tostring)] == [\"node-a/0\", \"node-a/1\", \"node-b/0\", \"node-b/1\"]) and .jobs[0].workload_type == \"TRAINING\"" "$tmp/out" >/dev/null'
check fleet-files-flags 0 "$wt" classify --replay "$tmp/node-a.csv" --replay "$tmp/node-b.csv" --classifier rules
expect fleet-files-flags-text 'grep -q "^node-b/1 .*IDLE" "$tmp/out"'
# A file may name its node (a pipe from ssh has no name worth keeping).
check fleet-files-named-nodes 0 "$wt" classify "gpu-a=$tmp/node-a.csv" "gpu-b=$tmp/node-b.csv" --classifier rules --json
expect fleet-files-named-nodes-hosts 'jq -e "[.gpus[].host] == [\"gpu-a\", \"gpu-a\", \"gpu-b\", \"gpu-b\"]" "$tmp/out" >/dev/null'
# A dcgmi dmon log: detected, or named; it carries no time, so --interval is needed.
check dcgmi-dmon 0 "$wt" classify "$fx/dcgmi/dmon.txt" --format dcgmi-dmon --interval 1 --json
expect dcgmi-dmon-gpus 'jq -e "[.gpus[].gpu_index] == [0, 1]" "$tmp/out" >/dev/null'
check dcgmi-dmon-needs-interval 1 "$wt" classify "$fx/dcgmi/dmon.txt"
expect dcgmi-dmon-needs-interval-says-why 'grep -q "dcgmi dmon output carries no timestamps; give --interval" "$tmp/err"'
# Nodes' pipes: one that gives nothing (a node down) is said, and the others are classified.
check fleet-pipe-node-down 1 "$wt" classify up=<(cat "$tmp/node-a.csv") down=<(true) --classifier rules --json
expect fleet-pipe-node-down-read-on 'jq -e "[.gpus[].host] == [\"up\", \"up\"]" "$tmp/out" >/dev/null && grep -q "^error: down: /dev/fd/[0-9]*: no samples in 0 lines; the others are read on" "$tmp/err"'
check fleet-pipes-all-down 3 "$wt" classify a=<(true) b=<(true) --classifier rules
expect fleet-pipes-all-down-says-why '[ "$(grep -c "no samples in 0 lines; the others are read on" "$tmp/err")" -eq 2 ]'
# A bad line in a node's pipe is named after the node: its path (/dev/fd/63) says nothing.
check fleet-pipe-bad-line 1 "$wt" classify up=<(cat "$tmp/node-a.csv"; echo "garbage") --classifier rules
expect fleet-pipe-bad-line-names-the-node 'grep -Eq "^error: up: /dev/fd/[0-9]+:[0-9]+: " "$tmp/err"'
check fleet-files-same-name 2 "$wt" classify "$tmp/node-a.csv" "$fx/csv/../csv/two_gpus.csv" "$tmp/../$(basename "$tmp")/node-a.csv"
expect fleet-files-same-name-says-why 'grep -q "would both name their GPUs node-a/INDEX: .*or name each one.s node (NODE=FILE)" "$tmp/err"'
# --job: GPUs the operator says run one job get one verdict from all their windows.
check job-text 0 "$wt" classify "$fx/csv/two_gpus.csv" --classifier rules --job node=all
expect job-text-row 'grep -Eq "^node +0-1 +TRAINING " "$tmp/out" && grep -q "its GPUs on their own: TRAINING 1, IDLE 1" "$tmp/out"'
check job-json 1 "$wt" classify "$fx/csv/two_gpus.csv" --classifier rules --job a=0 --job b=1,7 --json
expect job-json-shape 'jq -e "(.jobs | length == 2) and .jobs[0].job == \"a\" and .jobs[0].workload_type == \"TRAINING\" and .jobs[1].gpu_indices == [1] and .jobs[1].gpu_verdicts == {\"IDLE\": 1} and (.errors | any(.where == \"job b\" and .message == \"GPU 7 is not in the source\"))" "$tmp/out" >/dev/null'
check job-overlap 2 "$wt" classify "$fx/csv/two_gpus.csv" --job a=0-1 --job b=1
expect job-overlap-says 'grep -q "GPU 1 is in two jobs" "$tmp/err"'
check job-bad-spec 2 "$wt" classify "$fx/csv/two_gpus.csv" --job train
check job-synthetic 2 "$wt" classify --backend synthetic --job a=0
check job-by-and-job 2 "$wt" classify "$fx/csv/two_gpus.csv" --job a=0 --job-by pod
check proc-root-without-job-by 2 "$wt" classify "$fx/csv/two_gpus.csv" --proc-root /proc
check sys-root-without-job-by 2 "$wt" classify "$fx/csv/two_gpus.csv" --sys-root /host/sys
check sys-root-not-amd 2 "$wt" watch --replay "$fx/csv/two_gpus.csv" --classifier rules --no-log --sys-root /host/sys
expect sys-root-not-amd-says-why 'grep -q "\-\-sys-root is for --backend amd or auto" "$tmp/err"'
check job-by-trace 0 "$wt" classify "$fx/csv/two_gpus.csv" --classifier rules --job-by slurm --json
expect job-by-trace-note 'jq -e ".jobs == null" "$tmp/out" >/dev/null && grep -q "note: jobs by slurm: the source lists no process on any GPU" "$tmp/err"'
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

# nvidia-smi dmon logs: detected, timed from -o DT, or spaced by --interval when they carry no time.
check dmon-json 0 "$wt" classify "$fx/dmon/dt_two_gpus.log" --json
expect dmon-gpus 'jq -e "(.gpus | length == 2) and .gpus[1].workload_type == \"IDLE\" and .gpus[0].start == \"2026-11-30T23:59:58.000\"" "$tmp/out" >/dev/null'
expect dmon-note 'grep -q "ignoring columns the classifier does not use: mtemp, enc, dec, bar1" "$tmp/err"'
check dmon-no-time 1 "$wt" classify "$fx/dmon/no_time.log"
expect dmon-no-time-says-why 'grep -q "no_time.log:3: nvidia-smi dmon output without a time column (record it with -o DT, or give --interval" "$tmp/err"'
check dmon-interval 0 "$wt" classify "$fx/dmon/no_time.log" --interval 1 --json
expect dmon-interval-gpus 'jq -e ".gpus | length == 2" "$tmp/out" >/dev/null'
check dmon-gpu-model 0 "$wt" classify "$fx/dmon/dt_two_gpus.log" --gpu-model a100-sxm4-80gb --json
expect dmon-gpu-model-named 'jq -e "[.gpus[].name] == [\"NVIDIA A100-SXM4-80GB\", \"NVIDIA A100-SXM4-80GB\"]" "$tmp/out" >/dev/null'
check dmon-unknown-gpu-model 2 "$wt" classify "$fx/dmon/dt_two_gpus.log" --gpu-model "Voodoo 2"
check gpu-model-wrong-backend 2 "$wt" classify --backend nvml --gpu-model "NVIDIA H100 80GB HBM3"
expect gpu-model-wrong-backend-says-why 'grep -q "\-\-gpu-model is for --backend sim or replay, not nvml" "$tmp/err"'
check dmon-noheader 0 "$wt" classify "$fx/dmon/csv_noheader.log" --columns Date,Time,gpu,pwr,gtemp,sm,mem,fb --json
expect dmon-noheader-gpus 'jq -e "(.gpus | length == 2) and .gpus[0].start == \"2026-12-01T10:00:00.000\"" "$tmp/out" >/dev/null'
check dmon-noheader-without-columns 1 "$wt" classify "$fx/dmon/csv_noheader.log" --format dmon
expect dmon-noheader-says-what-to-give 'grep -q "csv_noheader.log: not nvidia-smi dmon output .*give its --columns" "$tmp/err"'
check columns-for-jsonl 2 "$wt" classify "$fx/dmon/csv_noheader.log" --format jsonl --columns timestamp,index
expect columns-for-jsonl-refused 'grep -q "\-\-columns is for nvidia-smi CSV or dmon output" "$tmp/err"'
check dmon-bad 1 "$wt" classify "$fx/dmon/bad.log" --format dmon --json
expect dmon-bad-named 'jq -e "[.errors[].where] | index(\"$fx/dmon/bad.log:5\") != null" "$tmp/out" >/dev/null'
# --interval where every row carries its time: refused for CSV (never used), noted for a dmon log.
check interval-csv-refused 2 "$wt" classify "$fx/csv/two_gpus.csv" --interval 1
expect interval-csv-says-why 'grep -q "two_gpus.csv: --interval has no effect on an nvidia-smi CSV log, whose rows carry their own timestamps" "$tmp/err"'
check interval-dmon-timed-noted 0 "$wt" classify "$fx/dmon/dt_two_gpus.log" --interval 1
expect interval-dmon-timed-note 'grep -q "dt_two_gpus.log: --interval was not used: every row of the file carries its own time" "$tmp/err"'

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
  # SIGTERM (or Ctrl-C) ends a live recording with every sample taken written out, exit 0.
  # The signal goes once the output file exists (the handler is set before it is opened) and a few
  # polls have had time to run, not after a fixed delay that a loaded sanitizer build can outlast
  # before it reaches main.
  record_then_term() {
    FAKE_NVML_FIXTURE="$fx/nvml/two_gpus.txt" "$wt" record --backend nvml --gpu 0 --samples 100000 \
      --interval 0.05 --out "$tmp/stopped.csv" --json &
    local pid=$! i
    for i in $(seq 300); do [ -e "$tmp/stopped.csv" ] && break; sleep 0.1; done
    sleep 0.5
    kill -TERM $pid
    wait $pid
  }
  check nvml-record-stopped 0 record_then_term
  expect nvml-record-stopped-whole 'jq -e ".stopped_by == \"SIGTERM\" and .samples > 2" "$tmp/out" >/dev/null &&
    [ $(($(wc -l <"$tmp/stopped.csv") - 1)) -eq $(jq .samples "$tmp/out") ]'
  check nvml-init-error 3 env FAKE_NVML_FIXTURE="$fx/nvml/two_gpus.txt" FAKE_NVML_INIT_ERROR=9 "$wt" classify --backend nvml --samples 3 --interval 0.01
  # --job-by slurm: PID 4243 (Slurm job 101, from its cgroup) is the process both GPUs last list.
  mkdir -p "$tmp/proc/4243" "$tmp/proc/4250"
  echo "0::/system.slice/slurmstepd.scope/job_101/step_0/user/task_0" >"$tmp/proc/4243/cgroup"
  echo "4:devices:/slurm/uid_1000/job_202/step_0/task_0" >"$tmp/proc/4250/cgroup"
  sed -e '/^pids 0 compute 4242,4243,4250/d' -e 's/^pids 0 compute 4242,4243$/&\npids 1 compute 4243/' "$fx/nvml/two_gpus.txt" |
    awk '$1 == "poll" && $2 == "1" && $3 != "lost" {$17 = 1} $1 == "poll" && $2 == "0" && $17 == 3 {$17 = 2} {print}' >"$tmp/one_job.txt"
  live=(--backend nvml --samples 60 --interval 0.02 --window 0.2 --stride 0.1 --proc-root "$tmp/proc")
  check nvml-job-by-slurm 1 env FAKE_NVML_FIXTURE="$tmp/one_job.txt" "$wt" classify "${live[@]}" --job-by slurm --json
  expect nvml-job-by-slurm-job 'jq -e "(.jobs | length == 1) and .jobs[0].job == \"slurm:101\" and .jobs[0].gpu_indices == [0,1] and .jobs[0].workload_type == \"TRAINING\"" "$tmp/out" >/dev/null'
  # The fixture's last list on GPU 0 holds jobs 101 and 202: the GPU belongs to neither.
  check nvml-job-by-two-jobs 1 env FAKE_NVML_FIXTURE="$fx/nvml/two_gpus.txt" "$wt" classify "${live[@]}" --job-by slurm
  expect nvml-job-by-two-jobs-note 'grep -q "note: jobs by slurm: no GPU.s processes all belong to one slurm" "$tmp/err"'
fi
check no-driver 3 env -u LD_LIBRARY_PATH "$wt" classify --backend nvml --samples 1
expect no-driver-message '[ $(wc -l <"$tmp/err") -eq 1 ] && grep -q "libnvidia-ml.so.1" "$tmp/err"'

# dcgm-exporter and Prometheus: nothing listening, usage errors, and a live scrape of the fixture
# page served by a few lines of python3 (where python3 is present).
check dcgm-refused 3 "$wt" classify --backend dcgm --url http://127.0.0.1:9/metrics --samples 1
expect dcgm-refused-message 'grep -q "http://127.0.0.1:9/metrics: no answer" "$tmp/err"'
check prometheus-refused 3 "$wt" classify --backend prometheus --url http://127.0.0.1:9 --last 1h
check dcgm-no-url 2 "$wt" classify --backend dcgm
check prometheus-no-range 2 "$wt" classify --backend prometheus --url http://127.0.0.1:9
check prometheus-bad-time 2 "$wt" classify --backend prometheus --url http://127.0.0.1:9 --start yesterday
expect prometheus-bad-time-message 'grep -q "is neither a time like 2026-12-03T10:00:00Z" "$tmp/err"'
check url-wrong-backend 2 "$wt" classify --backend nvml --url http://127.0.0.1:9
check range-wrong-backend 2 "$wt" classify --replay "$fx/csv/two_gpus.csv" --last 1h
expect range-wrong-backend-says-why 'grep -q "are for --backend prometheus, not replay" "$tmp/err"'
check auth-wrong-backend 2 "$wt" classify --replay "$fx/csv/two_gpus.csv" --basic-auth-file "$fx/csv/two_gpus.csv"
expect auth-wrong-backend-says-why 'grep -q "are for --backend dcgm or prometheus, not replay" "$tmp/err"'
check prometheus-interval 2 "$wt" classify --backend prometheus --url http://127.0.0.1:9 --last 1h --interval 5
# --follow is watch's and record's, for Prometheus, and reads on from now.
check follow-not-classify 2 "$wt" classify --backend prometheus --url http://127.0.0.1:9 --follow
check follow-other-backend 2 "$wt" watch --backend sim --duration 60 --follow --no-log
expect follow-other-backend-says-why 'grep -q "and --follow are for --backend prometheus, not sim" "$tmp/err"'
check follow-no-end 2 "$wt" record --backend prometheus --url http://127.0.0.1:9 --follow --end 2026-12-03T10:00:00Z --out "$tmp/f.csv"
expect follow-no-end-says-why 'grep -q "takes no --end" "$tmp/err" && ! test -e "$tmp/f.csv"'
if command -v python3 >/dev/null; then
  # Serves the fixture with each GPU's NVLink traffic counting up, so every scrape differs; given a
  # certificate, its key and a CA, over TLS that asks each client for a certificate from that CA.
  cat >"$tmp/exporter.py" <<'PY'
import http.server, ssl, sys
page = open(sys.argv[1]).read()
uuids = ["GPU-0e2a3c51-8b1f-4d5e-9a7c-1f2e3d4c5b6a", "GPU-7c9d1e2f-3a4b-4c5d-8e6f-0a1b2c3d4e5f"]
class Exporter(http.server.BaseHTTPRequestHandler):
    scrapes = 0
    def do_GET(self):
        if self.path.startswith("/secured/") and self.headers.get("Authorization") != "Bearer s3cret":
            self.send_response(401)
            self.end_headers()
            return
        Exporter.scrapes += 1
        body = page + "".join("DCGM_FI_PROF_NVLINK_TX_BYTES{gpu=\"%d\",UUID=\"%s\"} %d\n" % (i, u, Exporter.scrapes * 1000000) for i, u in enumerate(uuids))
        self.send_response(200)
        self.send_header("Content-Type", "text/plain; version=0.0.4")
        self.end_headers()
        self.wfile.write(body.encode())
    def do_POST(self):  # an OAuth 2 token endpoint: client "wt", secret "shh" (basic auth)
        self.rfile.read(int(self.headers.get("Content-Length", 0)))
        ok = self.path == "/token" and self.headers.get("Authorization") == "Basic d3Q6c2ho"
        body = '{"access_token":"s3cret","token_type":"Bearer","expires_in":3600}' if ok else '{"error":"invalid_client"}'
        self.send_response(200 if ok else 401)
        self.send_header("Content-Type", "application/json")
        self.end_headers()
        self.wfile.write(body.encode())
    def log_message(self, *args):
        pass
server = http.server.HTTPServer(("127.0.0.1", 0), Exporter)
if len(sys.argv) > 2:
    tls = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
    tls.load_cert_chain(sys.argv[2], sys.argv[3])
    tls.load_verify_locations(sys.argv[4])
    tls.verify_mode = ssl.CERT_REQUIRED
    server.socket = tls.wrap_socket(server.socket, server_side=True)
print("serving on port %d ." % server.server_port)
server.serve_forever()
PY
  start_exporter() {  # start_exporter LOG ARGS...: sets exporter_pid and port
    python3 -u "$tmp/exporter.py" "$fx/dcgm/two-a100.metrics" "${@:2}" >"$1" 2>&1 &
    exporter_pid=$!
    port=$(wait_for_line "$1" 's/.* port \([0-9]*\) .*/\1/p')
  }
  start_exporter "$tmp/http.log"
  check dcgm-json 0 "$wt" classify --backend dcgm --url "http://127.0.0.1:$port/metrics" --samples 4 --interval 0.01 --json
  expect dcgm-gpus 'jq -e "(.gpus | length == 2) and (.source | startswith(\"dcgm:\")) and .gpus[1].name == \"NVIDIA A100-SXM4-80GB\" and .gpus[1].host == \"gpu-node-7\"" "$tmp/out" >/dev/null'
  # GPUs carry the exporter's Hostname, and a job may name them by it.
  check dcgm-text 0 "$wt" classify --backend dcgm --url "http://127.0.0.1:$port/metrics" --samples 4 --interval 0.01 \
    --job pair=gpu-node-7/0-1
  expect dcgm-text-host 'grep -q "^gpu-node-7/1  NVIDIA A100-SXM4-80GB" "$tmp/out" && grep -q "^pair  gpu-node-7/0-1  " "$tmp/out"'
  check dcgm-job-other-host 1 "$wt" classify --backend dcgm --url "http://127.0.0.1:$port/metrics" --samples 4 \
    --interval 0.01 --job pair=gpu-node-8/0 --json
  expect dcgm-job-other-host-says 'jq -e "(.jobs | length == 0) and (.errors | any(.message == \"GPU gpu-node-8/0 is not in the source\"))" "$tmp/out" >/dev/null'
  # The exporter's pod label keys the declaration (GPU 0 runs pod llm-serve-7d9f).
  check dcgm-watch-pod 0 "$wt" watch --backend dcgm --url "http://127.0.0.1:$port/metrics" --samples 4 --interval 0.01 \
    --declared pod:llm-serve-7d9f=inference --no-log --json
  expect dcgm-watch-pod-declared 'jq -se "[.[] | select(.gpu_index == 0) | .declared_by] | index(\"pod:llm-serve-7d9f\") != null" "$tmp/out" >/dev/null'
  # Pods are named in their namespace: a key with another namespace does not match.
  check dcgm-watch-pod-namespace 0 "$wt" watch --backend dcgm --url "http://127.0.0.1:$port/metrics" --samples 4 \
    --interval 0.01 --declared pod:batch/llm-serve-7d9f=training,pod:serving/llm-serve-7d9f=inference --no-log --json
  expect dcgm-watch-pod-namespace-declared 'jq -se "[.[] | select(.gpu_index == 0) | .declared_by] | index(\"pod:serving/llm-serve-7d9f\") != null" "$tmp/out" >/dev/null'
  check dcgm-declared-label-wrong-backend 2 "$wt" watch --replay "$fx/csv/two_gpus.csv" --declared-label team --no-log
  expect dcgm-declared-label-wrong-backend-says-why 'grep -q "declared-label reads a label of dcgm-exporter.s series: it is for --backend dcgm or prometheus, not replay" "$tmp/err"'
  kill "$exporter_pid"
  # A pod label the exporter copies onto its GPU's series (--kubernetes-enable-pod-labels) declares
  # the GPU's workload: GPU 0's pod says inference; GPU 1's label names no type (ignored, said).
  sed -e 's/pod="llm-serve-7d9f"}/pod="llm-serve-7d9f",workloadtruth_io_declared="inference"}/' \
    -e 's/pod=""}/pod="",workloadtruth_io_declared="serving"}/' "$fx/dcgm/two-a100.metrics" >"$tmp/labelled.metrics"
  python3 -u "$tmp/exporter.py" "$tmp/labelled.metrics" >"$tmp/labelled.log" 2>&1 &
  exporter_pid=$!
  port=$(wait_for_line "$tmp/labelled.log" 's/.* port \([0-9]*\) .*/\1/p')
  check dcgm-declared-label 0 "$wt" watch --backend dcgm --url "http://127.0.0.1:$port/metrics" --samples 4 \
    --interval 0.01 --declared-label workloadtruth.io/declared --no-log --json
  expect dcgm-declared-label-declares 'jq -se "([.[] | select(.gpu_index == 0) | .declared_by] | unique) == [\"label:workloadtruth.io/declared\"] and ([.[] | select(.gpu_index == 0) | .declared] | unique) == [\"INFERENCE\"] and ([.[] | select(.gpu_index == 1) | .declared] | unique) == [null]" "$tmp/out" >/dev/null'
  expect dcgm-declared-label-odd-value-said-once '[ "$(grep -c "GPU gpu-node-7/1: label:workloadtruth.io/declared says .serving., not a workload type" "$tmp/err")" -eq 1 ]'
  # The operator's word wins over the workload's.
  check dcgm-declared-label-overridden 0 "$wt" watch --backend dcgm --url "http://127.0.0.1:$port/metrics" --samples 4 \
    --interval 0.01 --declared-label workloadtruth.io/declared --declared 0=training --no-log --json
  expect dcgm-declared-label-overridden-by-flag 'jq -se "([.[] | select(.gpu_index == 0) | .declared_by] | unique) == [\"0\"]" "$tmp/out" >/dev/null'
  kill "$exporter_pid"
  start_exporter "$tmp/http.log"
  check dcgm-job-by-pod 0 "$wt" classify --backend dcgm --url "http://127.0.0.1:$port/metrics" --samples 4 \
    --interval 0.01 --job-by pod --json
  expect dcgm-job-by-pod-named 'jq -e "(.jobs | length == 1) and .jobs[0].job == \"pod:serving/llm-serve-7d9f\" and .jobs[0].gpu_indices == [0]" "$tmp/out" >/dev/null'
  check dcgm-record 0 "$wt" record --backend dcgm --url "http://127.0.0.1:$port/metrics" --samples 1 --out "$tmp/dcgm.csv"
  expect dcgm-record-power 'grep -q "352.918" "$tmp/dcgm.csv"'
  # An exporter behind a bearer token: said so without one, read with the token's file.
  check dcgm-secured-no-token 1 "$wt" classify --backend dcgm --url "http://127.0.0.1:$port/secured/metrics" --samples 1
  expect dcgm-secured-says-why 'grep -q "HTTP status 401: the server asks for credentials (--bearer-token-file" "$tmp/err"'
  printf 's3cret\n' >"$tmp/token"
  check dcgm-secured-token 0 "$wt" classify --backend dcgm --url "http://127.0.0.1:$port/secured/metrics" --samples 4 \
    --interval 0.01 --bearer-token-file "$tmp/token" --json
  expect dcgm-secured-gpus 'jq -e ".gpus | length == 2" "$tmp/out" >/dev/null'
  # The same token from an OAuth 2 token endpoint (client credentials).
  oauth=(--oauth2-token-url "http://127.0.0.1:$port/token" --oauth2-client-id wt --oauth2-client-secret-file "$tmp/secret")
  printf 'shh\n' >"$tmp/secret"
  check dcgm-oauth2 0 "$wt" classify --backend dcgm --url "http://127.0.0.1:$port/secured/metrics" --samples 4 \
    --interval 0.01 "${oauth[@]}" --oauth2-scope metrics --json
  expect dcgm-oauth2-gpus 'jq -e ".gpus | length == 2" "$tmp/out" >/dev/null'
  printf 'wrong\n' >"$tmp/secret"
  check dcgm-oauth2-refused 1 "$wt" classify --backend dcgm --url "http://127.0.0.1:$port/secured/metrics" --samples 1 \
    "${oauth[@]}"
  expect dcgm-oauth2-refused-says-why 'grep -q "token endpoint answered HTTP status 401: invalid_client" "$tmp/err"'
  check dcgm-oauth2-no-url 2 "$wt" classify --backend dcgm --url "http://127.0.0.1:$port/secured/metrics" --samples 1 \
    --oauth2-client-id wt
  expect dcgm-oauth2-no-url-says-why 'grep -q "need --oauth2-token-url" "$tmp/err"'
  kill "$exporter_pid"
  if command -v openssl >/dev/null; then
    make_test_certs "$tmp"  # mutual TLS: the server's certificate (for 127.0.0.1) and the client's
    start_exporter "$tmp/https.log" "$tmp/server.pem" "$tmp/server.key" "$tmp/ca.pem"
    https="https://127.0.0.1:$port/metrics"
    check mtls-untrusted-server 3 "$wt" classify --backend dcgm --url "$https" --samples 1
    expect mtls-untrusted-server-says-why 'grep -q "could not be verified; --ca-file names the CA" "$tmp/err"'
    check mtls-no-client-cert 3 "$wt" classify --backend dcgm --url "$https" --samples 1 --ca-file "$tmp/ca.pem"
    expect mtls-no-client-cert-says-why 'grep -q "needs --cert-file and --key-file" "$tmp/err"'
    check mtls-cert-without-key 2 "$wt" classify --backend dcgm --url "$https" --samples 1 --ca-file "$tmp/ca.pem" \
      --cert-file "$tmp/client.pem"
    expect mtls-cert-without-key-says-why 'grep -q "\-\-cert-file and --key-file go together" "$tmp/err"'
    check mtls-wrong-key 1 "$wt" classify --backend dcgm --url "$https" --samples 1 --ca-file "$tmp/ca.pem" \
      --cert-file "$tmp/client.pem" --key-file "$tmp/server.key"
    expect mtls-wrong-key-says-why 'grep -q "cannot load the client certificate and its key" "$tmp/err"'
    check mtls 0 "$wt" classify --backend dcgm --url "$https" --samples 4 --interval 0.01 --ca-file "$tmp/ca.pem" \
      --cert-file "$tmp/client.pem" --key-file "$tmp/client.key" --json
    expect mtls-gpus 'jq -e ".gpus | length == 2" "$tmp/out" >/dev/null'
    check mtls-cert-over-http 2 "$wt" classify --backend dcgm --url "http://127.0.0.1:$port/metrics" --samples 1 \
      --cert-file "$tmp/client.pem" --key-file "$tmp/client.key"
    expect mtls-cert-over-http-says-why 'grep -q "are for an https:// server" "$tmp/err"'
    kill "$exporter_pid"
  else
    echo "skip: openssl not found, so no certificates for the mutual-TLS checks"
  fi
else
  echo "skip: python3 not found, so no HTTP server for the live dcgm-exporter checks"
fi

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

# The project's own real H200 recordings (data/real-h200): our NVML recorder's file reads back
# whole, and the programme's files are labelled by name, 14 GPUs of one source.
h200="$fx/../../data/real-h200"
check real-h200-replay 0 "$wt" classify --replay "$h200/recordings/wt_record_programme_35s.csv" --json
expect real-h200-replay-whole 'jq -e ".errors == [] and .gpus[0].sample_count == 4265 and .gpus[0].name == \"NVIDIA H200\"" "$tmp/out" >/dev/null'
check real-h200-benchmark 0 "$wt" benchmark --trials 1 --duration 60 --real "$h200" --json
expect real-h200-labels 'jq -e ".real[0].by_source.h200.xgboost.accuracy.job_count == 14 and (.real[0].by_label | keys == [\"HPC\",\"IDLE\",\"INFERENCE\",\"MINING\",\"TRAINING\"])" "$tmp/out" >/dev/null'

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
check legacy-profile 0 "$wt" classify --backend synthetic --profile legacy-training --samples 30 --interval 0 --classifier rules --json
expect legacy-profile-type 'jq -e ".workload_type == \"TRAINING\"" "$tmp/out" >/dev/null'
# Audit log: keys, and verify-log on logs the seed tool wrote (signed logs: audit_log_test.cpp).
check keygen 0 "$wt" keygen --out "$tmp/k" --json
expect keygen-files 'jq -e ".private_key == \"$tmp/k.key\" and (.key_id | length == 64)" "$tmp/out" >/dev/null && [ "$(stat -c %a "$tmp/k.key")" = 600 ] && [ -f "$tmp/k.pub" ]'
check keygen-no-overwrite 1 "$wt" keygen --out "$tmp/k"
expect keygen-no-overwrite-message 'grep -q "k.key: already exists; refusing to overwrite" "$tmp/err"'
check keygen-no-out 2 "$wt" keygen
check verify-seed 0 "$wt" verify-log "$fx/audit/seed_log.jsonl"
expect verify-seed-text 'grep -qx "\[OK\] chain verified, 3 entries" "$tmp/out"'
check verify-seed-json 0 "$wt" verify-log "$fx/audit/seed_log_sorted.jsonl" --json
expect verify-seed-shape 'jq -e ".valid and .entries == 3 and .first_bad_line == null and .kind == null and .message == \"chain verified, 3 entries\"" "$tmp/out" >/dev/null'
sed '2s/"INFERENCE"/"TRAINING"/' "$fx/audit/seed_log.jsonl" >"$tmp/edited.jsonl"
check verify-edited 1 "$wt" verify-log "$tmp/edited.jsonl"
expect verify-edited-text 'grep -q "^\[TAMPERED\] line 2: edited: entry_hash does not match" "$tmp/out"'
check verify-edited-json 1 "$wt" verify-log "$tmp/edited.jsonl" --json
expect verify-edited-shape 'jq -e "(.valid | not) and .first_bad_line == 2 and .kind == \"edited\" and .entries == 1" "$tmp/out" >/dev/null'
sed -n '1p;3p' "$fx/audit/seed_log.jsonl" >"$tmp/deleted.jsonl"
check verify-deleted 1 "$wt" verify-log "$tmp/deleted.jsonl" --json
expect verify-deleted-kind 'jq -e ".kind == \"deleted\" and .first_bad_line == 2" "$tmp/out" >/dev/null'
{ cat "$fx/audit/seed_log.jsonl"; printf '{"timestamp": "2026'; } >"$tmp/torn.jsonl"
check verify-torn 1 "$wt" verify-log "$tmp/torn.jsonl"
expect verify-torn-text 'grep -q "^\[TORN\] line 4: torn tail: .*not tampering" "$tmp/out"'
check verify-unsigned-with-key 1 "$wt" verify-log "$fx/audit/seed_log.jsonl" --pubkey "$tmp/k.pub" --json
expect verify-unsigned-kind 'jq -e ".kind == \"truncated\" and .signatures_checked" "$tmp/out" >/dev/null'
check verify-bad-pubkey 1 "$wt" verify-log "$fx/audit/seed_log.jsonl" --pubkey "$fx/audit/seed_log.jsonl"
expect verify-bad-pubkey-message 'grep -q "seed_log.jsonl: not a PEM public key" "$tmp/err"'
check verify-missing 1 "$wt" verify-log "$tmp/nope.jsonl" --json
expect verify-missing-json 'jq -e ".exit_code == 1 and (.error | contains(\"nope.jsonl\"))" "$tmp/out" >/dev/null'
cp "$fx/audit/seed_log.jsonl" "$tmp/workloadtruth.log.jsonl"
(cd "$tmp" && "$wt" verify-log >out 2>err)
expect verify-default-file 'grep -q "3 entries" "$tmp/out"'
# report: an auditor's aggregate, only of a log that verifies, naming no GPU.
check report-seed 0 "$wt" report "$fx/audit/seed_log.jsonl" --min-gpus 1
expect report-seed-rows 'grep -q "seed_log.jsonl: \[OK\] chain verified, 3 entries" "$tmp/out" && grep -Eq "^TRAINING +1 +1 +- +- +-$" "$tmp/out"'
check report-floor 0 "$wt" report "$fx/audit/seed_log.jsonl" --json
expect report-floor-withheld 'jq -e ".report.classes == [] and .report.classes_withheld == 3 and .report.min_gpus == 5" "$tmp/out" >/dev/null'
check report-edited 1 "$wt" report "$tmp/edited.jsonl"
expect report-edited-none 'grep -q "^No report: the log does not verify." "$tmp/out" && ! grep -q "^CLASS" "$tmp/out"'
check report-edited-json 1 "$wt" report "$tmp/edited.jsonl" --json
expect report-edited-json-null 'jq -e ".report == null and .logs[0].verification.kind == \"edited\"" "$tmp/out" >/dev/null'
check report-zero-floor 2 "$wt" report "$fx/audit/seed_log.jsonl" --min-gpus 0
check report-watched 0 "$wt" watch --backend sim --scenario training/pretrain --duration 120 --log "$tmp/watched.jsonl" --json
uuid=$(jq -r 'select(.uuid) | .uuid' "$tmp/watched.jsonl" | head -1)
check report-watched-json 0 "$wt" report "$tmp/watched.jsonl" --min-gpus 1 --json
expect report-watched-hours 'jq -e ".report.classes[0].class == \"TRAINING\" and .report.classes[0].gpu_hours > 0.03 and .report.classes[0].energy_kwh > 0" "$tmp/out" >/dev/null'
expect report-names-no-gpu '[ -n "$uuid" ] && ! grep -q "$uuid" "$tmp/out"'
check report-period 0 "$wt" report "$tmp/watched.jsonl" --min-gpus 1 --from 2026-01-01T00:00:30 --to 2026-01-01T00:01:00 --json
expect report-period-hours 'jq -e "(.report.classes[0].gpu_hours * 3600 | round) == 30 and .report.from == \"2026-01-01T00:00:30.000\"" "$tmp/out" >/dev/null'
check report-period-backwards 2 "$wt" report "$tmp/watched.jsonl" --from 2026-01-02 --to 2026-01-01
check report-period-unreadable 2 "$wt" report "$tmp/watched.jsonl" --from yesterday
expect report-period-unreadable-says-why 'grep -q "\-\-from .yesterday. is neither a time" "$tmp/err"'
# --by: the same log recorded across midnight, cut into days; the window over midnight is split.
"$wt" record --backend sim --scenario training/pretrain --duration 120 --out "$tmp/night.csv" >/dev/null
sed -e 's#2026/01/01 00:00:#2026/01/01 23:59:#' -e 's#2026/01/01 00:01:#2026/01/02 00:00:#' \
  -e 's#2026/01/01 00:02:#2026/01/02 00:01:#' "$tmp/night.csv" >"$tmp/night2.csv"
check report-by-watch 0 "$wt" watch --replay "$tmp/night2.csv" --log "$tmp/night.jsonl" --plain
check report-by-day 0 "$wt" report "$tmp/night.jsonl" --min-gpus 1 --by day
expect report-by-day-text 'grep -q "^By day (UTC" "$tmp/out" && grep -q "^2026-01-01: 1 GPU" "$tmp/out" && grep -q "^2026-01-02: 1 GPU" "$tmp/out"'
check report-by-day-json 0 "$wt" report "$tmp/night.jsonl" --min-gpus 1 --by day --json
expect report-by-day-split 'jq -e "(.report.periods | map(.classes[0].gpu_hours) | add * 3600 | round) == (.report.classes[0].gpu_hours * 3600 | round) and .report.by == \"day\" and .report.periods[1].start == \"2026-01-02T00:00:00.000\"" "$tmp/out" >/dev/null'
check report-by-week-floor 0 "$wt" report "$tmp/night.jsonl" --by week --json
expect report-by-week-withheld 'jq -e ".report.periods | length == 1 and .[0].period == \"2025-12-29\" and .[0].classes == [] and .[0].classes_withheld == 1" "$tmp/out" >/dev/null'
check report-by-year 2 "$wt" report "$tmp/night.jsonl" --by year
# Several logs (a fleet's nodes) sum up as one: two GPUs, each in its own log; an edited one stops it.
check report-two-watch 0 "$wt" watch --backend sim --scenario training/pretrain --duration 120 --seed 9 --log "$tmp/node2.jsonl" --json
check report-two-logs 0 "$wt" report "$tmp/watched.jsonl" "$tmp/node2.jsonl" --min-gpus 2 --json
expect report-two-logs-gpus 'jq -e "(.logs | length == 2) and all(.logs[]; .verification.valid) and .report.gpus == 2 and .report.classes[0].gpus == 2" "$tmp/out" >/dev/null'
check report-two-logs-text 0 "$wt" report "$tmp/watched.jsonl" "$tmp/node2.jsonl" --min-gpus 2
expect report-two-logs-says 'grep -q "on 2 GPUs from 2 logs" "$tmp/out" && [ "$(grep -c ": \[OK\] chain verified" "$tmp/out")" -eq 2 ]'
check report-one-edited 1 "$wt" report "$tmp/watched.jsonl" "$tmp/edited.jsonl"
expect report-one-edited-none 'grep -q "^No report: not every log verifies." "$tmp/out"'
cp "$tmp/watched.jsonl" "$tmp/copy.jsonl"
check report-same-log-twice 1 "$wt" report "$tmp/watched.jsonl" "$tmp/copy.jsonl"
expect report-same-log-twice-says 'grep -q "copy.jsonl: the same log as .*watched.jsonl (the same first entry)" "$tmp/err"'
check report-keys-mismatch 2 "$wt" report "$tmp/watched.jsonl" "$tmp/node2.jsonl" "$tmp/node2.jsonl" --pubkey a.pub --pubkey b.pub
expect report-keys-mismatch-says 'grep -q "one per log in the logs. order (3 logs, 2 keys)" "$tmp/err"'
# Live AMD through the fake ROCm SMI library; --backend auto with one vendor, both, or none.
if [ -f "$fx/rocm/mi250x_rocm5.txt" ]; then
  amd5="$fx/rocm/mi250x_rocm5.txt"
  check amd-json 1 env FAKE_RSMI_FIXTURE="$amd5" "$wt" classify --backend amd --samples 5 --interval 0.01 --json
  expect amd-gpus 'jq -e "(.gpus | length == 2) and .source == \"amd\" and .gpus[0].name == \"AMD Instinct MI250X\" and .gpus[0].uuid == \"0x3c2e7a1f00d4b2a1\" and .gpus[0].sample_count == 5 and .gpus[1].sample_count == 3" "$tmp/out" >/dev/null'
  expect amd-gone-reported 'jq -e "[.errors[] | select(.message | startswith(\"GPU is gone\"))] | length == 1" "$tmp/out" >/dev/null'
  check amd-one-gpu 0 env FAKE_RSMI_FIXTURE="$fx/rocm/mi300x_rocm6.txt" "$wt" classify --backend amd --gpu 0 --samples 3 --interval 0.01 --json
  expect amd-rocm6 'jq -e "(.gpus | length == 1) and .gpus[0].name == \"AMD Instinct MI300X\" and (.errors | length == 0)" "$tmp/out" >/dev/null'
  check amd-record 0 env FAKE_RSMI_FIXTURE="$fx/rocm/mi300x_rocm6.txt" "$wt" record --backend amd --samples 3 --interval 0.01 --out "$tmp/amd.jsonl" --format jsonl
  expect amd-record-clocks 'grep -q "\"sm_clock_mhz\":2100" "$tmp/amd.jsonl" && grep -q "\"mem_clock_mhz\":1300" "$tmp/amd.jsonl"'
  check amd-replay 0 "$wt" classify --replay "$tmp/amd.jsonl" --json
  check amd-init-error 3 env FAKE_RSMI_FIXTURE="$amd5" FAKE_RSMI_INIT_ERROR=8 "$wt" classify --backend amd --samples 1
  expect amd-init-error-line 'grep -c "^workloadtruth: .*rsmi_init failed" "$tmp/err" | grep -qx 1'
  check amd-no-gpu 3 env FAKE_RSMI_FIXTURE="$fx/rocm/no_gpus.txt" "$wt" classify --backend amd --samples 1
  check auto-amd-only 0 env FAKE_RSMI_FIXTURE="$fx/rocm/mi300x_rocm6.txt" FAKE_NVML_INIT_ERROR=9 "$wt" classify --backend auto --samples 3 --interval 0.01 --json
  expect auto-amd-only-source 'jq -e ".source == \"amd\"" "$tmp/out" >/dev/null'
  check auto-nvidia-only 1 env FAKE_NVML_FIXTURE="$fx/nvml/two_gpus.txt" FAKE_RSMI_INIT_ERROR=8 "$wt" classify --backend auto --samples 6 --interval 0.01 --json
  expect auto-nvidia-only-source 'jq -e ".source == \"nvml\" and (.gpus | length == 2)" "$tmp/out" >/dev/null'
  check auto-both 0 env FAKE_NVML_FIXTURE="$fx/nvml/two_gpus.txt" FAKE_RSMI_FIXTURE="$fx/rocm/mi300x_rocm6.txt" "$wt" classify --backend auto --samples 3 --interval 0.01 --json
  expect auto-both-gpus 'jq -e ".source == \"nvml+amd\" and ([.gpus[].gpu_index] == [0,1,2]) and .gpus[2].name == \"AMD Instinct MI300X\"" "$tmp/out" >/dev/null'
  check auto-both-gpu-ambiguous 2 env FAKE_NVML_FIXTURE="$fx/nvml/two_gpus.txt" FAKE_RSMI_FIXTURE="$fx/rocm/mi300x_rocm6.txt" "$wt" classify --backend auto --gpu 0 --samples 1
  check auto-none 3 env FAKE_NVML_INIT_ERROR=9 FAKE_RSMI_INIT_ERROR=8 "$wt" classify --backend auto --samples 1
  expect auto-none-line '[ $(grep -c "^workloadtruth: " "$tmp/err") -eq 1 ] && grep -q "no GPU telemetry from any vendor" "$tmp/err"'
fi

# Live AMD through the fake AMD SMI library, alone or beside ROCm SMI (preferred), or neither.
if [ -f "$fx/amdsmi/mi300x_v26.txt" ] && [ -n "$WT_FAKE_AMDSMI_DIR" ]; then
  with_amdsmi="LD_LIBRARY_PATH=$WT_FAKE_AMDSMI_DIR:$LD_LIBRARY_PATH"
  check amdsmi-json 1 env "$with_amdsmi" FAKE_AMDSMI_FIXTURE="$fx/amdsmi/mi300x_v26.txt" "$wt" classify --backend amd --samples 3 --interval 0.01 --json
  expect amdsmi-gpus 'jq -e "(.gpus | length == 3) and .source == \"amd\" and .gpus[2].uuid == \"7b22e5d4-0000-1000-8000-00000000e500\" and .gpus[0].sample_count == 3 and .gpus[2].sample_count == 1" "$tmp/out" >/dev/null'
  expect amdsmi-errors 'jq -e "[.errors[] | select(.message | startswith(\"GPU is gone\"))] | length == 1" "$tmp/out" >/dev/null'
  check amdsmi-preferred 0 env "$with_amdsmi" FAKE_AMDSMI_FIXTURE="$fx/amdsmi/mi250x_v24.txt" FAKE_RSMI_FIXTURE="$fx/rocm/mi300x_rocm6.txt" "$wt" record --backend amd --samples 2 --interval 0.01 --out "$tmp/amdsmi-live.jsonl" --format jsonl
  expect amdsmi-preferred-gpu 'grep -q "AMD Instinct MI250X" "$tmp/amdsmi-live.jsonl" && ! grep -q "MI300X" "$tmp/amdsmi-live.jsonl"'
  check amdsmi-unknown-version 0 env "$with_amdsmi" FAKE_AMDSMI_FIXTURE="$fx/amdsmi/version27.txt" FAKE_RSMI_FIXTURE="$fx/rocm/mi300x_rocm6.txt" "$wt" classify --backend amd --samples 3 --interval 0.01
  expect amdsmi-unknown-version-note 'grep -q "^note: amd: AMD SMI not used: .*version 27.0.0.*; reading through ROCm SMI 6" "$tmp/err"'
  check amdsmi-neither 3 env "$with_amdsmi" FAKE_AMDSMI_INIT_ERROR=18 FAKE_RSMI_INIT_ERROR=8 "$wt" classify --backend amd --samples 1
  expect amdsmi-neither-line '[ $(wc -l <"$tmp/err") -eq 1 ] && grep -q "amdsmi_init failed.*rsmi_init failed" "$tmp/err"'
fi

# rocm-smi / amd-smi logs: time comes from --interval (rocm-smi) or amd-smi's own timestamp column.
if [ -f "$fx/amd/rocm_smi_loop.csv" ]; then
  check rocm-smi-csv 0 "$wt" classify --replay "$fx/amd/rocm_smi_loop.csv" --interval 1 --json
  expect rocm-smi-csv-gpus 'jq -e "(.gpus | length == 2) and .gpus[0].sample_count == 3 and .gpus[0].end == \"1970-01-01T00:00:02.000\"" "$tmp/out" >/dev/null'
  check rocm-smi-no-interval 1 "$wt" classify --replay "$fx/amd/rocm_smi_loop.csv"
  expect rocm-smi-no-interval-line '[ $(wc -l <"$tmp/err") -eq 1 ] && grep -q "no timestamps; give --interval" "$tmp/err"'
  check rocm-smi-json 0 "$wt" record --replay "$fx/amd/rocm_smi_loop.json" --input-format rocm-smi --interval 1 --out "$tmp/rocmjson.csv"
  expect rocm-smi-json-name 'grep -q "AMD Instinct MI300X" "$tmp/rocmjson.csv" && [ $(wc -l <"$tmp/rocmjson.csv") -eq 5 ]'
  check amd-smi-watch 0 "$wt" record --replay "$fx/amd/amd_smi_watch.csv" --out "$tmp/amdsmi.jsonl" --format jsonl
  expect amd-smi-watch-power 'grep -q "\"power_w\":1180" "$tmp/amdsmi.jsonl"'
  check amd-smi-wrong-format 1 "$wt" classify --replay "$fx/amd/amd_smi_watch.csv" --format rocm-smi --interval 1
  check amd-smi-json 0 "$wt" classify --replay "$fx/amd/amd_smi_watch.json" --json
  expect amd-smi-json-gpus 'jq -e "(.gpus | length == 2) and .gpus[0].sample_count == 3 and (.errors | length == 0)" "$tmp/out" >/dev/null'
  check amd-smi-json-bad 1 "$wt" classify --replay "$fx/amd/amd_smi_bad.json" --json
  expect amd-smi-json-bad-lines 'jq -e "[.errors[].where | select(contains(\"amd_smi_bad\")) | sub(\".*/\"; \"\")] == [\"amd_smi_bad.json:2\", \"amd_smi_bad.json:3\", \"amd_smi_bad.json:4\", \"amd_smi_bad.json:4\", \"amd_smi_bad.json:6\", \"amd_smi_bad.json:9\", \"amd_smi_bad.json:10\"]" "$tmp/out" >/dev/null'
fi

# The trained classifier: train a small model, classify with it, benchmark it.
check train-small 0 "$wt" train --traces 5 --duration 60 --rounds 10 --out "$tmp/model.json" --json
expect train-provenance 'jq -e ".provenance.data.traces_per_scenario == 5 and (.provenance.metrics.calibration_windows_synthetic.accuracy > 0)" "$tmp/out" >/dev/null'
check classify-model 0 "$wt" classify --replay "$fx/csv/two_gpus.csv" --model "$tmp/model.json" --json
expect classify-model-shape 'jq -e ".classifier == \"xgboost\" and (.gpus[0].training_score | type == \"number\") and (.gpus[0].windows[0].training_score | type == \"number\")" "$tmp/out" >/dev/null'
check classify-default-xgboost 0 "$wt" classify --replay "$fx/csv/two_gpus.csv" -v
expect classify-default-reasons 'grep -q "classifier: xgboost" "$tmp/out" && grep -q "pushes toward" "$tmp/out"'
check classify-bad-model 1 "$wt" classify --replay "$fx/csv/two_gpus.csv" --model "$fx/csv/two_gpus.csv"
check rules-with-model 2 "$wt" classify --replay "$fx/csv/two_gpus.csv" --classifier rules --model "$tmp/model.json"
check benchmark-small 0 "$wt" benchmark --trials 1 --duration 60 --json
expect benchmark-shape 'jq -e "(.synthetic.clean | length == 6) and (.synthetic.evasion | length >= 14) and (.synthetic.overall.xgboost.calibration | length > 0) and (.synthetic.data | startswith(\"synthetic\"))" "$tmp/out" >/dev/null'
expect benchmark-training-score 'jq -e "(.synthetic.overall.xgboost.training_score.roc_auc | type == \"number\") and (.synthetic.overall.xgboost.training_score.operating_points | length == 3) and (.synthetic.overall.rules | has(\"training_score\") | not) and .synthetic.overall.xgboost.false_training_pooled.count > 0" "$tmp/out" >/dev/null'
check benchmark-text 0 "$wt" benchmark --trials 1 --duration 60
expect benchmark-text-lines 'grep -q "Disguised training" "$tmp/out" && grep -q "never blended" "$tmp/out" && grep -q "^Is this training?.*ROC AUC 0\.[0-9]" "$tmp/out" && grep -q "^  every class but IDLE, pooled (jobs) .* of [1-9]" "$tmp/out" && head -1 "$tmp/out" | grep -q "protocol standard, model of 20"'
expect benchmark-text-by-recording 'grep -q "^Test traces by how they were recorded" "$tmp/out" && grep -qE "^  signals: all \(live NVML\) +[ 0-9.]+%" "$tmp/out" && grep -qE "^  polled every [0-9.]+ s " "$tmp/out"'
check benchmark-interval 0 "$wt" benchmark --trials 1 --duration 60 --interval 10 --json
expect benchmark-interval-data 'jq -e "(.synthetic.data | contains(\"polled every 10 s,\")) and .synthetic.overall.xgboost.accuracy.window_count > 0" "$tmp/out" >/dev/null'
check benchmark-signals 0 "$wt" benchmark --trials 1 --duration 60 --signals util-memused-power --json
expect benchmark-signals-data 'jq -e "(.synthetic.data | contains(\", signals: util, memory used, power,\")) and ([.synthetic.by_recording[].recording | select(startswith(\"signals\"))] == [\"signals: util, memory used, power\"])" "$tmp/out" >/dev/null'
check benchmark-signals-unknown 2 "$wt" benchmark --trials 1 --duration 60 --signals clocks-only
check benchmark-signals-loso-real 2 "$wt" benchmark --protocol loso-real --real "$h200" --signals all
expect benchmark-signals-loso-real-says-why 'grep -q "\-\-signals shape the simulated test traces" "$tmp/err"'
check benchmark-interval-too-sparse 2 "$wt" benchmark --trials 1 --duration 60 --interval 40
expect benchmark-interval-says-why 'grep -q "polling every 40 s leaves fewer than 3 samples in a 60 s trace" "$tmp/err"'
# Real traces labelled by a MANIFEST.csv instead of their names; a bad manifest line is named.
mkdir -p "$tmp/lab" && cp "$fx/csv/two_gpus.csv" "$tmp/lab/run.csv"
printf 'file,label,source\nrun.csv,inference,lab-a\n' >"$tmp/lab/MANIFEST.csv"
check benchmark-manifest 0 "$wt" benchmark --trials 1 --duration 60 --real "$tmp/lab" --json
expect benchmark-manifest-labels 'jq -e ".real[0].by_label | has(\"INFERENCE\")" "$tmp/out" >/dev/null && jq -e ".real[0].by_source | has(\"lab-a\")" "$tmp/out" >/dev/null'
# One inference file: no training windows to rank, so the real training-score curve has no AUC.
expect benchmark-manifest-no-auc 'jq -e "(.real[0].training_score.xgboost.roc_auc == null) and (.real[0].training_score.xgboost.windows.training == 0) and (.real[0].training_score | has(\"rules\") | not)" "$tmp/out" >/dev/null'
# The reliability of real windows, per classifier: the windows given a class plus the abstentions are all of them.
expect benchmark-manifest-calibration 'jq -e "([.real[0].calibration.xgboost.bins[].windows] | add) + .real[0].calibration.xgboost.abstained_windows == .real[0].by_source[\"lab-a\"].xgboost.accuracy.window_count and (.real[0].calibration | has(\"rules\"))" "$tmp/out" >/dev/null'
# Each GPU's summary against its truth, per classifier: one entry per job, its windows all counted.
expect benchmark-manifest-gpus 'jq -e ".real[0].files[0].xgboost as \$x | (\$x.gpus | length) == \$x.job_count and ([\$x.gpus[].windows[]] | add) == \$x.window_count and ([\$x.gpus[].gpu] == [0, 1]) and \$x.gpus[1].truth == \"IDLE\"" "$tmp/out" >/dev/null'
# The file as one run, its two GPUs pooled: GPU 1 idles, so the run reads as GPU 0 does.
expect benchmark-manifest-run 'jq -e ".real[0].runs.xgboost == {\"right\": (if .real[0].files[0].xgboost.run.verdict == \"INFERENCE\" then 1 else 0 end), \"count\": 1} and .real[0].files[0].xgboost.run.truth == \"INFERENCE\" and .real[0].files[0].xgboost.run.verdict == .real[0].files[0].xgboost.gpus[0].verdict" "$tmp/out" >/dev/null'
check benchmark-manifest-text 0 "$wt" benchmark --trials 1 --duration 60 --real "$tmp/lab"
expect benchmark-manifest-text-calibration 'grep -q "^  calibration of xgboost (windows given a class)" "$tmp/out" && grep -qE "^    0\.9-1\.0 +[0-9]+ " "$tmp/out"'
# The same busy GPU labelled training instead: the text names each wrong per-GPU summary, as the JSON has it.
mkdir -p "$tmp/lab-t" && cp "$fx/csv/two_gpus.csv" "$tmp/lab-t/run.csv"
printf 'file,label,source\nrun.csv,training,lab-t\n' >"$tmp/lab-t/MANIFEST.csv"
check benchmark-wrong-gpus-json 0 "$wt" benchmark --trials 1 --duration 60 --real "$tmp/lab-t" --json
cp "$tmp/out" "$tmp/wrong.json"
check benchmark-wrong-gpus-text 0 "$wt" benchmark --trials 1 --duration 60 --real "$tmp/lab-t"
expect benchmark-wrong-gpus-listed 'v=$(jq -r ".real[0].files[0].xgboost.gpus[0].verdict" "$tmp/wrong.json") && n=$(jq "[.real[0].files[0].xgboost.gpus[] | select(.truth != .verdict)] | length" "$tmp/wrong.json") && grep -q "^  per-GPU summaries of xgboost that are wrong: $n of 2" "$tmp/out" && { [ "$v" = TRAINING ] || grep -qE "^    run +GPU 0 +TRAINING -> $v +[01]\.[0-9]{2} " "$tmp/out"; }'
expect benchmark-wrong-run-listed 'r=$(jq -r ".real[0].files[0].xgboost.run.verdict" "$tmp/wrong.json") && grep -qE "^  runs, each file.s GPUs pooled as one job: rules [01] of 1, xgboost [01] of 1" "$tmp/out" && { [ "$r" = TRAINING ] || grep -q "^    run (2 GPUs): TRAINING -> $r$" "$tmp/out"; }'
# Past 40 wrong GPUs the text stops listing and says how many more the JSON holds.
mkdir -p "$tmp/lab-many"
for i in $(seq 1 41); do cp "$fx/csv/two_gpus.csv" "$tmp/lab-many/mining__lab-m__run$i.csv"; done
check benchmark-many-wrong-json 0 "$wt" benchmark --trials 1 --duration 60 --real "$tmp/lab-many" --json
cp "$tmp/out" "$tmp/many.json"
check benchmark-many-wrong-text 0 "$wt" benchmark --trials 1 --duration 60 --real "$tmp/lab-many"
expect benchmark-many-wrong-capped 'n=$(jq "[.real[0].files[].xgboost.gpus[] | select(.truth != .verdict)] | length" "$tmp/many.json") && [ "$n" -gt 40 ] && grep -q "^  per-GPU summaries of xgboost that are wrong: $n of 82 " "$tmp/out" && [ "$(grep -c "^    run[0-9]* *GPU " "$tmp/out")" -eq 40 ] && grep -q "^    \.\.\. and $((n - 40)) more (every GPU is in the --json output)$" "$tmp/out"'
# A model trained with those real windows weighted up says so in its provenance.
check train-real-weight 0 "$wt" train --traces 5 --duration 60 --rounds 10 --real "$tmp/lab" --real-weight 50 --out "$tmp/model-real.json" --json
expect train-real-weight-provenance 'jq -e ".provenance.data.real_weight == 50 and .provenance.data.real_files == 1 and .provenance.data.real_windows > 0 and .provenance.data.real_sources == [\"lab-a\"]" "$tmp/out" >/dev/null'
# Scored with that model, the source it trained on is marked in-sample, in JSON and text.
check benchmark-in-sample 0 "$wt" benchmark --trials 1 --duration 60 --model "$tmp/model-real.json" --real "$tmp/lab" --json
expect benchmark-in-sample-marked 'jq -e ".real[0].trained_on_sources == [\"lab-a\"] and (.real[0].data | contains(\"the model was trained on lab-a: in-sample figures, not a test\"))" "$tmp/out" >/dev/null'
check benchmark-in-sample-text 0 "$wt" benchmark --trials 1 --duration 60 --model "$tmp/model-real.json" --real "$tmp/lab"
expect benchmark-in-sample-text-marked 'grep -q "lab-a (2 GPUs, trained on)" "$tmp/out"'
check benchmark-not-in-sample 0 "$wt" benchmark --trials 1 --duration 60 --real "$tmp/lab" --json
expect benchmark-not-in-sample-unmarked 'jq -e ".real[0].trained_on_sources == []" "$tmp/out" >/dev/null'
check train-real-weight-zero 2 "$wt" train --traces 5 --real "$tmp/lab" --real-weight 0
check train-real-weight-alone 2 "$wt" train --traces 5 --real-weight 10
expect train-real-weight-alone-says-why 'grep -q "real-weight requires --real" "$tmp/err"'
check benchmark-loso-real 0 "$wt" benchmark --protocol loso-real --train-traces 5 --duration 60 --real "$tmp/lab" --jobs 2 --json
expect benchmark-loso-real-shape 'jq -e "(has(\"synthetic\") | not) and .model == \"retrained\" and .train_traces == 5 and .real[0].leave_one_source_out[0].held_out_source == \"lab-a\" and .real[0].leave_one_source_out[0].accuracy.job_count == 2 and (.real[0].leave_one_source_out[0].files[0].gpus | length) == 2" "$tmp/out" >/dev/null'
check benchmark-loso-real-text 0 "$wt" benchmark --protocol loso-real --train-traces 5 --duration 60 --real "$tmp/lab"
expect benchmark-loso-real-header 'head -1 "$tmp/out" | grep -q "protocol loso-real, models retrained for each held-out part (5 traces per scenario)$" && grep -qE "^  per-GPU summaries of xgboost that are wrong: [0-2] of 2" "$tmp/out"'
check benchmark-loso-real-weight 0 "$wt" benchmark --protocol loso-real --train-traces 5 --duration 60 --real "$tmp/lab" --real-weight 40 --json
expect benchmark-loso-real-weight-said 'jq -e ".real_weight == 40 and (.real[0].data | contains(\"each of their windows counted 40 times\"))" "$tmp/out" >/dev/null'
# Under loso the synthetic folds retrain as `train --real` does: on the real traces too.
check benchmark-loso-trains-on-real 0 "$wt" benchmark --protocol loso --trials 1 --train-traces 5 --duration 60 --real "$tmp/lab" --real-weight 3 --json
expect benchmark-loso-trains-on-real-said 'jq -e ".synthetic.data | contains(\"and the real traces of every --real directory, each of their windows counted 3 times\")" "$tmp/out" >/dev/null'
# An option the protocol would ignore is refused, not dropped.
check benchmark-loso-model 2 "$wt" benchmark --protocol loso-real --real "$tmp/lab" --model "$tmp/model.json"
expect benchmark-loso-model-says-why 'grep -q "model has no effect under --protocol loso-real" "$tmp/err"'
check benchmark-standard-train-traces 2 "$wt" benchmark --trials 1 --train-traces 5
expect benchmark-standard-train-traces-says-why 'grep -q "train-traces, --jobs and --real-weight have no effect under --protocol standard" "$tmp/err"'
check benchmark-loso-real-interval 2 "$wt" benchmark --protocol loso-real --real "$tmp/lab" --interval 1
expect benchmark-loso-real-interval-says-why 'grep -q "signals shape the simulated test traces, which --protocol loso-real does not make" "$tmp/err"'
check benchmark-loso-real-needs-real 2 "$wt" benchmark --protocol loso-real
expect benchmark-loso-real-says-why 'grep -q "give them with --real DIR" "$tmp/err"'
check benchmark-real-weight-needs-real 2 "$wt" benchmark --protocol loso --real-weight 20
expect benchmark-real-weight-needs-real-says-why 'grep -q "real-weight weighs the real traces the held-out folds train on" "$tmp/err"'
printf 'file,label\nrun.csv,cooking\n' >"$tmp/lab/MANIFEST.csv"
check benchmark-bad-manifest 1 "$wt" benchmark --trials 1 --duration 60 --real "$tmp/lab"
expect benchmark-bad-manifest-line 'grep -q "MANIFEST.csv:2: unknown label .cooking." "$tmp/err"'

report "cli"
