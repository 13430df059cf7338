# Shared by the end-to-end scripts (sourced): a temporary directory, and the two checks.
# The sourcing script sets `wt` (the binary) first; it ends with `report NAME`.
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
pass=0 fail=0

show_output() {
  sed 's/^/  stdout: /' "$tmp/out" | head -20
  sed 's/^/  stderr: /' "$tmp/err" | head -20
}

check() {  # check NAME EXPECTED_EXIT COMMAND...
  local name=$1 want=$2
  shift 2
  "$@" >"$tmp/out" 2>"$tmp/err"
  local got=$?
  if [ "$got" -eq "$want" ]; then pass=$((pass + 1)); else
    fail=$((fail + 1))
    echo "FAIL $name: exit $got, wanted $want"
    show_output
  fi
}

expect() {  # expect NAME SHELL-CONDITION (on the last command's output files)
  if eval "$2"; then pass=$((pass + 1)); else
    fail=$((fail + 1))
    echo "FAIL $1: $2"
    show_output
  fi
}

# jq 1.6 exits 0 under -e when its input is empty, so an expectation on a command that printed
# nothing would pass; a named input file that is empty fails instead.
jq() {
  local last=${!#}
  if [ -f "$last" ] && [ ! -s "$last" ]; then
    echo "jq: $last is empty" >&2
    return 5
  fi
  command jq "$@"
}

# wait_for_line FILE SED_SCRIPT: what the sed script prints of FILE once it prints anything, tried
# every 0.1 s for 10 s (a server started in the background saying where it listens); "" if never.
wait_for_line() {
  local found= _
  for _ in $(seq 100); do
    found=$(sed -n "$2" "$1")
    [ -n "$found" ] && break
    sleep 0.1
  done
  echo "$found"
}

# make_test_certs DIR: a throwaway CA and the certificates it signs (scripts/make_test_certs.sh).
# shellcheck source=scripts/make_test_certs.sh
source "$(dirname "${BASH_SOURCE[0]}")/../scripts/make_test_certs.sh"

report() {  # report NAME: the closing line, and the exit status
  echo "$1: $pass passed, $fail failed"
  [ "$fail" -eq 0 ]
}
