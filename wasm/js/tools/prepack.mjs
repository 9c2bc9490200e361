// npm's prepack step for @cdaedge/engine: the package must ship a working module.wasm
// (the TinyGo build of the query module) and the project's LICENSE. A missing module is
// built with `go tool task build:wasm` when this is the project's checkout and Go is
// there; otherwise, or when the module does not load, packing fails with what to do.
import { readFile, copyFile, access } from 'node:fs/promises';
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { dirname, join } from 'node:path';

const pkg = join(dirname(fileURLToPath(import.meta.url)), '..');
const root = join(pkg, '..', '..');
const exists = (p) => access(p).then(() => true, () => false);
const fail = (msg) => { console.error(`@cdaedge/engine prepack: ${msg}`); process.exit(1); };

const modulePath = join(pkg, 'module.wasm');
if (!(await exists(modulePath))) {
  if (!(await exists(join(root, 'Taskfile.yml')))) {
    fail('module.wasm is missing. Build it in the cdaedge repository with `go tool task build:wasm` (it writes wasm/js/module.wasm), then pack again.');
  }
  console.error('@cdaedge/engine prepack: module.wasm is missing; building it with `go tool task build:wasm` (TinyGo; the first build installs TinyGo and takes a few minutes)…');
  const r = spawnSync('go', ['tool', 'task', 'build:wasm'], { cwd: root, stdio: 'inherit' });
  if (r.error || r.status !== 0) {
    fail(`\`go tool task build:wasm\` failed (${r.error?.message ?? `exit status ${r.status}`}). module.wasm is the TinyGo build of the query module: run that task at the repository root (Go 1.26; it installs TinyGo 0.41.1 into build/tools), then pack again.`);
  }
}

// The module must compile and export what engine.mjs calls.
const bytes = await readFile(modulePath);
let mod;
try {
  mod = await WebAssembly.compile(bytes);
} catch (err) {
  fail(`module.wasm (${bytes.length} bytes) is not a WebAssembly module: ${err.message}. Rebuild it with \`go tool task build:wasm\`.`);
}
const exports = WebAssembly.Module.exports(mod).map((e) => e.name);
const missing = ['memory', '_initialize', 'alloc', 'load_snapshot', 'configure', 'handle', 'provide'].filter((n) => !exports.includes(n));
if (missing.length) fail(`module.wasm does not export ${missing.join(', ')}: it is not the query module. Rebuild it with \`go tool task build:wasm\`.`);
if (bytes.length > 1 << 20) fail(`module.wasm is ${bytes.length} bytes, over the TinyGo module's 1 MiB budget: is it the standard Go build? The package ships the TinyGo one (\`go tool task build:wasm\`).`);

// The project's license, at the package's root where npm and readers look for it.
if (await exists(join(root, 'LICENSE'))) await copyFile(join(root, 'LICENSE'), join(pkg, 'LICENSE'));
else if (!(await exists(join(pkg, 'LICENSE')))) fail('LICENSE is missing.');
console.error(`@cdaedge/engine prepack: module.wasm ${bytes.length} bytes, exports ok; LICENSE copied.`);
