// Measures what a large snapshot costs workerd, served the way large environments are
// deployed (stage.mjs --assets: not bundled, read by range): the time from a started
// workerd to the first answer, and the process's memory over the idle workerd's after
// that answer and after a mix of REST, GraphQL and search requests, against the 128 MiB
// of an edge isolate. For comparing two builds in one run; never a test.
//
//   node wasm/js/tools/edgecheck.mjs --module build/module-tinygo.wasm --snap big.snap [--requests 1000]
//
// It starts workerd itself on a free port of 127.0.0.1 and stops it by its PID.
import { spawn } from 'node:child_process';
import { mkdir, mkdtemp, open as openFile, readFile, rm, symlink } from 'node:fs/promises';
import { connect, createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { snapshotInfo } from '../engine.mjs';

const here = dirname(fileURLToPath(import.meta.url));
const args = process.argv.slice(2);
const opt = { module: '', snap: '', requests: 1000 };
for (let i = 0; i < args.length; i++) {
  const a = args[i], v = () => args[++i];
  if (a === '--module') opt.module = v();
  else if (a === '--snap') opt.snap = v();
  else if (a === '--requests') opt.requests = Number(v());
  else throw new Error(`unknown argument ${a}`);
}
if (!opt.module || !opt.snap) throw new Error('usage: edgecheck.mjs --module FILE --snap FILE [--requests N]');

// The environment's id, from the file's index part.
const fh = await openFile(opt.snap);
const head = Buffer.alloc(80);
await fh.read(head, 0, 80, 0);
const indexLen = Number(head.readBigUInt64LE(72));
const index = Buffer.alloc(indexLen);
await fh.read(index, 0, indexLen, 0);
await fh.close();
const env = snapshotInfo(index).environment;

const port = await new Promise((ok) => { const s = createServer().listen(0, '127.0.0.1', () => { const p = s.address().port; s.close(() => ok(p)); }); });
const work = await mkdtemp(join(tmpdir(), 'edgecheck-'));
const assets = join(work, 'assets'), out = join(work, 'worker');
await mkdir(assets);
await symlink(resolve(opt.snap), join(assets, 'edge.snap'));
await run(process.execPath, [join(here, 'stage.mjs'), '--out', out, '--module', opt.module, '--assets', assets, '--addr', `127.0.0.1:${port}`]);

const workerd = spawn(join(here, '..', 'node_modules', '.bin', 'workerd'), ['serve', join(out, 'config.capnp')], { stdio: ['ignore', 'ignore', 'inherit'] });
const rss = async () => { const s = await readFile(`/proc/${workerd.pid}/status`, 'utf8'); return Number(/VmRSS:\s+(\d+)/.exec(s)[1]) * 1024; };
const mib = (b) => (b / 1048576).toFixed(0);
try {
  await warmClient(); // fetch's first call sets itself up: not the worker's time
  await listening(port);
  const base = await rss();
  const url = (p) => `http://127.0.0.1:${port}${p}`;
  const t0 = performance.now();
  await check(await fetch(url(`/cda/rest/v1/${env}/contents?pageSize=1`)));
  const first = performance.now() - t0;
  const afterFirst = await rss();
  const post = (p, body) => fetch(url(p), { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
  let peak = afterFirst, slowest = 0;
  for (let i = 0; i < opt.requests / 4; i++) {
    for (const req of [
      () => fetch(url(`/cda/rest/v1/${env}/contents?pageSize=20&sort=Name&page=${i % 50 + 1}`)),
      () => post(`/cda/graphql/v1/${env}`, { query: '{ content(pageSize: 10, templateName: "Article") { Name Data { title } } }' }),
      () => post(`/cda/es/v1/${env}`, { query: { query_string: { query: `coffee garden w${i}` } }, size: 10 }),
      () => post(`/cda/es/v1/${env}`, { query: { match: { 'Data.body': 'mountain festival' } }, size: 10, aggs: { t: { terms: { field: 'TemplateName.keyword' } } } }),
    ]) {
      const t = performance.now();
      await check(await req());
      slowest = Math.max(slowest, performance.now() - t);
    }
    peak = Math.max(peak, await rss());
  }
  const after = await rss();
  console.log(`workerd, ${opt.snap} (index part ${mib(indexLen)} MiB): first answer ${first.toFixed(0)} ms after workerd listened (target: 300 ms)`);
  console.log(`RSS over the idle workerd (${mib(base)} MiB): after the first answer ${mib(afterFirst - base)} MiB; after ${opt.requests} mixed requests ${mib(after - base)} MiB, peak ${mib(peak - base)} MiB (target: 128 MiB); slowest request ${slowest.toFixed(0)} ms`);
} finally {
  workerd.kill();
  await new Promise((ok) => (workerd.exitCode !== null ? ok() : workerd.once('exit', ok)));
  await rm(work, { recursive: true, force: true });
}

async function check(r) {
  await r.arrayBuffer();
  if (r.status !== 200) throw new Error(`${r.url}: status ${r.status}`);
}

function run(cmd, argv) {
  return new Promise((ok, fail) => spawn(cmd, argv, { stdio: ['ignore', 'ignore', 'inherit'] })
    .once('exit', (code) => (code === 0 ? ok() : fail(new Error(`${cmd} ${argv[0]}: exit ${code}`)))));
}

// warmClient makes one request to a server of its own, so that fetch is set up before
// the first answer is timed.
async function warmClient() {
  const server = (await import('node:http')).createServer((_, res) => res.end('ok'));
  await new Promise((ok) => server.listen(0, '127.0.0.1', ok));
  await (await fetch(`http://127.0.0.1:${server.address().port}/`)).text();
  await new Promise((ok) => server.close(ok));
}

// listening waits until workerd accepts connections on port p. It only connects: any
// request would start the engine, which the first timed request is to measure.
async function listening(p) {
  for (let i = 0; i < 300; i++) {
    const up = await new Promise((ok) => {
      const c = connect(p, '127.0.0.1', () => { c.destroy(); ok(true); });
      c.once('error', () => ok(false));
    });
    if (up) return;
    await new Promise((ok) => setTimeout(ok, 50));
  }
  throw new Error('workerd did not start listening');
}
