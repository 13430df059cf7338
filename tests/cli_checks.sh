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

# make_test_certs: a throwaway CA in $tmp (ca.pem, ca.key) that signs a server certificate for
# 127.0.0.1 (server.pem, server.key) and a client certificate (client.pem, client.key).
make_test_certs() {
  local ec=(-newkey ec -pkeyopt ec_paramgen_curve:prime256v1 -nodes) who
  openssl req -x509 "${ec[@]}" -keyout "$tmp/ca.key" -out "$tmp/ca.pem" -days 2 -subj /CN=wt-test-ca 2>/dev/null
  printf 'subjectAltName=IP:127.0.0.1\n' >"$tmp/san.ext"
  for who in server client; do
    openssl req "${ec[@]}" -keyout "$tmp/$who.key" -out "$tmp/$who.csr" -subj "/CN=$who" 2>/dev/null
    openssl x509 -req -in "$tmp/$who.csr" -CA "$tmp/ca.pem" -CAkey "$tmp/ca.key" -CAcreateserial -days 2 \
      -out "$tmp/$who.pem" $([ "$who" = server ] && echo -extfile "$tmp/san.ext") 2>/dev/null
  done
}

report() {  # report NAME: the closing line, and the exit status
  echo "$1: $pass passed, $fail failed"
  [ "$fail" -eq 0 ]
}
