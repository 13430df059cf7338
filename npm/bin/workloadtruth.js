#!/usr/bin/env node
'use strict';
// workloadtruth (npm launcher): runs the native workloadtruth binary with these arguments, stdio,
// exit code and signals; exits 127 with build instructions when there is none (see README.md).
const { findBinary } = require('../lib/find-binary');
const { installHelp } = require('../lib/install-help');
const { runBinary } = require('../lib/run-binary');
const exitCodes = require('../lib/exit-codes');

const found = findBinary(process.env);
if (found.binary) {
  runBinary(found.binary, process.argv.slice(2));
} else {
  process.stderr.write(installHelp(found.problem));
  process.exitCode = exitCodes.NOT_FOUND;
}
