/**
 * HTTP clients for the sandbox contract tests: the partner API with its token header and the control
 * API with the admin secret, over real HTTP, answering status, headers, text and parsed JSON.
 */
export const V2 = '/api/partner/v2';

/**
 * A JSON value from the wire. Deliberately untyped: the tests assert its shape with `expect`, which
 * is the point of a contract test, so a static type would only restate (and hide) those assertions.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type Json = any;

export interface ApiResponse<T = Json> {
  status: number;
  headers: Headers;
  /** Parsed JSON, or undefined when the body is empty or not JSON. */
  body: T;
  text: string;
}

export interface RequestOptions {
  json?: unknown;
  form?: FormData;
  /** A raw body sent as is, with `contentType`. */
  raw?: string | Buffer;
  contentType?: string;
  query?: Record<string, string | number | Array<string | number>>;
  headers?: Record<string, string>;
}

async function send(
  url: string,
  method: string,
  headers: Record<string, string>,
  options: RequestOptions,
): Promise<ApiResponse> {
  const target = new URL(url);
  for (const [key, value] of Object.entries(options.query ?? {})) {
    for (const item of Array.isArray(value) ? value : [value]) target.searchParams.append(key, String(item));
  }
  const allHeaders: Record<string, string> = { ...headers, ...options.headers };
  let body: BodyInit | undefined;
  if (options.json !== undefined) {
    body = JSON.stringify(options.json);
    allHeaders['content-type'] = 'application/json';
  } else if (options.form) {
    body = options.form;
  } else if (options.raw !== undefined) {
    body = typeof options.raw === 'string' ? options.raw : new Uint8Array(options.raw);
    if (options.contentType) allHeaders['content-type'] = options.contentType;
  }
  const response = await fetch(target, { method, headers: allHeaders, body });
  const text = await response.text();
  let parsed: unknown;
  try {
    parsed = text === '' ? undefined : JSON.parse(text);
  } catch {
    parsed = undefined;
  }
  return { status: response.status, headers: response.headers, body: parsed, text };
}

export interface ApiClient {
  readonly token: string | null;
  request(method: string, path: string, options?: RequestOptions): Promise<ApiResponse>;
  get(path: string, options?: RequestOptions): Promise<ApiResponse>;
  post(path: string, options?: RequestOptions): Promise<ApiResponse>;
  put(path: string, options?: RequestOptions): Promise<ApiResponse>;
  patch(path: string, options?: RequestOptions): Promise<ApiResponse>;
  delete(path: string, options?: RequestOptions): Promise<ApiResponse>;
}

/** The partner API (paths relative to /api/partner/v2) with the V2 token header. */
export function apiClient(baseUrl: string, token: string | null): ApiClient {
  const headers: Record<string, string> = token === null ? {} : { 'x-partner-integration-token': token };
  const request = (method: string, path: string, options: RequestOptions = {}) =>
    send(`${baseUrl}${V2}${path}`, method, headers, options);
  return {
    token,
    request,
    get: (path, options) => request('GET', path, options),
    post: (path, options) => request('POST', path, options),
    put: (path, options) => request('PUT', path, options),
    patch: (path, options) => request('PATCH', path, options),
    delete: (path, options) => request('DELETE', path, options),
  };
}

export interface ControlClient {
  /** Any status; `orgToken` picks the organization (default: the first). */
  call(method: string, path: string, body?: unknown, orgToken?: string): Promise<ApiResponse>;
  /** Same, but fails the test unless the answer is 2xx; returns the body. */
  ok(method: string, path: string, body?: unknown, orgToken?: string): Promise<Json>;
}

/** The control API under /__sandbox with the admin secret. */
export function controlClient(baseUrl: string, adminSecret: string): ControlClient {
  const call = (method: string, path: string, body?: unknown, orgToken?: string) =>
    send(
      `${baseUrl}/__sandbox${path}`,
      method,
      { 'x-sandbox-admin-secret': adminSecret, ...(orgToken ? { 'x-sandbox-org-token': orgToken } : {}) },
      body === undefined ? {} : { json: body },
    );
  return {
    call,
    async ok(method, path, body, orgToken) {
      const response = await call(method, path, body, orgToken);
      if (response.status < 200 || response.status >= 300) {
        throw new Error(`control ${method} ${path} answered ${response.status}: ${response.text}`);
      }
      return response.body;
    },
  };
}
