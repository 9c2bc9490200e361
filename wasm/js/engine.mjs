// The runtime-independent half of the JavaScript glue: instantiate the cdaedge query
// module (a WebAssembly.Module compiled by the caller: Node compiles the file, workerd
// gets it from its bundle), load snapshots, configure the router and answer requests
// through the module's exports. Framing and memory ownership: wasm/README.md.
//
// Only a snapshot's index part enters the module; item bodies stay where the file is
// (the caller's bytes, a file, R2) and are read by range when a request needs them
// (wasm/README.md, "Item bodies by range").
import { createWasi, WasiExit } from './wasi.mjs';

export { WasiExit };
const te = new TextEncoder(), td = new TextDecoder();

/**
 * snapshotInfo reads a snapshot file's header and "meta" section: {environment, preview}.
 * It does not verify the file (Engine.verifySnapshot does).
 */
export function snapshotInfo(bytes) {
  const b = toBytes(bytes), v = view(b);
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

/**
 * indexLength reads, from a snapshot file's first 80 bytes (its header), the length of
 * its index part: the bytes the module loads; the rest, the item bodies, it asks for by
 * range. Throws on a file that is not a snapshot, or is of format 1.
 */
export function indexLength(header) {
  const b = toBytes(header), v = view(b);
  if (b.length < 80 || td.decode(b.subarray(0, 7)) !== 'CDASNAP') throw new Error('not a snapshot file');
  const major = v.getUint16(8, true), n = v.getBigUint64(72, true);
  if (major < 2) throw new Error(`snapshot format ${major}.${v.getUint16(10, true)}: rebuild the snapshot with this release's builder`);
  if (n < 80n || n > BigInt(Number.MAX_SAFE_INTEGER)) throw new Error(`the snapshot's header gives its index part ${n} bytes`);
  return Number(n);
}

const view = (b) => new DataView(b.buffer, b.byteOffset, b.byteLength);
const hex = (b) => Array.from(b, (x) => x.toString(16).padStart(2, '0')).join('');

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
  const v = view(buf);
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

/** isNeed reports whether an answer of handle or provide is a need-ranges frame ("CDNR") rather than a response. */
function isNeed(buf) {
  return buf.length >= 4 && buf[0] === 0x43 && buf[1] === 0x44 && buf[2] === 0x4e && buf[3] === 0x52;
}

/** decodeNeed parses a need-ranges frame into [{hash, offset, length}], hash in hex. */
function decodeNeed(buf) {
  const v = view(buf), count = buf.length >= 12 ? v.getUint32(8, true) : -1;
  if (count < 0 || v.getUint32(4, true) !== 1 || buf.length !== 12 + 44 * count) throw new Error('cdaedge: malformed need-ranges frame');
  const ranges = [];
  for (let o = 12; o < buf.length; o += 44) {
    ranges.push({ hash: hex(buf.subarray(o, o + 32)), offset: Number(v.getBigUint64(o + 32, true)), length: v.getUint32(o + 40, true) });
  }
  return ranges;
}

// planReads groups a need-ranges frame's ranges into reads: ranges of one file that follow
// one another, apart from the padding that starts each body block on a 4096-byte
// boundary, become one read (one round trip to R2 or static assets instead of several).
// Each range records its read and where its bytes start in it.
function planReads(ranges) {
  const reads = [];
  let last = null;
  const order = [...ranges].sort((a, b) => (a.hash < b.hash ? -1 : a.hash > b.hash ? 1 : a.offset - b.offset));
  for (const r of order) {
    const end = last && last.offset + last.length;
    if (last && last.hash === r.hash && r.offset >= end && r.offset - end < 4096) {
      last.length = r.offset + r.length - last.offset;
    } else {
      last = { hash: r.hash, offset: r.offset, length: r.length, bytes: null };
      reads.push(last);
    }
    r.read = last; r.at = r.offset - last.offset;
  }
  return reads;
}

// toSource splits what loadSnapshot was given into the index part for the module (null:
// the engine reads it from the reader, straight into the module's memory) and a reader
// of byte ranges: a source {index?, read, readInto?, close?} is both; bytes give their
// index part and serve ranges from themselves, as views (no copy). Bytes whose header
// names no index part within them (format 1, a truncated file) go to the module whole:
// it says what is wrong with them.
function toSource(x) {
  if (x && typeof x === 'object' && typeof x.read === 'function') return { index: x.index == null ? null : toBytes(x.index), reader: x };
  if (typeof x === 'string' || x instanceof URL) throw new TypeError('cdaedge: expected snapshot bytes or a source {index, read}; only the Node package (index.mjs) opens a file by its path');
  const b = toBytes(x);
  let n = b.length;
  try { n = Math.min(indexLength(b), n); } catch { /* whole: the module's message */ }
  return { index: b.subarray(0, n), reader: { read: (offset, length) => b.subarray(offset, offset + length) } };
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
 * Engine is one instance of the module. It is single-threaded: one request at a time
 * (handleAsync calls wait for one another). A failed call (WasiExit, a trap) kills the
 * instance: the engine then throws on every call and must be replaced; a failed read of
 * item bodies does not (that request fails, the next starts afresh).
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

  #x; #dead = null; #closed = false; environments = [];
  // #readers holds, by content hash (hex), each served file's reader and environment.
  #readers = new Map();
  // #turn chains handleAsync and loadSnapshotAsync calls; #busy is set while one is under way, since a
  // synchronous handle meanwhile would take the module's pending request from under it.
  #turn = Promise.resolve(); #busy = false;
  constructor(instance) { this.#x = instance.exports; }

  /** memoryBytes is the size of the instance's wasm memory, for measurements. */
  get memoryBytes() { return this.#x.memory.buffer.byteLength; }

  /** dead is true once a call into the module failed: the engine must be replaced. */
  get dead() { return this.#dead !== null; }

  #call(name, ...args) {
    if (this.#closed) throw new Error('cdaedge: the engine is closed');
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
   * loadSnapshot serves a snapshot (replacing one of the same environment); returns its
   * environment id. It takes the file's bytes (the module gets their index part; bodies
   * are read from them, no copy) or a source {index, read(offset, length), close?()}:
   * index is the file's first indexLength(header) bytes, read returns the bytes of any
   * range of the file (a Uint8Array, or a Promise of one: then answer with handleAsync),
   * and close, if any, is called once the engine no longer reads the source (replaced,
   * failed to load, or Engine.close). With verify (the default) the module first checks
   * the index part's checksum, one pass over its bytes (each body block is checked as it
   * is read); pass {verify: false} only for a file verified where it entered the system
   * (as tools/stage.mjs does for the snapshots it bundles).
   */
  loadSnapshot(snapshot, { verify = true } = {}) {
    if (this.#busy) throw new Error('cdaedge: a handleAsync or loadSnapshotAsync call is under way; load with loadSnapshotAsync');
    const { index, reader } = toSource(snapshot);
    try {
      if (index) return this.#serve(this.#put(index), index.length, reader, verify);
      const n = indexLength(syncRead(reader.read(0, 80)));
      const p = this.#call('alloc', n);
      try { syncRead(fillIndex(reader, new Uint8Array(this.#x.memory.buffer, p, n))); } catch (err) { this.#call('dealloc', p, n); throw err; }
      return this.#serve(p, n, reader, verify);
    } catch (err) {
      reader.close?.();
      throw err;
    }
  }

  /**
   * loadSnapshotAsync is loadSnapshot for a source whose read (and readInto) return
   * Promises: the engine reads the header, then the index part straight into the
   * module's memory (with readInto; else through one read), so that a large index is
   * never held twice. It waits for the calls under way, and calls made meanwhile wait
   * for it.
   */
  async loadSnapshotAsync(snapshot, { verify = true } = {}) {
    const { index, reader } = toSource(snapshot);
    return this.#exclusive(async () => {
      try {
        return await this.#loadAsync(index, reader, verify);
      } catch (err) {
        reader.close?.();
        throw err;
      }
    });
  }

  // #loadAsync is loadSnapshotAsync's work, run by #exclusive.
  async #loadAsync(index, reader, verify) {
    if (index) return this.#serve(this.#put(index), index.length, reader, verify);
    const n = indexLength(toBytes(await reader.read(0, 80)));
    // Nothing else calls into the module until this call ends, so the memory does not
    // grow and the view stays valid across the awaits.
    const p = this.#call('alloc', n);
    try { await fillIndex(reader, new Uint8Array(this.#x.memory.buffer, p, n)); } catch (err) { this.#call('dealloc', p, n); throw err; }
    return this.#serve(p, n, reader, verify);
  }

  // #exclusive runs fn once the calls under way (handleAsync, loadSnapshotAsync) have
  // ended; calls made meanwhile wait for it. #busy marks the run, since a synchronous
  // handle or loadSnapshot meanwhile would take the module from under it.
  async #exclusive(fn) {
    const turn = this.#turn;
    let done;
    this.#turn = new Promise((resolve) => { done = resolve; });
    await turn;
    this.#busy = true;
    try {
      return await fn();
    } finally {
      this.#busy = false;
      done();
    }
  }

  // #serve verifies (when asked) and loads the index part of n bytes at p, an alloc
  // buffer, and records its reader; returns the environment.
  #serve(p, n, reader, verify) {
    const index = new Uint8Array(this.#x.memory.buffer, p, n);
    let environment;
    try { ({ environment } = snapshotInfo(index)); } catch (err) { this.#call('dealloc', p, n); throw err; }
    const hash = hex(index.subarray(32, 64)); // before load_snapshot, which may grow the memory
    if (verify) this.#verifyAt(p, n, true);
    const r = this.#call('load_snapshot', p, n);
    if (r !== 0n && r !== 0) throw new Error(td.decode(this.#copy(r)));
    this.#keep(environment, hash, reader);
    if (!this.environments.includes(environment)) this.environments.push(environment);
    return environment;
  }

  // #keep records the reader of a loaded file, closing the one of the snapshot it replaced.
  #keep(environment, hash, reader) {
    for (const [h, old] of this.#readers) {
      if (old.environment !== environment) continue;
      this.#readers.delete(h);
      if (old.reader !== reader) old.reader.close?.();
    }
    this.#readers.set(hash, { environment, reader });
  }

  /** verifySnapshot checks a whole snapshot file's header and checksums (every body block's too) without serving it; throws on a bad file. */
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

  /**
   * handle answers one request given in frame form (Fetch-style headers [[n, v]], body
   * bytes), reading the item bodies it needs synchronously: it throws when a source's
   * read returns a Promise (use handleAsync), or fails, and the engine stays usable.
   */
  handle(method, path, query, headers, body) {
    if (this.#busy) throw new Error('cdaedge: a handleAsync call is under way; the engine answers one request at a time');
    let answer = this.#start(method, path, query, headers, body);
    while (isNeed(answer)) answer = this.#provide(this.#readSync(decodeNeed(answer)));
    return toResponse(answer);
  }

  /**
   * handleAsync is handle for sources whose reads return Promises: it reads each round's
   * ranges in parallel, and answers the calls made meanwhile one after another.
   */
  async handleAsync(method, path, query, headers, body) {
    return this.#exclusive(async () => {
      let answer = this.#start(method, path, query, headers, body);
      while (isNeed(answer)) answer = this.#provide(await this.#readAsync(decodeNeed(answer)));
      return toResponse(answer);
    });
  }

  /** close stops reading the snapshots' sources (closing those that have close()); the engine answers no more. */
  close() {
    for (const { reader } of this.#readers.values()) reader.close?.();
    this.#readers.clear();
    this.#closed = true;
  }

  #start(method, path, query, headers, body) {
    const f = encodeRequest(method, path, query, headers, body ?? new Uint8Array(0));
    return this.#copy(this.#call('handle', this.#put(f), f.length));
  }

  #reader(hash) {
    const r = this.#readers.get(hash);
    if (!r) throw new Error(`cdaedge: the module asked for item bodies of snapshot ${hash.slice(0, 16)}…, which it was not given`);
    return r.reader;
  }

  #readSync(ranges) {
    for (const rd of planReads(ranges)) {
      const b = this.#reader(rd.hash).read(rd.offset, rd.length);
      if (typeof b?.then === 'function') {
        b.then(null, () => {}); // nobody awaits it
        throw new Error('cdaedge: a snapshot source read returned a Promise: use handleAsync');
      }
      rd.bytes = checkRead(rd, b);
    }
    return ranges;
  }

  async #readAsync(ranges) {
    await Promise.all(planReads(ranges).map(async (rd) => {
      rd.bytes = checkRead(rd, await this.#reader(rd.hash).read(rd.offset, rd.length));
    }));
    return ranges;
  }

  // #provide hands the ranges' bytes, one after another in the frame's order, to the
  // module in one buffer and returns its answer: a response, or another need-ranges frame.
  #provide(ranges) {
    const total = ranges.reduce((n, r) => n + r.length, 0);
    if (total > 0xffffffff) throw new Error('cdaedge: the module asked for more than 4 GiB of item bodies at once');
    const p = this.#call('alloc', total);
    const mem = new Uint8Array(this.#x.memory.buffer, p, total); // a fresh view after alloc
    let o = 0;
    for (const r of ranges) { mem.set(r.read.bytes.subarray(r.at, r.at + r.length), o); o += r.length; }
    return this.#copy(this.#call('provide', p, total));
  }
}

// fillIndex fills dst, a view of the module's memory, with the file's first dst.length
// bytes: through the source's readInto, else through one read. It returns a Promise when
// the source's reads do.
function fillIndex(reader, dst) {
  if (typeof reader.readInto === 'function') return reader.readInto(0, dst);
  const got = (b) => {
    const bytes = toBytes(b);
    if (bytes.length !== dst.length) throw new Error(`cdaedge: reading the snapshot's index part (${dst.length} bytes) returned ${bytes.length}`);
    dst.set(bytes);
  };
  const b = reader.read(0, dst.length);
  return typeof b?.then === 'function' ? b.then(got) : got(b);
}

// syncRead returns b, or throws when it is a Promise (a source for loadSnapshotAsync).
function syncRead(b) {
  if (typeof b?.then === 'function') {
    b.then(null, () => {}); // nobody awaits it
    throw new Error('cdaedge: a snapshot source read returned a Promise: use loadSnapshotAsync');
  }
  return b;
}

function checkRead(rd, b) {
  const bytes = toBytes(b);
  if (bytes.length !== rd.length) throw new Error(`cdaedge: reading ${rd.length} bytes at ${rd.offset} of snapshot ${rd.hash.slice(0, 16)}… returned ${bytes.length}`);
  return bytes;
}

function toResponse(frame) {
  const r = decodeResponse(frame);
  return new Response(r.status, r.headers, r.body);
}
