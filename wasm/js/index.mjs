// @cdaedge/engine for Node: the cdaedge query module, in process, for static-site builds
// (Astro, Next, Eleventy, plain scripts). No server: open a snapshot, ask it questions.
//
//   import { open } from '@cdaedge/engine';
//   const engine = await open('demo.snap');
//   const pages = engine.rest({ searchByTemplateName: 'page', sort: 'Name', sortAsc: true });
//   engine.close();
import { closeSync, openSync, readSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { Engine, Response, indexLength, normalizeHeaders, snapshotInfo } from './engine.mjs';

export { Engine, Response, indexLength, snapshotInfo };

/** The module shipped with the package (the TinyGo build), next to this file. */
export const MODULE_URL = new URL('./module.wasm', import.meta.url);

const modules = new Map(); // compiled modules, by source, for repeated open() calls

async function compile(source) {
  if (source instanceof WebAssembly.Module) return source;
  const key = source === undefined ? MODULE_URL.href : typeof source === 'string' || source instanceof URL ? String(source) : null;
  if (key && modules.has(key)) return modules.get(key);
  const bytes = key ? await readFile(source === undefined ? MODULE_URL : source) : source;
  const mod = await WebAssembly.compile(bytes);
  if (key) modules.set(key, mod);
  return mod;
}

/** CdaError is thrown by rest(), graphql() and search() when the answer is an error envelope. */
export class CdaError extends Error {
  constructor(status, code, message) { super(`${status} ${code}: ${message}`); this.status = status; this.code = code; }
}

const isPath = (x) => typeof x === 'string' || x instanceof URL;

// fileSource opens a snapshot file by its path for Engine.loadSnapshot: the engine reads
// the index part from the file straight into the module's memory (readInto: never a
// second copy in JavaScript), and item bodies are read by range, with synchronous reads
// (request() stays synchronous) from a file descriptor kept open until the engine drops
// the snapshot, so that they never enter memory (~500 MB of them at 100k items).
function fileSource(path) {
  const fd = openSync(path, 'r');
  return {
    read: (offset, length) => readInto(fd, offset, new Uint8Array(length)),
    readInto: (offset, dst) => { readInto(fd, offset, dst); },
    close: () => closeSync(fd),
  };
}

// readInto fills dst with the file's bytes from offset on, and returns it.
function readInto(fd, offset, dst) {
  for (let n = 0; n < dst.length;) {
    const k = readSync(fd, dst, n, dst.length - n, offset + n);
    if (k === 0) throw new Error(`the file ends before byte ${offset + dst.length}`);
    n += k;
  }
  return dst;
}

/** NodeEngine wraps Engine with the object-style request and convenience methods. */
class NodeEngine {
  #engine;
  constructor(engine, environment) { this.#engine = engine; this.environment = environment; }
  get environments() { return [...this.#engine.environments]; }
  /** memoryBytes is the size of the module's wasm memory, for measurements. */
  get memoryBytes() { return this.#engine.memoryBytes; }

  /** loadSnapshot serves one more snapshot (or replaces one of the same environment): a path, bytes or a source, as open's; options {verify} as open's. */
  loadSnapshot(snapshot, options) {
    if (!isPath(snapshot)) return this.#engine.loadSnapshot(snapshot, options);
    try {
      return this.#engine.loadSnapshot(fileSource(snapshot), options);
    } catch (err) {
      throw new Error(`${snapshot}: ${err.message}`, { cause: err }); // which file of several
    }
  }

  /** loadSnapshotAsync is loadSnapshot for a source whose reads return Promises (Engine.loadSnapshotAsync). */
  async loadSnapshotAsync(snapshot, options) {
    if (isPath(snapshot)) return this.loadSnapshot(snapshot, options);
    return this.#engine.loadSnapshotAsync(snapshot, options);
  }

  /** close closes the snapshot files the engine opened; it answers no more requests. */
  close() { this.#engine.close(); }

  /** request answers one HTTP-shaped request: {method, path, query, headers, body}. */
  request(init) { return this.#engine.handle(...frameArgs(init)); }

  /** requestAsync is request for snapshots from a source whose reads return Promises. */
  requestAsync(init) { return this.#engine.handleAsync(...frameArgs(init)); }

  #json(resp) {
    const env = resp.json();
    if (resp.status >= 400) throw new CdaError(resp.status, env.error?.code ?? 'unknown', env.error?.message ?? resp.text());
    return env;
  }
  #env(opts) { const e = opts?.environment ?? this.environment; if (!e) throw new Error('no environment: pass {environment}'); return encodeURIComponent(e); }

  /** rest lists items (params: searchByName, sort, page, ...) or, with params.id, gets one. Returns the envelope {status, data, totalItems}. */
  rest(params = {}, opts = {}) {
    const { id, ...query } = params;
    const path = `/cda/rest/v1/${this.#env(opts)}/contents` + (id ? '/' + encodeURIComponent(id) : '');
    return this.#json(this.request({ path, query, headers: opts.headers }));
  }

  /** graphql runs a query (the documented dialect or standard GraphQL) with optional variables. Returns {status, data}. */
  graphql(query, variables, opts = {}) {
    const body = variables === undefined ? { query } : { query, variables };
    return this.#json(this.request({ method: 'POST', path: `/cda/graphql/v1/${this.#env(opts)}`,
      headers: { 'content-type': 'application/json', ...opts.headers }, body }));
  }

  /** search runs a search DSL body (an object or JSON text). Returns {status, data, totalItems, aggregations?}. */
  search(body, opts = {}) {
    return this.#json(this.request({ method: 'POST', path: `/cda/es/v1/${this.#env(opts)}`,
      headers: { 'content-type': 'application/json', ...opts.headers }, body }));
  }
}

// frameArgs turns request()'s {method, path, query, headers, body} into Engine.handle's arguments.
function frameArgs({ method = 'GET', path, query = '', headers = {}, body } = {}) {
  if (typeof path !== 'string' || !path.startsWith('/')) throw new TypeError('request: path must start with /');
  if (query && typeof query === 'object') query = new URLSearchParams(query).toString();
  query = String(query ?? '').replace(/^\?/, '');
  if (body !== undefined && body !== null && typeof body === 'object' && !ArrayBuffer.isView(body) && !(body instanceof ArrayBuffer)) body = JSON.stringify(body);
  return [method, path, query, normalizeHeaders(headers), body ?? new Uint8Array(0)];
}

/**
 * open instantiates the query module with one snapshot (or an array of them) and returns
 * an engine. A snapshot is a file's path or file: URL (its index part is read into the
 * module, item bodies by range as requests need them, from a file descriptor that
 * engine.close() closes), its bytes (bodies are read from them), or a source {index?,
 * read, readInto?, close?} (Engine.loadSnapshot; its reads may return Promises). options: {module: path | URL | bytes |
 * WebAssembly.Module (default: the packaged module.wasm), environment: the default
 * environment of rest/graphql/search (default: the first snapshot's), previewTokens:
 * {env: token}, cacheControl, maxBodyBytes, maxUrlBytes, maxResponseBytes,
 * output(fd, line), verify (default true: check each file's index part once as it is
 * opened, and each body block as it is read; false for files verified where they were
 * made)}.
 */
export async function open(snapshots, options = {}) {
  const list = Array.isArray(snapshots) ? snapshots : [snapshots];
  const { module, environment, output, verify = true, ...routerOptions } = options;
  const engine = await Engine.instantiate(await compile(module), {
    options: Object.keys(routerOptions).length ? routerOptions : undefined, output,
  });
  const node = new NodeEngine(engine);
  try {
    for (const s of list) await node.loadSnapshotAsync(s, { verify });
  } catch (err) {
    engine.close(); // the files opened before the one that failed
    throw err;
  }
  node.environment = environment ?? engine.environments[0];
  return node;
}
