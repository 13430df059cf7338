'use strict';
// The package as published: `npm pack`, installed offline from the tarball, its bin link run.
const test = require('node:test');
const assert = require('node:assert/strict');
const { spawnSync } = require('node:child_process');
const fs = require('node:fs');
const path = require('node:path');
const { PACKAGE_DIR, SYSTEM_PATH, tempDir, writeScript, runLauncher } = require('../test-support/fake-binary');

const pkg = JSON.parse(fs.readFileSync(path.join(PACKAGE_DIR, 'package.json'), 'utf8'));

// npm kept off the network and out of the user's cache and logs.
function npm(args, cwd, scratch) {
  const env = {
    ...process.env,
    npm_config_cache: path.join(scratch, 'npm-cache'),
    npm_config_offline: 'true',
    npm_config_audit: 'false',
    npm_config_fund: 'false',
    npm_config_update_notifier: 'false',
  };
  const r = spawnSync('npm', args, { cwd, env, encoding: 'utf8', timeout: 120000 });
  if (r.error) throw r.error;
  assert.equal(r.status, 0, `npm ${args.join(' ')}: ${r.stderr}`);
  return r.stdout;
}

const npmMissing = spawnSync('npm', ['--version']).error !== undefined;

const skipWithoutNpm = { skip: npmMissing && 'npm not found (scripts/setup.sh installs it)' };

test('packed, installed offline and run through its bin link', skipWithoutNpm, (t) => {
  const scratch = tempDir(t);
  const [packed] = JSON.parse(npm(['pack', '--json', '--pack-destination', scratch], PACKAGE_DIR, scratch));
  assert.equal(packed.name, 'workloadtruth-cli');
  // Only what runs, with its license and README: no tests, no test support.
  const files = packed.files.map((f) => f.path).sort();
  for (const f of files) assert.match(f, /^(package\.json|README\.md|LICENSE|bin\/[^/]+\.js|lib\/[^/]+\.js)$/, f);
  for (const f of ['LICENSE', 'README.md', 'bin/workloadtruth.js', 'package.json']) assert.ok(files.includes(f), f);
  for (const f of fs.readdirSync(path.join(PACKAGE_DIR, 'lib'))) assert.ok(files.includes(`lib/${f}`), f);

  const prefix = path.join(scratch, 'install');
  fs.mkdirSync(prefix);
  npm(['install', '--no-save', '--prefix', prefix, path.join(scratch, packed.filename)], prefix, scratch);
  const binDir = path.join(prefix, 'node_modules', '.bin');
  const bin = path.join(binDir, 'workloadtruth');
  const nodeDir = path.dirname(process.execPath); // for the bin link's "#!/usr/bin/env node"
  const run = (args, env) => spawnSync(bin, args, { env, encoding: 'utf8', timeout: 30000 });

  const fake = writeScript(path.join(scratch, 'native'), 'workloadtruth', `printf '[%s]' "$@"; exit 3`);
  const viaEnv = run(['a b'], { WORKLOADTRUTH_BIN: fake, PATH: `${nodeDir}:${SYSTEM_PATH}` });
  assert.deepEqual([viaEnv.status, viaEnv.stdout, viaEnv.stderr], [3, '[a b]', '']);
  // Its own bin link comes first on PATH, as after `npm install -g`: passed over for the binary.
  const viaPath = run(['x'], { PATH: `${binDir}:${path.dirname(fake)}:${nodeDir}:${SYSTEM_PATH}` });
  assert.deepEqual([viaPath.status, viaPath.stdout, viaPath.stderr], [3, '[x]', '']);
  const none = run([], { PATH: `${binDir}:${nodeDir}` });
  assert.equal(none.status, 127);
  assert.match(none.stderr, /scripts\/setup\.sh/);
});

test('package version is the project version, LICENSE is the project license', () => {
  const cmake = fs.readFileSync(path.join(PACKAGE_DIR, '..', 'CMakeLists.txt'), 'utf8');
  assert.equal(pkg.version, /project\(workloadtruth VERSION (\S+)/.exec(cmake)[1]);
  const license = fs.readFileSync(path.join(PACKAGE_DIR, 'LICENSE'));
  assert.ok(license.equals(fs.readFileSync(path.join(PACKAGE_DIR, '..', 'LICENSE'))));
});

test('the real workloadtruth binary through the launcher', (t) => {
  const real = process.env.WORKLOADTRUTH_TEST_BINARY;
  if (!real) return t.skip('WORKLOADTRUTH_TEST_BINARY not set (ctest sets it to the built binary)');
  const env = { WORKLOADTRUTH_BIN: real, PATH: SYSTEM_PATH };
  const version = runLauncher(['--version'], env);
  assert.deepEqual([version.status, version.stdout], [0, `workloadtruth ${pkg.version}\n`]);
  // Found on PATH as well, and its usage-error exit code (2) comes back unchanged.
  const usage = runLauncher(['no-such-command'], { PATH: `${path.dirname(real)}:${SYSTEM_PATH}` });
  assert.equal(usage.status, 2, usage.stderr);
  const classify = ['classify', '--backend', 'synthetic', '--profile', 'training', '--samples', '30', '--interval', '0'];
  const json = runLauncher([...classify, '--classifier', 'rules', '--json'], env);
  assert.equal(json.status, 0, json.stderr);
  assert.equal(JSON.parse(json.stdout).workload_type, 'TRAINING');
});
