// Types of @cdaedge/engine (index.mjs).

export type Bytes = Uint8Array | ArrayBuffer | ArrayBufferView;

/**
 * A snapshot file kept elsewhere (a bucket, a remote file): the engine loads its index
 * part and reads item bodies by range as requests need them.
 */
export interface SnapshotSource {
  /**
   * The file's first indexLength(header) bytes. Without it the engine reads them itself,
   * straight into the module's memory (through readInto when given, else one read), so
   * that a large index part is never held twice.
   */
  index?: Uint8Array;
  /** The bytes [offset, offset+length) of the file. A Promise makes requests go through requestAsync. */
  read(offset: number, length: number): Uint8Array | Promise<Uint8Array>;
  /** Fills dst with the file's bytes from offset on (the index part, into the module's memory). */
  readInto?(offset: number, dst: Uint8Array): void | Promise<void>;
  /** Called once the engine no longer reads the source: replaced, failed to load, or the engine closed. */
  close?(): void;
}

/**
 * A snapshot to serve: a file's path or file: URL (the index part is read into the
 * module, item bodies by range from the file as requests need them: they never enter
 * memory), the whole file's bytes (bodies are read from them, no copy), or a source.
 */
export type Snapshot = string | URL | Bytes | SnapshotSource;

export interface RouterOptions {
  /** Cache-Control of published 200s; default "public, max-age=60" (D11). */
  cacheControl?: string;
  /** Largest request body in bytes (413 above it); 0 = 1 MiB (D11). */
  maxBodyBytes?: number;
  /** Longest request URL in bytes (414 above it); 0 = 8 KiB (D11). */
  maxUrlBytes?: number;
  /** Largest answer body in bytes; a larger answer is a 400 too_complex naming the limit; 0 = 32 MiB. */
  maxResponseBytes?: number;
  /** Access tokens of preview environments (D3): {environment: token}. */
  previewTokens?: Record<string, string>;
}

export interface OpenOptions extends RouterOptions {
  /** The module: a file path, URL, its bytes or a compiled module; default the packaged module.wasm. */
  module?: string | URL | Bytes | WebAssembly.Module;
  /** Default environment of rest/graphql/search; default the first snapshot's. */
  environment?: string;
  /** Receives what the module writes to stdout (1) and stderr (2), line by line. */
  output?: (fd: number, line: string) => void;
  /** Check each snapshot's index part as it is opened (one pass over its bytes), and each block of item bodies as it is read; default true. Pass false only for files verified where they were made. */
  verify?: boolean;
}

export interface RequestInit {
  method?: string;
  /** The escaped path, e.g. "/cda/rest/v1/demo/contents". */
  path: string;
  /** The raw query ("a=1&b=2", a leading "?" is dropped) or an object of parameters. */
  query?: string | Record<string, string>;
  headers?: Record<string, string> | [string, string][] | Headers;
  /** Text, bytes, or an object sent as JSON text. */
  body?: string | Bytes | object | null;
}

export declare class Response {
  readonly status: number;
  /** In the order the router sent them; a name may repeat. */
  readonly headers: [string, string][];
  readonly body: Uint8Array;
  header(name: string): string | undefined;
  text(): string;
  json(): any;
}

export interface Envelope<T = any> {
  status: number;
  data: T;
  totalItems?: number;
  aggregations?: Record<string, any>;
}

export interface Item {
  ContentID: string;
  Name?: string;
  TemplateName?: string;
  Status?: string;
  Data?: Record<string, any>;
  [member: string]: any;
}

export interface CallOptions {
  environment?: string;
  headers?: Record<string, string>;
}

export interface RestParams {
  /** Get one item by its ContentID instead of a list. */
  id?: string;
  searchByName?: string;
  searchByTemplateName?: string;
  status?: string;
  searchByCreatedBy?: string;
  page?: number | string;
  pageSize?: number | string;
  sort?: string;
  sortAsc?: boolean | string;
  [param: string]: any;
}

export declare class CdaError extends Error {
  readonly status: number;
  readonly code: string;
}

export interface CdaEngine {
  /** The default environment of rest/graphql/search. */
  readonly environment: string;
  /** Every environment served. */
  readonly environments: string[];
  /** The size of the module's wasm memory in bytes, for measurements. */
  readonly memoryBytes: number;
  /** Serves one more snapshot, or replaces the one of its environment; returns its environment. */
  loadSnapshot(snapshot: Snapshot, options?: { verify?: boolean }): string;
  /** loadSnapshot for a source whose reads return Promises; calls made meanwhile wait for it. */
  loadSnapshotAsync(snapshot: Snapshot, options?: { verify?: boolean }): Promise<string>;
  /** Closes the snapshot files the engine opened (those given by path); it answers no more requests. */
  close(): void;
  /** Answers one request; never throws for an HTTP error status. Reads item bodies synchronously: throws for a source whose reads return Promises. */
  request(init: RequestInit): Response;
  /** request for sources whose reads return Promises; concurrent calls are answered one after another. */
  requestAsync(init: RequestInit): Promise<Response>;
  /** REST list or single item; throws CdaError on an error status. */
  rest<T = Item[]>(params?: RestParams, options?: CallOptions): Envelope<T>;
  /** GraphQL; throws CdaError on an error status. */
  graphql<T = any>(query: string, variables?: Record<string, any>, options?: CallOptions): Envelope<T>;
  /** Search DSL; throws CdaError on an error status. */
  search<T = Item[]>(body: object | string, options?: CallOptions): Envelope<T>;
}

export declare const MODULE_URL: URL;
/** Reads the environment from a snapshot's bytes: the whole file or its index part. */
export declare function snapshotInfo(bytes: Bytes): { environment: string; preview: boolean };
/** The length of a snapshot's index part, from its first 80 bytes (its header). */
export declare function indexLength(header: Bytes): number;
export declare function open(snapshots: Snapshot | Snapshot[], options?: OpenOptions): Promise<CdaEngine>;
