'use strict';
// Shared by the tests (kept out of test/ so that `node --test` does not run it as a test file):
// temporary directories, fake native binaries (small shell scripts), and running the launcher.
const { spawnSync } = require('node:child_process');
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');

const PACKAGE_DIR = path.resolve(__dirname, '..');
const LAUNCHER = path.join(PACKAGE_DIR, 'bin', 'workloadtruth.js');
// For the fake binaries' /bin/sh, sleep, cat and readlink; never holds a workloadtruth itself.
const SYSTEM_PATH = '/usr/bin:/bin';

// A directory removed when the test ends.
function tempDir(t) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'wt-npm-test-'));
  t.after(() => fs.rmSync(dir, { recursive: true, force: true }));
  return dir;
}

// Writes an executable shell script DIR/NAME (a fake binary when NAME is workloadtruth).
function writeScript(dir, name, body) {
  fs.mkdirSync(dir, { recursive: true });
  const file = path.join(dir, name);
  fs.writeFileSync(file, `#!/bin/sh\n${body}\n`, { mode: 0o755 });
  return file;
}

// Runs the launcher (the one in this tree unless `launcher` is given) with exactly `env`.
function runLauncher(args, env, options = {}) {
  const { launcher = LAUNCHER, ...spawnOptions } = options;
  return spawnSync(process.execPath, [launcher, ...args], { env, encoding: 'utf8', timeout: 30000, ...spawnOptions });
}

module.exports = { PACKAGE_DIR, LAUNCHER, SYSTEM_PATH, tempDir, writeScript, runLauncher };
