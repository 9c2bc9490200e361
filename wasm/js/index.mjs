// @cdaedge/engine for Node: the cdaedge query module, in process, for static-site builds
// (Astro, Next, Eleventy, plain scripts). No server: open a snapshot, ask it questions.
//
//   import { open } from '@cdaedge/engine';
//   const engine = await open(await readFile('demo.snap'));
//   const pages = engine.rest({ searchByTemplateName: 'page', sort: 'Name', sortAsc: true });
import { readFile } from 'node:fs/promises';
import { Engine, Response, normalizeHeaders, snapshotInfo } from './engine.mjs';

export { Engine, Response, snapshotInfo };

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

/** NodeEngine wraps Engine with the object-style request and convenience methods. */
class NodeEngine {
  #engine; #defaultHost;
  constructor(engine, environment) { this.#engine = engine; this.environment = environment; }
  get environments() { return [...this.#engine.environments]; }

  /** loadSnapshot serves one more snapshot file (or replaces one of the same environment); options {verify} as open's. */
  loadSnapshot(bytes, options) { return this.#engine.loadSnapshot(bytes, options); }

  /** request answers one HTTP-shaped request: {method, path, query, headers, body}. */
  request({ method = 'GET', path, query = '', headers = {}, body } = {}) {
    if (typeof path !== 'string' || !path.startsWith('/')) throw new TypeError('request: path must start with /');
    if (query && typeof query === 'object') query = new URLSearchParams(query).toString();
    query = String(query ?? '').replace(/^\?/, '');
    if (body !== undefined && body !== null && typeof body === 'object' && !ArrayBuffer.isView(body) && !(body instanceof ArrayBuffer)) body = JSON.stringify(body);
    return this.#engine.handle(method, path, query, normalizeHeaders(headers), body ?? new Uint8Array(0));
  }

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

/**
 * open instantiates the query module with one snapshot file (or an array of them) and
 * returns an engine. options: {module: path | URL | bytes | WebAssembly.Module (default:
 * the packaged module.wasm), environment: the default environment of rest/graphql/search
 * (default: the first snapshot's), previewTokens: {env: token}, cacheControl,
 * maxBodyBytes, maxUrlBytes, maxResponseBytes, output(fd, line), verify (default true: check
 * each file's checksum once as it is opened; false for files verified where they were made)}.
 */
export async function open(snapshots, options = {}) {
  const list = Array.isArray(snapshots) ? snapshots : [snapshots];
  const { module, environment, output, verify = true, ...routerOptions } = options;
  const engine = await Engine.instantiate(await compile(module), {
    snapshots: list, options: Object.keys(routerOptions).length ? routerOptions : undefined, output, verify,
  });
  return new NodeEngine(engine, environment ?? engine.environments[0]);
}
