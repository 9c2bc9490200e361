// Measures what a large snapshot costs the query module in Node: the time to the first
// answer, the wasm memory, the process's RSS and the latency (p50, mean, max) of a few
// query kinds over repeated requests. The snapshot is opened by its path, as the package
// recommends: the module holds its index part and reads item bodies from the file by
// range. For comparing two builds in one run; never a test.
//
//   node wasm/js/tools/scalecheck.mjs --module build/module-tinygo.wasm --snap big.snap [--rounds 30]
import { readFile } from 'node:fs/promises';
import { open } from '../index.mjs';

const args = process.argv.slice(2);
const opt = { module: '', snap: '', rounds: 30, verify: true };
for (let i = 0; i < args.length; i++) {
  const a = args[i], v = () => args[++i];
  if (a === '--module') opt.module = v();
  else if (a === '--snap') opt.snap = v();
  else if (a === '--rounds') opt.rounds = Number(v());
  else if (a === '--no-verify') opt.verify = false;
  else throw new Error(`unknown argument ${a}`);
}
const mib = (b) => Math.round(b / 1048576);
const rss0 = process.memoryUsage().rss;
const mod = await WebAssembly.compile(await readFile(opt.module));
const t0 = performance.now();
const engine = await open(opt.snap, { module: mod, verify: opt.verify });
const tLoad = performance.now();
const env = engine.environment;
const enc = (s) => new TextEncoder().encode(s);
const json = [['content-type', 'application/json'], ['host', 'x']];
const queries = [
  ['rest list by name', 'GET', `/cda/rest/v1/${env}/contents`, 'searchByName=culture&sort=Name&pageSize=10', [['host', 'x']], ''],
  ['graphql list', 'POST', `/cda/graphql/v1/${env}`, '', json, '{"query":"query { content(pageSize: 10, page: 1, sortAsc: true) { Name, ContentID, Data } }"}'],
  ['search one word', 'POST', `/cda/es/v1/${env}`, '', json, '{"query":{"query_string":{"query":"garden"}},"size":10}'],
  ['search two words', 'POST', `/cda/es/v1/${env}`, '', json, '{"query":{"query_string":{"query":"coffee mountain"}},"size":10}'],
  ['search phrase+aggs', 'POST', `/cda/es/v1/${env}`, '', json, '{"query":{"match_phrase":{"Data.body":"headless garden"}},"size":5,"aggs":{"t":{"terms":{"field":"TemplateName.keyword"}}}}'],
];
const ask = ([name, m, p, q, h, b]) => {
  const r = engine.request({ method: m, path: p, query: q, headers: h, body: enc(b) });
  if (r.status !== 200) throw new Error(`${name}: ${r.status} ${r.text()}`);
};
ask(queries[0]);
const tFirst = performance.now();
console.log(`file ${opt.snap}: index part loaded ${(tLoad - t0).toFixed(0)} ms, first answer ${(tFirst - t0).toFixed(0)} ms (verify ${opt.verify})`);
console.log(`after load: wasm memory ${mib(engine.memoryBytes)} MiB, RSS ${mib(process.memoryUsage().rss - rss0)} MiB over the baseline`);
for (const q of queries) {
  const lat = [];
  for (let i = 0; i < opt.rounds; i++) { const t = performance.now(); ask(q); lat.push(performance.now() - t); }
  lat.sort((a, b) => a - b);
  const mean = lat.reduce((a, b) => a + b, 0) / lat.length;
  console.log(`${q[0].padEnd(22)} p50 ${lat[lat.length >> 1].toFixed(2).padStart(9)} ms  mean ${mean.toFixed(2).padStart(9)} ms  max ${lat[lat.length - 1].toFixed(2).padStart(9)} ms`);
}
console.log(`after queries: wasm memory ${mib(engine.memoryBytes)} MiB, RSS ${mib(process.memoryUsage().rss - rss0)} MiB over the baseline`);
engine.close();
