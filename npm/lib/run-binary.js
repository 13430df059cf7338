'use strict';
// Runs the native binary on this process's own stdin/stdout/stderr and ends this process the way
// the binary ended: with its exit code, or killed by the same signal.
const { spawn } = require('node:child_process');
const os = require('node:os');
const exitCodes = require('./exit-codes');

// Passed on to the binary, which decides what they mean (watch stops cleanly on SIGINT/SIGTERM).
// A Ctrl-C at a terminal reaches the binary twice (from the terminal and from here): harmless,
// since stopping is idempotent, and needed when only the launcher's pid is signalled.
const FORWARDED_SIGNALS = ['SIGINT', 'SIGTERM', 'SIGHUP'];

function runBinary(binary, args) {
  // Listening before the spawn: the binary can be running (and be signalled) before the next line
  // after spawn() runs. A signal caught earlier is handled by the event loop, so `child` is set.
  let child;
  const forward = (signal) => child.kill(signal);
  for (const signal of FORWARDED_SIGNALS) process.on(signal, forward);
  child = spawn(binary, args, { stdio: 'inherit' });
  const stopForwarding = () => {
    for (const signal of FORWARDED_SIGNALS) process.removeListener(signal, forward);
  };

  child.on('error', (err) => {
    stopForwarding();
    process.stderr.write(`workloadtruth (npm launcher): cannot run ${binary}: ${err.message}\n`);
    process.exit(exitCodes.CANNOT_RUN);
  });
  child.on('exit', (code, signal) => {
    stopForwarding(); // back to the default actions, so the signal below ends this process
    if (signal) {
      // Not SIGUSR1: Node would start its debugger on it instead of dying.
      if (signal !== 'SIGUSR1') process.kill(process.pid, signal);
      // Reached for SIGUSR1 and for a signal Node keeps ignoring (SIGPIPE): the shell's convention.
      process.exit(128 + os.constants.signals[signal]);
    }
    process.exit(code);
  });
}

module.exports = { runBinary };
