'use strict';
// Finds the native workloadtruth binary: $WORKLOADTRUTH_BIN when set, else the first match on
// PATH. A Node script is never taken: the native binary is not one, and on PATH it would be this
// launcher's own bin link (or another install of it), which would start itself again forever.
const fs = require('node:fs');
const path = require('node:path');

const BINARY_NAME = 'workloadtruth';

function startsWithNodeShebang(file) {
  let fd;
  try {
    fd = fs.openSync(file, 'r');
    const head = Buffer.alloc(256);
    const firstLine = head.subarray(0, fs.readSync(fd, head, 0, head.length, 0)).toString('latin1').split('\n')[0];
    return firstLine.startsWith('#!') && /\bnode(js)?\b/.test(firstLine);
  } catch {
    return false; // executable but unreadable (mode 711): a native binary, never a script
  } finally {
    if (fd !== undefined) fs.closeSync(fd);
  }
}

// Why the file cannot be the native binary, or null when it can.
function unusableBecause(file) {
  let stat;
  try {
    stat = fs.statSync(file);
  } catch {
    return 'no such file';
  }
  if (!stat.isFile()) return 'not a file';
  try {
    fs.accessSync(file, fs.constants.X_OK);
  } catch {
    return 'not executable';
  }
  if (startsWithNodeShebang(file)) return 'a Node script (this launcher?), not the native binary';
  return null;
}

// Returns {binary: absolute path} or {problem: what went wrong, for the message}.
function findBinary(env) {
  if (env.WORKLOADTRUTH_BIN) {
    const file = path.resolve(env.WORKLOADTRUTH_BIN);
    const why = unusableBecause(file);
    return why ? { problem: `WORKLOADTRUTH_BIN=${env.WORKLOADTRUTH_BIN}: ${why}` } : { binary: file };
  }
  for (const dir of (env.PATH || '').split(path.delimiter)) {
    if (!dir) continue; // an empty entry means the current directory to a shell: too easy to hijack
    const file = path.resolve(dir, BINARY_NAME);
    if (!unusableBecause(file)) return { binary: file };
  }
  return { problem: `no native ${BINARY_NAME} binary on PATH` };
}

module.exports = { findBinary };
