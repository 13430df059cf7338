// End to end: the official MCP TypeScript SDK client spawns `workloadtruth mcp` over stdio,
// lists the tools and calls each, and checks that every result is what the CLI prints with
// --json. Then raw JSON lines for what the SDK does not send: the stateless 2026-07-28
// revision, malformed and oversized messages, a client that goes away mid-call.
// Usage: node mcp_client_test.mjs WORKLOADTRUTH FIXTURE_DIR
import assert from "node:assert/strict";
import { spawn, spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import readline from "node:readline";

const [bin, fixtures] = process.argv.slice(2);
if (!bin || !fixtures) {
  console.error("usage: node mcp_client_test.mjs WORKLOADTRUTH FIXTURE_DIR");
  process.exit(2);
}

let sdk;
try {
  sdk = {
    ...(await import("@modelcontextprotocol/sdk/client/index.js")),
    ...(await import("@modelcontextprotocol/sdk/client/stdio.js")),
    ...(await import("@modelcontextprotocol/sdk/types.js")),
  };
} catch (e) {
  console.error(`FAIL: the MCP SDK is not installed (${e.code ?? e.message}).\n` +
    `Install it with:  npm ci --prefix ${path.dirname(new URL(import.meta.url).pathname)}\n` +
    "(bash scripts/setup.sh does this too)");
  process.exit(1);
}

const tmp = fs.mkdtempSync(path.join(os.tmpdir(), "wt-mcp-e2e-"));
const auditLog = path.join(tmp, "audit.jsonl");
let checks = 0;
const ok = (what) => { checks++; console.log(`ok ${checks} - ${what}`); };

function cli(...args) {
  const r = spawnSync(bin, args, { encoding: "utf8" });
  return { code: r.status, stdout: r.stdout, get json() { return JSON.parse(r.stdout); } };
}

function sameAsText(result) {
  assert.equal(result.content[0].type, "text");
  assert.deepEqual(JSON.parse(result.content[0].text), result.structuredContent);
}

// ---- 1. The SDK client (initialize handshake) ----
const transport = new sdk.StdioClientTransport({ command: bin, args: ["mcp", "--audit-log", auditLog], stderr: "pipe" });
let serverLog = "";
transport.stderr?.on("data", (d) => { serverLog += d; });
const client = new sdk.Client({ name: "workloadtruth-e2e", version: "1.0.0" });
await client.connect(transport);
const version = cli("--version").stdout.trim().split(" ")[1];
assert.equal(client.getServerVersion().name, "workloadtruth");
assert.equal(client.getServerVersion().version, version);
assert.ok(client.getServerCapabilities().tools);
ok(`initialize: ${client.getServerVersion().name} ${version}`);

const { tools } = await client.listTools();
assert.deepEqual(tools.map((t) => t.name), ["classify_workload", "classify_trace", "run_benchmark", "verify_audit_log", "report_audit_logs"]);
for (const t of tools) {
  assert.equal(t.inputSchema.type, "object", t.name);
  assert.equal(t.outputSchema.type, "object", t.name);
  assert.ok(t.description.length > 20, t.name);
}
ok("tools/list: five tools, each with inputSchema and outputSchema");

// classify_workload, synthetic: the seed shape, as `classify --backend synthetic --json`; written to the audit log.
let r = await client.callTool({ name: "classify_workload",
  arguments: { backend: "synthetic", profile: "training", samples: 30, classifier: "rules", write_to_audit_log: true } });
assert.ok(!r.isError, JSON.stringify(r));
sameAsText(r);
assert.equal(r.structuredContent.workload_type, "TRAINING");
assert.equal(r.structuredContent.audit_log.path, auditLog);
assert.equal(r.structuredContent.audit_log.entries_written, 1);
const { audit_log: _written, ...verdict } = r.structuredContent;
const cliSynthetic = cli("classify", "--backend", "synthetic", "--profile", "training", "--samples", "30", "--interval", "0",
  "--classifier", "rules", "--json");
assert.deepEqual(verdict, cliSynthetic.json);
ok(`classify_workload synthetic, seed rules: ${verdict.workload_type} ${verdict.confidence}, same JSON as the CLI, appended to the audit log`);

// classify_workload, simulator: the full per-GPU result.
r = await client.callTool({ name: "classify_workload",
  arguments: { backend: "sim", scenario: "training/finetune/pid-target", samples: 300 } });
assert.ok(!r.isError, JSON.stringify(r));
assert.deepEqual(r.structuredContent, cli("classify", "--backend", "sim", "--scenario", "training/finetune/pid-target",
  "--samples", "300", "--json").json);
ok(`classify_workload sim pid-target: ${r.structuredContent.gpus[0].workload_type}, same JSON as the CLI`);

// classify_trace: per-GPU verdicts and timeline, the same as `classify --replay FILE --json`.
const trace = path.join(fixtures, "csv", "two_gpus.csv");
r = await client.callTool({ name: "classify_trace", arguments: { trace_file: trace } });
assert.ok(!r.isError, JSON.stringify(r));
sameAsText(r);
assert.deepEqual(r.structuredContent, cli("classify", "--replay", trace, "--json").json);
assert.equal(r.structuredContent.gpus.length, 2);
assert.equal(r.structuredContent.gpus[1].workload_type, "IDLE");
assert.ok(r.structuredContent.gpus[0].windows.length > 0);
ok(`classify_trace two_gpus.csv: ${r.structuredContent.gpus.map((g) => g.workload_type).join(", ")} with timelines, ` +
  "same JSON as the CLI");

r = await client.callTool({ name: "classify_trace", arguments: { trace_file: path.join(tmp, "missing.csv") } });
assert.equal(r.isError, true);
assert.match(r.content[0].text, /missing\.csv/);
ok(`classify_trace on a missing file: isError, "${r.content[0].text}"`);

// verify_audit_log: what classify_workload wrote, the same as `verify-log --json`.
r = await client.callTool({ name: "verify_audit_log", arguments: { log_file: auditLog } });
assert.ok(!r.isError, JSON.stringify(r));
sameAsText(r);
assert.equal(r.structuredContent.valid, true);
assert.equal(r.structuredContent.entries, 1);
assert.deepEqual(r.structuredContent, cli("verify-log", auditLog, "--json").json);
ok(`verify_audit_log: ${r.structuredContent.message}, same JSON as the CLI`);

// verify_audit_log with aggregate: report's summary (checked against the output schema by the SDK),
// the same as `report --json`.
r = await client.callTool({ name: "verify_audit_log", arguments: { log_file: auditLog, aggregate: true, min_gpus: 1 } });
assert.ok(!r.isError, JSON.stringify(r));
sameAsText(r);
assert.equal(r.structuredContent.report.classes[0].class, "TRAINING");
assert.deepEqual(r.structuredContent.report, cli("report", auditLog, "--min-gpus", "1", "--json").json.report);
ok(`verify_audit_log with aggregate: ${r.structuredContent.report.classes.length} class shown, same report as the CLI`);

// report_audit_logs: the whole of `report LOG... --json` (one log here; several in the C++ tests).
r = await client.callTool({ name: "report_audit_logs", arguments: { log_files: [auditLog], min_gpus: 1 } });
assert.ok(!r.isError, JSON.stringify(r));
sameAsText(r);
assert.deepEqual(r.structuredContent, cli("report", auditLog, "--min-gpus", "1", "--json").json);
ok(`report_audit_logs: ${r.structuredContent.logs.length} log verified, same JSON as the CLI`);

// run_benchmark: small, the same as `benchmark --json` with the same settings.
const t0 = Date.now();
r = await client.callTool({ name: "run_benchmark", arguments: { trials: 1, duration_seconds: 60 } }, undefined, { timeout: 300000 });
const benchSeconds = (Date.now() - t0) / 1000;
assert.ok(!r.isError, JSON.stringify(r));
sameAsText(r);
assert.deepEqual(r.structuredContent, cli("benchmark", "--trials", "1", "--duration", "60", "--json").json);
ok(`run_benchmark trials 1, 60 s traces: ${benchSeconds.toFixed(1)} s, xgboost window accuracy ` +
  `${r.structuredContent.synthetic.overall.xgboost.accuracy.windows}, same JSON as the CLI`);

// Arguments that break the input schema are protocol errors (-32602).
await assert.rejects(client.callTool({ name: "classify_trace", arguments: { trace_file: 5 } }),
  (e) => e instanceof sdk.McpError && e.code === -32602);
await assert.rejects(client.callTool({ name: "no_such_tool", arguments: {} }),
  (e) => e instanceof sdk.McpError && e.code === -32602);
ok("wrong argument type and unknown tool: -32602");

// No tool wrote anything but the audit log.
assert.deepEqual(fs.readdirSync(tmp), ["audit.jsonl"]);
ok("nothing written but the configured audit log");
await client.close();
ok("client closed; server stopped");

// ---- 2. Raw JSON lines ----
class Raw {
  constructor(args = []) {
    this.proc = spawn(bin, ["mcp", ...args], { stdio: ["pipe", "pipe", "pipe"] });
    this.lines = [];
    this.waiters = [];
    this.stderr = "";
    this.proc.stderr.on("data", (d) => { this.stderr += d; });
    readline.createInterface({ input: this.proc.stdout }).on("line", (l) => {
      const m = JSON.parse(l);  // every stdout line is protocol
      const w = this.waiters.shift();
      if (w) w(m); else this.lines.push(m);
    });
    this.exited = new Promise((res) => this.proc.on("exit", (code, signal) => res({ code, signal })));
  }
  next() { return this.lines.length ? Promise.resolve(this.lines.shift()) : new Promise((res) => this.waiters.push(res)); }
  send(text) { this.proc.stdin.write(text + "\n"); return this.next(); }
  request(id, method, params) { return this.send(JSON.stringify({ jsonrpc: "2.0", id, method, params })); }
}
const meta = (v) => ({ "io.modelcontextprotocol/protocolVersion": v, "io.modelcontextprotocol/clientCapabilities": {},
  "io.modelcontextprotocol/clientInfo": { name: "raw", version: "1" } });

const raw = new Raw();
let m = await raw.request(1, "server/discover", { _meta: meta("2026-07-28") });
assert.deepEqual(m.result.supportedVersions, ["2026-07-28", "2025-11-25", "2025-06-18"]);
assert.equal(m.result.resultType, "complete");
ok(`server/discover: ${JSON.stringify(m.result.supportedVersions)}`);

m = await raw.request(2, "tools/list", { _meta: meta("2026-07-28") });
assert.equal(m.result.resultType, "complete");
assert.equal(m.result.tools.length, 5);
m = await raw.request(3, "tools/call", { _meta: meta("2026-07-28"), name: "classify_trace", arguments: { trace_file: trace } });
assert.equal(m.result.resultType, "complete");
assert.equal(m.result.structuredContent.gpus.length, 2);
ok("2026-07-28 tools/list and tools/call with no handshake: resultType complete");

m = await raw.request(4, "tools/list", { _meta: meta("1900-01-01") });
assert.equal(m.error.code, -32022);
assert.deepEqual(m.error.data, { supported: ["2026-07-28", "2025-11-25", "2025-06-18"], requested: "1900-01-01" });
ok(`unknown version: ${m.error.code} ${m.error.message}`);

assert.equal((await raw.send("{\"jsonrpc\": \"2.0\", \"id\": 5, \"method\"")).error.code, -32700);
assert.equal((await raw.send("[]")).error.code, -32600);
assert.equal((await raw.request(6, "resources/read", {})).error.code, -32601);
assert.equal((await raw.request(7, "tools/call", { name: "run_benchmark", arguments: { trials: "two" } })).error.code, -32602);
ok("malformed JSON -32700, batch -32600, unknown method -32601, wrong type -32602");

m = await raw.send(JSON.stringify({ jsonrpc: "2.0", id: 8, method: "ping", params: { pad: "x".repeat(5 * 1024 * 1024) } }));
assert.equal(m.error.code, -32600);
assert.equal((await raw.request(9, "ping")).id, 9);
ok(`5 MiB message: ${m.error.code} "${m.error.message}", next request served`);

raw.proc.stdin.end();
assert.deepEqual(await raw.exited, { code: 0, signal: null });
ok("end of input: exit 0");

// A client that sends a call and goes away before the answer.
const gone = new Raw();
gone.proc.stdin.write(JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/call",
  params: { name: "classify_workload", arguments: { backend: "synthetic", samples: 20, interval_seconds: 0.05 } } }) + "\n");
gone.proc.stdin.end();
gone.proc.stdout.destroy();
const t1 = Date.now();
const exit = await gone.exited;
assert.deepEqual(exit, { code: 0, signal: null });
ok(`client gone mid-call: exit ${exit.code} after ${((Date.now() - t1) / 1000).toFixed(1)} s, no crash`);

fs.rmSync(tmp, { recursive: true, force: true });
console.log(`all ${checks} checks passed`);
