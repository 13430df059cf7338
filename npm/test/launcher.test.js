'use strict';
// The launcher end to end against fake native binaries: arguments, environment, stdio, exit codes,
// signals, and what it says when there is no binary.
const test = require('node:test');
const assert = require('node:assert/strict');
const { spawn } = require('node:child_process');
const fs = require('node:fs');
const path = require('node:path');
const { LAUNCHER, SYSTEM_PATH, tempDir, writeScript, runLauncher } = require('../test-support/fake-binary');

test('arguments, environment, stderr and the exit code pass through', (t) => {
  const bin = writeScript(tempDir(t), 'workloadtruth', `printf '[%s]' "$@"; echo oops >&2; exit "$FAKE_EXIT"`);
  for (const code of [0, 1, 2, 3, 42, 255]) {
    const env = { PATH: `${path.dirname(bin)}:${SYSTEM_PATH}`, FAKE_EXIT: String(code) };
    const r = runLauncher(['classify', 'b c', '', '--json'], env);
    assert.equal(r.signal, null);
    assert.equal(r.status, code);
    assert.equal(r.stdout, '[classify][b c][][--json]');
    assert.equal(r.stderr, 'oops\n');
  }
});

test('the binary gets the launcher\'s own stdin and stdout, not pipes through it', (t) => {
  const dir = tempDir(t);
  if (!fs.existsSync('/proc/self/fd/0')) return t.skip('no /proc/self/fd here');
  const bin = writeScript(dir, 'workloadtruth', 'readlink /proc/self/fd/0; readlink /proc/self/fd/1; cat');
  const input = path.join(dir, 'input.txt');
  const output = path.join(dir, 'output.txt');
  fs.writeFileSync(input, 'line 1\nline 2\n');
  const inFd = fs.openSync(input, 'r');
  const outFd = fs.openSync(output, 'w');
  try {
    const r = runLauncher([], { WORKLOADTRUTH_BIN: bin, PATH: SYSTEM_PATH }, { stdio: [inFd, outFd, 'pipe'] });
    assert.equal(r.status, 0, r.stderr);
  } finally {
    fs.closeSync(inFd);
    fs.closeSync(outFd);
  }
  const fds = `${fs.realpathSync(input)}\n${fs.realpathSync(output)}\n`;
  assert.equal(fs.readFileSync(output, 'utf8'), `${fds}line 1\nline 2\n`);
});

test('stdin piped into the launcher reaches the binary, its stdout comes back', (t) => {
  const bin = writeScript(tempDir(t), 'workloadtruth', 'tr a-z A-Z');
  const r = runLauncher([], { WORKLOADTRUTH_BIN: bin, PATH: SYSTEM_PATH }, { input: 'gpu 0 training\n' });
  assert.equal(r.status, 0, r.stderr);
  assert.equal(r.stdout, 'GPU 0 TRAINING\n');
});

// A fake binary that records the signal it gets, then dies of it, as a program without a handler would.
function signalRecorder(dir, signal) {
  const name = signal.replace(/^SIG/, '');
  return writeScript(
    dir,
    'workloadtruth',
    `trap 'kill $pid; echo "got ${name}" > "$FAKE_RECORD"; trap - ${name}; kill -s ${name} $$' ${name}
sleep 30 & pid=$!
echo ready
wait $pid
echo "no signal" > "$FAKE_RECORD"`,
  );
}

// Starts the launcher, waits until the binary is running, sends `signal` to the launcher's pid
// alone, and resolves with how the launcher ended.
function signalLauncher(env, signal) {
  return new Promise((resolve, reject) => {
    const launcher = spawn(process.execPath, [LAUNCHER], { env, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    const timer = setTimeout(() => launcher.kill('SIGKILL'), 20000);
    launcher.stdout.on('data', (chunk) => {
      stdout += chunk;
      if (stdout === 'ready\n') launcher.kill(signal);
    });
    launcher.stderr.on('data', (chunk) => (stderr += chunk));
    launcher.on('error', reject);
    launcher.on('exit', (code, endedBy) => {
      clearTimeout(timer);
      resolve({ code, signal: endedBy, stdout, stderr });
    });
  });
}

for (const signal of ['SIGTERM', 'SIGINT', 'SIGHUP']) {
  test(`${signal} to the launcher reaches the binary; the launcher then dies of it too`, async (t) => {
    const dir = tempDir(t);
    const record = path.join(dir, 'record');
    const bin = signalRecorder(dir, signal);
    const ended = await signalLauncher({ WORKLOADTRUTH_BIN: bin, PATH: SYSTEM_PATH, FAKE_RECORD: record }, signal);
    assert.equal(fs.readFileSync(record, 'utf8'), `got ${signal.slice(3)}\n`);
    assert.deepEqual(ended, { code: null, signal, stdout: 'ready\n', stderr: '' });
  });
}

test('a binary that handles the signal and exits normally gives its exit code', async (t) => {
  const dir = tempDir(t);
  const bin = writeScript(dir, 'workloadtruth', `trap 'kill $pid; exit 0' TERM
sleep 30 & pid=$!
echo ready
wait $pid
exit 9`);
  const ended = await signalLauncher({ WORKLOADTRUTH_BIN: bin, PATH: SYSTEM_PATH }, 'SIGTERM');
  assert.deepEqual(ended, { code: 0, signal: null, stdout: 'ready\n', stderr: '' });
});

test('a binary killed by a signal nobody forwarded ends the launcher the same way', (t) => {
  const dir = tempDir(t);
  const bin = writeScript(dir, 'workloadtruth', 'kill -s KILL $$');
  const r = runLauncher([], { WORKLOADTRUTH_BIN: bin, PATH: SYSTEM_PATH });
  assert.equal(r.signal, 'SIGKILL');
  // Node would start its debugger on SIGUSR1 rather than die, so that one becomes 128 + 10.
  const usr1 = writeScript(dir, 'usr1', 'kill -s USR1 $$');
  const r1 = runLauncher([], { WORKLOADTRUTH_BIN: usr1, PATH: SYSTEM_PATH });
  assert.deepEqual([r1.status, r1.signal, r1.stderr], [138, null, '']);
  // Node ignores SIGPIPE, so that one cannot be raised again either: 128 + 13.
  const pipe = writeScript(dir, 'pipe', 'kill -s PIPE $$');
  const r2 = runLauncher([], { WORKLOADTRUTH_BIN: pipe, PATH: SYSTEM_PATH });
  assert.deepEqual([r2.status, r2.signal, r2.stderr], [141, null, '']);
});

test('no binary: build instructions on stderr, exit 127', (t) => {
  const empty = tempDir(t);
  const r = runLauncher(['classify', '--help'], { PATH: empty });
  assert.equal(r.status, 127);
  assert.equal(r.stdout, '');
  assert.match(r.stderr, /^workloadtruth \(npm launcher\): no native workloadtruth binary on PATH\./);
  const build = 'bash scripts/setup.sh && cmake --preset default && cmake --build --preset default';
  assert.ok(r.stderr.includes(build), r.stderr);
  assert.ok(r.stderr.includes('build/default/src/workloadtruth'), r.stderr);
  assert.ok(r.stderr.includes('WORKLOADTRUTH_BIN'), r.stderr);
});

test('WORKLOADTRUTH_BIN naming no executable file: exit 127 naming it, even with a binary on PATH', (t) => {
  const dir = tempDir(t);
  const onPath = writeScript(path.join(dir, 'path'), 'workloadtruth', 'echo from PATH');
  const missing = path.join(dir, 'nowhere', 'workloadtruth');
  const r = runLauncher([], { WORKLOADTRUTH_BIN: missing, PATH: path.dirname(onPath) });
  assert.equal(r.status, 127);
  assert.equal(r.stdout, '');
  const problem = `workloadtruth (npm launcher): WORKLOADTRUTH_BIN=${missing}: no such file.\n`;
  assert.ok(r.stderr.startsWith(problem), r.stderr);
});

test('WORKLOADTRUTH_BIN wins over PATH', (t) => {
  const dir = tempDir(t);
  const onPath = writeScript(path.join(dir, 'path'), 'workloadtruth', 'echo from PATH');
  const chosen = writeScript(path.join(dir, 'env'), 'workloadtruth', 'echo from WORKLOADTRUTH_BIN');
  const r = runLauncher([], { WORKLOADTRUTH_BIN: chosen, PATH: `${path.dirname(onPath)}:${SYSTEM_PATH}` });
  assert.equal(r.status, 0, r.stderr);
  assert.equal(r.stdout, 'from WORKLOADTRUTH_BIN\n');
});

test('the launcher\'s own bin link first on PATH is passed over, not run again', (t) => {
  const dir = tempDir(t);
  const shim = path.join(dir, 'shim');
  fs.mkdirSync(shim);
  fs.symlinkSync(LAUNCHER, path.join(shim, 'workloadtruth'));
  const native = writeScript(path.join(dir, 'native'), 'workloadtruth', 'echo native');
  const r = runLauncher([], { PATH: `${shim}:${path.dirname(native)}:${SYSTEM_PATH}` });
  assert.equal(r.status, 0, r.stderr);
  assert.equal(r.stdout, 'native\n');
  const alone = runLauncher([], { PATH: shim });
  assert.equal(alone.error, undefined); // not timed out starting itself over and over
  assert.equal(alone.status, 127);
});

test('a binary the system will not start: exit 126 naming it', (t) => {
  const bin = path.join(tempDir(t), 'workloadtruth');
  fs.writeFileSync(bin, '#!/nonexistent/interpreter\n', { mode: 0o755 });
  const r = runLauncher([], { WORKLOADTRUTH_BIN: bin, PATH: SYSTEM_PATH });
  assert.equal(r.status, 126);
  assert.ok(r.stderr.startsWith(`workloadtruth (npm launcher): cannot run ${bin}: `), r.stderr);
});
