// The Node runtime of the parity suite (wasm/parity): opens the package with the given
// module and snapshot files (by path: the module holds their index parts and reads item
// bodies from the files by range), then answers requests read from stdin, one JSON line
// each, with one JSON line each on stdout. Bodies are base64.
//
//   node driver.mjs serve --module M --snap A.snap [--snap B.snap] [--preview-token ENV=TOKEN]
//     in:  {"method": "GET", "path": "/…", "query": "…", "headers": [["n", "v"]], "body": "base64"}
//     out: {"status": 200, "headers": [["n", "v"]], "body": "base64"}  or  {"error": "…"}
//   node driver.mjs imports M
//     out: {"imports": [{"module": "…", "name": "…", "kind": "function"}], "shim": ["fd_write", …]}
import { readFileSync } from 'node:fs';
import { createInterface } from 'node:readline';
import { open } from '../index.mjs';
import { WASI_FUNCTIONS } from '../wasi.mjs';

const [mode, ...args] = process.argv.slice(2);
if (mode === 'imports') {
  const mod = new WebAssembly.Module(readFileSync(args[0]));
  process.stdout.write(JSON.stringify({ imports: WebAssembly.Module.imports(mod), shim: WASI_FUNCTIONS }) + '\n');
  process.exit(0);
}
if (mode !== 'serve') { process.stderr.write('usage: driver.mjs serve … | imports MODULE\n'); process.exit(2); }

let module, snaps = [], previewTokens = {};
for (let i = 0; i < args.length; i++) {
  if (args[i] === '--module') module = args[++i];
  else if (args[i] === '--snap') snaps.push(args[++i]);
  else if (args[i] === '--preview-token') { const [e, t] = args[++i].split('='); previewTokens[e] = t; }
  else { process.stderr.write(`unknown argument ${args[i]}\n`); process.exit(2); }
}
const engine = await open(snaps, { module, previewTokens, output: (fd, line) => process.stderr.write(line + '\n') });
process.stdout.write(JSON.stringify({ ready: engine.environments }) + '\n');
for await (const line of createInterface({ input: process.stdin, crlfDelay: Infinity })) {
  if (!line) continue;
  let out;
  try {
    const r = JSON.parse(line);
    const resp = engine.request({ method: r.method, path: r.path, query: r.query, headers: r.headers, body: Buffer.from(r.body ?? '', 'base64') });
    out = { status: resp.status, headers: resp.headers, body: Buffer.from(resp.body).toString('base64') };
  } catch (err) {
    out = { error: String(err?.stack ?? err) };
  }
  process.stdout.write(JSON.stringify(out) + '\n');
}
engine.close();
