#!/usr/bin/env bash
# Every test: the suite in a release build, again under ASan+UBSan, then each trace-reader
# fuzzer (and those of the dcgm-exporter / Prometheus parsers, the model loader, the audit-log
# verifier and the MCP protocol) for a bounded time (WT_FUZZ_SECONDS, default 60
# each; an input running over 60 s is a failure). Installs what it needs first.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh

for preset in default asan; do
  echo "== tests: $preset"
  cmake --preset "$preset" >/dev/null
  cmake --build --preset "$preset"
  ctest --preset "$preset"
done

echo "== fuzz: ${WT_FUZZ_SECONDS:-60} s per trace reader, the dcgm-exporter / Prometheus parsers, the model loader, the audit-log verifier and the MCP protocol"
cmake --preset fuzz >/dev/null
cmake --build --preset fuzz
for f in csv jsonl dmon amd dcgm model audit mcp; do
  corpus=build/fuzz/corpus-$f  # new inputs go here, not into the committed seeds
  mkdir -p "$corpus"
  log=build/fuzz/$f.log
  if ! build/fuzz/fuzz/${f}_fuzzer -max_total_time="${WT_FUZZ_SECONDS:-60}" -max_len=65536 -rss_limit_mb=2048 -timeout=60 \
    -print_final_stats=1 "$corpus" "fuzz/corpus/$f" >"$log" 2>&1; then
    cat "$log"
    echo "fuzz: $f fuzzer failed (crash input saved in the working directory)"
    exit 1
  fi
  grep -E "^stat::number_of_executed_units|Done [0-9]+ runs" "$log" | sed "s/^/  $f: /"
done
echo "fuzz: no crash, no sanitizer report"
