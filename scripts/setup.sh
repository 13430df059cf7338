#!/usr/bin/env bash
# Installs WorkloadTruth's build and test dependencies from Debian 12 packages, and the MCP
# test client's npm packages (pinned by tests/mcp_client/package-lock.json).
# Idempotent: a no-op (no apt-get or npm call at all, so offline-safe) when everything is present.
set -euo pipefail

packages=(
  build-essential cmake ninja-build pkg-config   # toolchain
  jq                                             # JSON checks in the CLI tests
  openssl                                        # throwaway certificates for the mutual-TLS CLI checks
  clang libclang-rt-14-dev                       # libFuzzer targets and sanitizer runtimes
  nlohmann-json3-dev libcli11-dev libssl-dev     # JSON, command line, SHA-256/Ed25519
  libxgboost-dev                                 # trained classifier (XGBoost C API)
  libcpp-httplib-dev                             # HTTP: dcgm-exporter and Prometheus sources
  libgtest-dev libgmock-dev libbenchmark-dev     # tests and benchmarks
  librocm-smi-dev                                # ROCm SMI header: checks our AMD declarations
)

missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
# Node.js runs the npm launcher's tests (npm/) and the MCP end-to-end test's client; any node >= 18
# with npm will do. Checked by command, not package: a Node.js from elsewhere that bundles npm is used
# as it is, since Debian's npm package would conflict with it.
command -v node >/dev/null && command -v npm >/dev/null || missing+=(nodejs npm)

install_mcp_client() {
  local dir
  dir="$(cd "$(dirname "$0")/.." && pwd)/tests/mcp_client"
  # npm ci rewrites node_modules from the lock file; npm records its install in node_modules/.package-lock.json.
  if [ "$dir/node_modules/.package-lock.json" -nt "$dir/package-lock.json" ]; then
    echo "setup: MCP test client installed"
  else
    echo "setup: installing the MCP test client (npm ci in tests/mcp_client)"
    npm ci --prefix "$dir" --no-audit --no-fund --loglevel=error
  fi
}

if [ ${#missing[@]} -eq 0 ]; then
  echo "setup: all ${#packages[@]} packages present"
  install_mcp_client
  exit 0
fi

echo "setup: installing ${missing[*]}"
sudo_cmd=()
[ "$(id -u)" -eq 0 ] || sudo_cmd=(sudo)
export DEBIAN_FRONTEND=noninteractive
"${sudo_cmd[@]}" apt-get update -qq
"${sudo_cmd[@]}" apt-get install -y -qq --no-install-recommends "${missing[@]}"
install_mcp_client
