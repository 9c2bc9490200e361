// How the pages reach an engine: the host they are served from (fetch), or the query
// module itself, instantiated in this page (wasm/js/engine.mjs) with a snapshot the page
// downloaded or the user dropped. Both answer the same request shape with the same bytes.
import { Engine, normalizeHeaders, snapshotInfo } from '../../../wasm/js/engine.mjs';

const td = new TextDecoder();

/** An answer: status, headers (lower-case names), body text, milliseconds taken. */
export class Answer {
  constructor(status, headers, text, ms) { this.status = status; this.headers = headers; this.text = text; this.ms = ms; }
  header(name) { return this.headers.get(name.toLowerCase()); }
  json() { try { return JSON.parse(this.text); } catch { return undefined; } }
}

/** hostTransport sends requests to the host this page came from. */
export function hostTransport() {
  return {
    kind: 'host',
    label: 'the host',
    async environments() {
      const r = await fetch('readyz', { headers: { accept: 'application/json' } }).catch(() => null);
      const j = r?.ok || r?.status === 503 ? await r.json().catch(() => ({})) : {};
      return (j.environments ?? []).filter((e) => !e.preview).map((e) => e.id);
    },
    async send({ method = 'GET', path, query = '', headers = {}, body }) {
      const t0 = performance.now();
      const url = path.replace(/^\//, '') + (query ? '?' + query : '');
      const r = await fetch(url, { method, headers, body: method === 'GET' || method === 'HEAD' ? undefined : body });
      const text = await r.text();
      const h = new Map([...r.headers].map(([n, v]) => [n.toLowerCase(), v]));
      return new Answer(r.status, h, text, performance.now() - t0);
    },
  };
}

/** loadModule compiles the query module served next to the page (web/module.wasm). */
export async function loadModule(url = 'web/module.wasm') {
  const r = await fetch(url);
  if (!r.ok) throw new Error(`module ${url}: ${r.status}`);
  const bytes = await r.arrayBuffer();
  return { module: await WebAssembly.compile(bytes), bytes: bytes.byteLength };
}

/** fetchSnapshot downloads a published environment's snapshot from the host. */
export async function fetchSnapshot(env) {
  const r = await fetch(`web/snapshots/${encodeURIComponent(env)}.snap`);
  if (!r.ok) throw new Error(`snapshot of ${env}: ${r.status}`);
  return new Uint8Array(await r.arrayBuffer());
}

/**
 * browserTransport runs the module in this page with the given snapshots (bytes). The
 * engine is synchronous; a failed call (a trap) kills it, so the next call starts a new
 * instance from the same module and snapshots, as the worker does.
 */
export async function browserTransport(module, snapshots) {
  const envs = snapshots.map((s) => snapshotInfo(s).environment);
  let engine = null;
  const fresh = async () => Engine.instantiate(module, { snapshots, output: (fd, line) => console.log('module:', line) });
  engine = await fresh();
  return {
    kind: 'browser',
    label: 'the module in this page',
    async environments() { return [...new Set(envs)]; },
    async send({ method = 'GET', path, query = '', headers = {}, body }) {
      if (!engine) engine = await fresh();
      const t0 = performance.now();
      let r;
      try {
        r = engine.handle(method, path, query, normalizeHeaders(headers), typeof body === 'string' ? new TextEncoder().encode(body) : (body ?? new Uint8Array(0)));
      } catch (err) {
        engine = null;
        throw err;
      }
      const ms = performance.now() - t0;
      const h = new Map(r.headers.map(([n, v]) => [n.toLowerCase(), v]));
      return new Answer(r.status, h, td.decode(r.body), ms);
    },
  };
}
