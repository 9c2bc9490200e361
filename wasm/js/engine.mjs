// The runtime-independent half of the JavaScript glue: instantiate the cdaedge query
// module (a WebAssembly.Module compiled by the caller: Node compiles the file, workerd
// gets it from its bundle), load snapshots, configure the router and answer requests
// through the module's exports. Framing and memory ownership: wasm/README.md.
import { createWasi, WasiExit } from './wasi.mjs';

export { WasiExit };
const te = new TextEncoder(), td = new TextDecoder();

/**
 * snapshotInfo reads a snapshot file's header and "meta" section: {environment, preview}.
 * It does not verify the file (Engine.verifySnapshot does).
 */
export function snapshotInfo(bytes) {
  const b = toBytes(bytes), v = new DataView(b.buffer, b.byteOffset, b.byteLength);
  if (b.length < 80 || td.decode(b.subarray(0, 7)) !== 'CDASNAP') throw new Error('not a snapshot file');
  const count = v.getUint32(20, true), table = Number(v.getBigUint64(24, true));
  for (let i = 0; i < count; i++) {
    const e = table + 40 * i;
    if (e + 40 > b.length) break;
    const name = td.decode(b.subarray(e, e + 24)).replace(/\0+$/, '');
    if (name !== 'meta') continue;
    const off = Number(v.getBigUint64(e + 24, true)), len = Number(v.getBigUint64(e + 32, true));
    const meta = JSON.parse(td.decode(b.subarray(off, off + len)));
    return { environment: meta.environment, preview: !!meta.preview };
  }
  throw new Error('snapshot has no meta section');
}

function toBytes(x) {
  if (x instanceof Uint8Array) return x;
  if (x instanceof ArrayBuffer) return new Uint8Array(x);
  if (ArrayBuffer.isView(x)) return new Uint8Array(x.buffer, x.byteOffset, x.byteLength);
  if (typeof x === 'string') return te.encode(x);
  throw new TypeError('expected bytes (Uint8Array, ArrayBuffer) or a string');
}

function frame(magic, write) {
  const parts = [];
  let size = 8;
  const w = {
    u32(x) { parts.push(['u', x]); size += 4; },
    str(s) { const b = toBytes(s); parts.push(['u', b.length], ['b', b]); size += 4 + b.length; },
  };
  write(w);
  const out = new Uint8Array(size), v = new DataView(out.buffer);
  out.set(te.encode(magic), 0); v.setUint32(4, 1, true);
  let o = 8;
  for (const [k, x] of parts) {
    if (k === 'u') { v.setUint32(o, x, true); o += 4; } else { out.set(x, o); o += x.length; }
  }
  return out;
}

/** encodeRequest builds a CDRQ frame; headers are [[name, value]] already in Fetch form. */
export function encodeRequest(method, path, query, headers, body) {
  return frame('CDRQ', (w) => {
    w.str(method); w.str(path); w.str(query); w.u32(headers.length);
    for (const [n, v] of headers) { w.str(n); w.str(v); }
    w.str(body);
  });
}

/** encodeOptions builds a CDOP frame from {cacheControl, maxBodyBytes, maxUrlBytes, maxResponseBytes, previewTokens}. */
export function encodeOptions({ cacheControl = '', maxBodyBytes = 0, maxUrlBytes = 0, maxResponseBytes = 0, previewTokens = {} } = {}) {
  const envs = Object.keys(previewTokens).sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
  return frame('CDOP', (w) => {
    w.str(cacheControl); w.u32(maxBodyBytes); w.u32(maxUrlBytes); w.u32(envs.length);
    for (const env of envs) { w.str(env); w.str(previewTokens[env]); }
    w.u32(maxResponseBytes);
  });
}

/** decodeResponse parses a CDRS frame (copied out of memory). */
export function decodeResponse(buf) {
  const v = new DataView(buf.buffer, buf.byteOffset, buf.byteLength);
  let o = 0;
  const u32 = () => { if (o + 4 > buf.length) throw new Error('truncated response frame'); const x = v.getUint32(o, true); o += 4; return x; };
  const bytes = () => { const n = u32(); if (n > buf.length - o) throw new Error('truncated response frame'); const b = buf.subarray(o, o + n); o += n; return b; };
  if (buf.length < 8 || td.decode(buf.subarray(0, 4)) !== 'CDRS') throw new Error('bad response magic');
  o = 4;
  if (u32() !== 1) throw new Error('bad response version');
  const status = u32(), count = u32(), headers = [];
  if (count > (buf.length - o) / 8) throw new Error('truncated response frame');
  for (let i = 0; i < count; i++) headers.push([td.decode(bytes()), td.decode(bytes())]);
  const body = bytes();
  if (o !== buf.length) throw new Error('trailing bytes in response frame');
  return { status, headers, body };
}

/** normalizeHeaders turns a Headers, a [[n, v]] list or a {name: value} object into the Fetch form: lower-case names, sorted, repeats joined by ", ". */
export function normalizeHeaders(h) {
  const m = new Map();
  const add = (n, v) => { n = String(n).toLowerCase(); m.set(n, m.has(n) ? m.get(n) + ', ' + v : String(v)); };
  if (!h) { /* none */ } else if (typeof h.entries === 'function' && !Array.isArray(h)) { for (const [n, v] of h.entries()) add(n, v); } else if (Array.isArray(h)) { for (const [n, v] of h) add(n, v); } else { for (const n of Object.keys(h)) add(n, h[n]); }
  return [...m.keys()].sort().map((n) => [n, m.get(n)]);
}

/** Response is one answer of the engine. */
export class Response {
  constructor(status, headers, body) { this.status = status; this.headers = headers; this.body = body; }
  header(name) { name = name.toLowerCase(); const h = this.headers.find(([n]) => n.toLowerCase() === name); return h ? h[1] : undefined; }
  text() { return td.decode(this.body); }
  json() { return JSON.parse(this.text()); }
}

/**
 * Engine is one instance of the module. It is synchronous and single-threaded: one
 * request at a time. A failed call (WasiExit, a trap) kills the instance: the engine then
 * throws on every call and must be replaced.
 */
export class Engine {
  /** instantiate creates an engine from a compiled WebAssembly.Module. */
  static async instantiate(module, { snapshots = [], options, output, verify = true } = {}) {
    const wasi = createWasi(output ? { output } : {});
    const instance = await WebAssembly.instantiate(module, wasi.imports);
    wasi.bind(instance);
    const e = new Engine(instance);
    e.#call('_initialize');
    if (options) e.configure(options);
    for (const s of snapshots) e.loadSnapshot(s, { verify });
    return e;
  }

  #x; #dead = null; environments = [];
  constructor(instance) { this.#x = instance.exports; }

  /** memoryBytes is the size of the instance's wasm memory, for measurements. */
  get memoryBytes() { return this.#x.memory.buffer.byteLength; }

  #call(name, ...args) {
    if (this.#dead) throw new Error('cdaedge: the engine instance is dead: ' + this.#dead.message);
    try { return this.#x[name](...args); } catch (err) { this.#dead = err; throw err; }
  }
  #put(bytes) {
    const p = this.#call('alloc', bytes.length);
    new Uint8Array(this.#x.memory.buffer, p, bytes.length).set(bytes); // a fresh view after alloc
    return p;
  }
  #copy(packed) {
    const ptr = Number(BigInt.asUintN(64, packed) >> 32n), len = Number(BigInt.asUintN(64, packed) & 0xffffffffn);
    return new Uint8Array(this.#x.memory.buffer, ptr, len).slice();
  }
  #status(name, bytes) {
    const r = this.#call(name, this.#put(bytes), bytes.length);
    if (r !== 0n && r !== 0) throw new Error(td.decode(this.#copy(r)));
  }

  /**
   * loadSnapshot serves a snapshot file (replacing one of the same environment); returns
   * its environment id. With verify (the default) the module first checks the file's
   * checksum, one pass over its bytes; pass {verify: false} only for a file verified where
   * it entered the system (as tools/stage.mjs does for the snapshots it bundles).
   */
  loadSnapshot(bytes, { verify = true } = {}) {
    const b = toBytes(bytes);
    const { environment } = snapshotInfo(b);
    const p = this.#put(b);
    if (verify) this.#verifyAt(p, b.length, true);
    const r = this.#call('load_snapshot', p, b.length);
    if (r !== 0n && r !== 0) throw new Error(td.decode(this.#copy(r)));
    if (!this.environments.includes(environment)) this.environments.push(environment);
    return environment;
  }

  /** verifySnapshot checks a snapshot file's header and checksum without serving it; throws on a bad file. */
  verifySnapshot(bytes) {
    const b = toBytes(bytes);
    const p = this.#put(b);
    try { this.#verifyAt(p, b.length, false); } finally { this.#call('dealloc', p, b.length); }
  }

  #verifyAt(p, n, release) {
    if (typeof this.#x.verify_snapshot !== 'function') return; // a module from before the export
    const r = this.#call('verify_snapshot', p, n);
    if (r === 0n || r === 0) return;
    const msg = td.decode(this.#copy(r));
    if (release) this.#call('dealloc', p, n);
    throw new Error(msg);
  }

  /** configure sets the router options: {cacheControl, maxBodyBytes, maxUrlBytes, maxResponseBytes, previewTokens: {env: token}}. */
  configure(options) { this.#status('configure', encodeOptions(options)); }

  /** handle answers one request given in frame form (Fetch-style headers [[n, v]], body bytes). */
  handle(method, path, query, headers, body) {
    const f = encodeRequest(method, path, query, headers, body ?? new Uint8Array(0));
    const r = decodeResponse(this.#copy(this.#call('handle', this.#put(f), f.length)));
    return new Response(r.status, r.headers, r.body);
  }
}
