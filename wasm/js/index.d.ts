// Types of @cdaedge/engine (index.mjs).

export type Bytes = Uint8Array | ArrayBuffer | ArrayBufferView;

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
  /** Check each snapshot's checksum as it is opened (one pass over its bytes); default true. Pass false only for files verified where they were made. */
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
  loadSnapshot(bytes: Bytes, options?: { verify?: boolean }): string;
  /** Answers one request; never throws for an HTTP error status. */
  request(init: RequestInit): Response;
  /** REST list or single item; throws CdaError on an error status. */
  rest<T = Item[]>(params?: RestParams, options?: CallOptions): Envelope<T>;
  /** GraphQL; throws CdaError on an error status. */
  graphql<T = any>(query: string, variables?: Record<string, any>, options?: CallOptions): Envelope<T>;
  /** Search DSL; throws CdaError on an error status. */
  search<T = Item[]>(body: object | string, options?: CallOptions): Envelope<T>;
}

export declare const MODULE_URL: URL;
export declare function snapshotInfo(bytes: Bytes): { environment: string; preview: boolean };
export declare function open(snapshots: Bytes | Bytes[], options?: OpenOptions): Promise<CdaEngine>;
