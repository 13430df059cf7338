'use strict';
// Which binary the launcher picks: WORKLOADTRUTH_BIN first, else PATH, never a Node script.
const test = require('node:test');
const assert = require('node:assert/strict');
const fs = require('node:fs');
const path = require('node:path');
const { findBinary } = require('../lib/find-binary');
const { LAUNCHER, tempDir, writeScript } = require('../test-support/fake-binary');

test('WORKLOADTRUTH_BIN takes precedence over PATH', (t) => {
  const dir = tempDir(t);
  const onPath = writeScript(path.join(dir, 'path'), 'workloadtruth', 'exit 0');
  const chosen = writeScript(path.join(dir, 'env'), 'wt-native', 'exit 0');
  assert.deepEqual(findBinary({ WORKLOADTRUTH_BIN: chosen, PATH: path.dirname(onPath) }), { binary: chosen });
  assert.deepEqual(findBinary({ PATH: path.dirname(onPath) }), { binary: onPath });
});

test('a relative WORKLOADTRUTH_BIN is taken from the current directory', (t) => {
  const dir = tempDir(t);
  const chosen = writeScript(dir, 'wt-native', 'exit 0');
  const relative = path.relative(process.cwd(), chosen);
  assert.deepEqual(findBinary({ WORKLOADTRUTH_BIN: relative }), { binary: chosen });
});

test('a WORKLOADTRUTH_BIN that cannot be run is reported, with no fallback to PATH', (t) => {
  const dir = tempDir(t);
  const onPath = path.dirname(writeScript(path.join(dir, 'path'), 'workloadtruth', 'exit 0'));
  const plain = path.join(dir, 'plain');
  fs.writeFileSync(plain, 'data', { mode: 0o644 });
  const cases = [
    [path.join(dir, 'missing'), 'no such file'],
    [plain, 'not executable'],
    [dir, 'not a file'],
    [LAUNCHER, 'a Node script'],
  ];
  for (const [value, why] of cases) {
    const found = findBinary({ WORKLOADTRUTH_BIN: value, PATH: onPath });
    assert.equal(found.binary, undefined, value);
    assert.ok(found.problem.startsWith(`WORKLOADTRUTH_BIN=${value}: ${why}`), found.problem);
  }
});

test('PATH is searched in order, past directories without an executable workloadtruth', (t) => {
  const dir = tempDir(t);
  const empty = path.join(dir, 'empty');
  fs.mkdirSync(empty);
  const notExecutable = path.join(dir, 'noexec');
  fs.mkdirSync(notExecutable);
  fs.writeFileSync(path.join(notExecutable, 'workloadtruth'), '#!/bin/sh\n', { mode: 0o644 });
  const aDirectory = path.join(dir, 'dirnamed');
  fs.mkdirSync(path.join(aDirectory, 'workloadtruth'), { recursive: true });
  const first = writeScript(path.join(dir, 'first'), 'workloadtruth', 'exit 0');
  writeScript(path.join(dir, 'second'), 'workloadtruth', 'exit 0');
  const PATH = [empty, notExecutable, aDirectory, path.dirname(first), path.join(dir, 'second')].join(':');
  assert.deepEqual(findBinary({ PATH }), { binary: first });
});

test('PATH search skips the launcher itself: its bin link, or another install of it', (t) => {
  const dir = tempDir(t);
  const selfLink = path.join(dir, 'self');
  fs.mkdirSync(selfLink);
  fs.symlinkSync(LAUNCHER, path.join(selfLink, 'workloadtruth'));
  const otherInstall = path.join(dir, 'other');
  fs.mkdirSync(otherInstall);
  fs.copyFileSync(LAUNCHER, path.join(otherInstall, 'workloadtruth'));
  fs.chmodSync(path.join(otherInstall, 'workloadtruth'), 0o755);
  const native = writeScript(path.join(dir, 'native'), 'workloadtruth', 'exit 0');
  assert.deepEqual(findBinary({ PATH: [selfLink, otherInstall, path.dirname(native)].join(':') }), { binary: native });
  const launcherOnly = findBinary({ PATH: [selfLink, otherInstall].join(':') });
  assert.equal(launcherOnly.problem, 'no native workloadtruth binary on PATH');
});

test('only a #! line that runs node marks a Node script', (t) => {
  const dir = tempDir(t);
  const shebangs = {
    '#!/usr/bin/env node': false,
    '#!/usr/bin/node': false,
    '#!/usr/local/bin/nodejs --no-warnings': false,
    '#!/usr/bin/env -S node --no-warnings': false,
    '#!/bin/sh': true,
    '#!/opt/nodes/bin/bash': true,
  };
  for (const [line, usable] of Object.entries(shebangs)) {
    const file = path.join(dir, 'wt');
    fs.writeFileSync(file, `${line}\nexit 0\n`, { mode: 0o755 });
    assert.equal(findBinary({ WORKLOADTRUTH_BIN: file }).binary !== undefined, usable, line);
  }
  // A native executable (no #! line) is taken, through a symlink too.
  const link = path.join(dir, 'workloadtruth');
  fs.symlinkSync(process.execPath, link);
  assert.deepEqual(findBinary({ PATH: dir }), { binary: link });
});

test('empty PATH entries are not taken as the current directory', (t) => {
  const dir = tempDir(t);
  writeScript(dir, 'workloadtruth', 'exit 0');
  const cwd = process.cwd();
  process.chdir(dir);
  try {
    assert.equal(findBinary({ PATH: ':' }).binary, undefined);
    assert.equal(findBinary({ PATH: '' }).binary, undefined);
    assert.equal(findBinary({}).binary, undefined);
    assert.deepEqual(findBinary({ PATH: '.' }), { binary: path.join(dir, 'workloadtruth') });
  } finally {
    process.chdir(cwd);
  }
});
