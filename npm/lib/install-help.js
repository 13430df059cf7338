'use strict';
// What to print when the native binary cannot be found: how the README builds it, and where to.
function installHelp(problem) {
  return `workloadtruth (npm launcher): ${problem}.
This npm package only launches the native workloadtruth binary, which it does not contain.
Build it from the WorkloadTruth source tree (Debian 12; installs the build dependencies):
  bash scripts/setup.sh && cmake --preset default && cmake --build --preset default
The binary is then build/default/src/workloadtruth. Put its directory on PATH, or point
WORKLOADTRUTH_BIN at it (this takes precedence over PATH):
  export WORKLOADTRUTH_BIN="$PWD/build/default/src/workloadtruth"
`;
}

module.exports = { installHelp };
