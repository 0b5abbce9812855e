/** Turns failed responses and transport failures into `PartnerApiError`s. Pure; no I/O. */
import { z } from 'zod';
import { kindForStatus, PartnerApiError, type PartnerApiErrorKind } from './errors.ts';
import { v3CodeNumber, v3Retryable } from './v3/error-codes.ts';

export interface ResponseContext {
  status: number;
  /** Response headers, lower-case names (undici's shape: a value or a list of values). */
  headers: Record<string, string | string[] | undefined>;
  bodyText: string;
  method?: string;
  path?: string;
  /** For an HTTP-date Retry-After. */
  now?: number;
}

const v2ErrorBody = z.object({
  errors: z
    .array(
      z.object({
        status: z.union([z.number(), z.string()]).optional(),
        code: z.string().optional(),
        title: z.string().optional(),
        detail: z.string().optional(),
      }),
    )
    .min(1),
});

const contactErrorBody = z.object({
  status: z.literal('error').optional(),
  error_code: z.string(),
  message: z.string().optional(),
  errors: z.array(z.unknown()).optional(),
});

const v3ErrorBody = z.object({
  success: z.literal(false),
  error: z.object({
    status: z.number().nullish(),
    code: z.union([z.number(), z.string()]),
    message: z.string().nullish(),
    doc_url: z.string().nullish(),
    retry_after: z.number().nonnegative().nullish(),
  }),
  trace_id: z.string().nullish(),
});

/** `x-should-retry: true|false` (V3): the service's verdict on repeating the request. */
function shouldRetryHeader(value: string | undefined): boolean | undefined {
  const text = value?.trim().toLowerCase();
  return text === 'true' ? true : text === 'false' ? false : undefined;
}

/** Seconds to wait from a Retry-After header: delta-seconds or an HTTP-date. */
export function parseRetryAfter(value: string | undefined, now = Date.now()): number | undefined {
  if (value === undefined) return undefined;
  const text = value.trim();
  if (/^\d+(\.\d+)?$/.test(text)) return Number(text);
  const at = Date.parse(text);
  if (Number.isNaN(at)) return undefined;
  return Math.max(0, Math.ceil((at - now) / 1000));
}

function header(headers: ResponseContext['headers'], name: string): string | undefined {
  const value = headers[name];
  return Array.isArray(value) ? value[0] : value;
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

/** Builds the error for a non-2xx response, whichever of the spec's formats (or none) the body is in. */
export function errorFromResponse(context: ResponseContext): PartnerApiError {
  const { status, bodyText } = context;
  const common = {
    status,
    method: context.method,
    path: context.path,
    rawBody: bodyText,
    traceId: header(context.headers, 'x-trace-id'),
    retryAfter: parseRetryAfter(header(context.headers, 'retry-after'), context.now),
    shouldRetry: shouldRetryHeader(header(context.headers, 'x-should-retry')),
  };
  const body = parseJson(bodyText);

  const v3 = v3ErrorBody.safeParse(body);
  if (v3.success) {
    const { error } = v3.data;
    const code = String(error.code);
    // HTTP status first, then the code (v3Retryable); unknown codes are kept as they came.
    return new PartnerApiError({
      ...common,
      kind: kindForStatus(status),
      code,
      message: error.message || `Request failed with code ${code}`,
      docUrl: error.doc_url ?? undefined,
      traceId: v3.data.trace_id ?? common.traceId,
      retryAfter: error.retry_after ?? common.retryAfter,
      retryable: common.shouldRetry !== false && v3Retryable(status, v3CodeNumber(error.code)),
    });
  }

  const v2 = v2ErrorBody.safeParse(body);
  if (v2.success) {
    const first = v2.data.errors[0];
    const detail = first?.detail;
    return new PartnerApiError({
      ...common,
      kind: kindForStatus(status),
      code: first?.code ?? `http_${status}`,
      message: detail || first?.title || `Request failed with HTTP ${status}`,
      detail,
    });
  }

  const contact = contactErrorBody.safeParse(body);
  if (contact.success) {
    const details = (contact.data.errors ?? []).map((e) => (typeof e === 'string' ? e : JSON.stringify(e)));
    const detail = details.length > 0 ? details.join('; ') : undefined;
    return new PartnerApiError({
      ...common,
      kind: kindForStatus(status),
      code: contact.data.error_code,
      message: detail || contact.data.message || `Request failed with HTTP ${status}`,
      detail,
    });
  }

  // Not one of the service's formats: a proxy, a load balancer, a web server at the wrong address.
  const kind = kindForStatus(status);
  const looksLikeHtml = /^\s*</.test(bodyText);
  const location = header(context.headers, 'location');
  let message = `The service answered HTTP ${status}`;
  if (status >= 300 && status < 400 && location) message += ` redirecting to ${location}`;
  else if (looksLikeHtml) message += ' with a web page instead of an API response';
  return new PartnerApiError({ ...common, kind, code: `http_${status}`, message });
}

export interface TransportContext {
  method?: string;
  path?: string;
  /** Host (and port) for messages such as "nothing is listening at …". */
  host?: string;
  /** The caller's own signal: when it fired, the failure is a cancellation. */
  cancelled?: boolean;
  /** The per-attempt timeout fired. */
  timedOut?: boolean;
  timeoutMs?: number;
}

const TLS_CODE =
  /^(ERR_TLS_|ERR_SSL_|CERT_|UNABLE_TO_|DEPTH_ZERO_SELF_SIGNED_CERT|SELF_SIGNED_CERT_IN_CHAIN|HOSTNAME_MISMATCH)/;

/** The first error `code` found on the error, its cause chain, or an AggregateError's members. */
function errorCode(error: unknown, depth = 0): string | undefined {
  if (!error || typeof error !== 'object' || depth > 5) return undefined;
  const code = (error as { code?: unknown }).code;
  if (typeof code === 'string') return code;
  const nested = [(error as { cause?: unknown }).cause, ...((error as { errors?: unknown[] }).errors ?? [])];
  for (const inner of nested) {
    const found = errorCode(inner, depth + 1);
    if (found) return found;
  }
  return undefined;
}

/** Classifies an error thrown while sending or reading (no HTTP status to go by). */
export function errorFromTransport(error: unknown, context: TransportContext = {}): PartnerApiError {
  if (error instanceof PartnerApiError) return error;
  const base = { method: context.method, path: context.path, cause: error };
  const where = context.host ?? 'the service';
  const code = errorCode(error);
  const name = error instanceof Error ? error.name : '';
  const reason = error instanceof Error ? error.message : String(error);

  if (context.cancelled) {
    return new PartnerApiError({
      ...base,
      kind: 'cancelled',
      code: 'cancelled',
      message: 'Request cancelled',
    });
  }
  const timedOut =
    context.timedOut ||
    name === 'TimeoutError' ||
    code === 'UND_ERR_CONNECT_TIMEOUT' ||
    code === 'UND_ERR_HEADERS_TIMEOUT' ||
    code === 'UND_ERR_BODY_TIMEOUT' ||
    code === 'ETIMEDOUT';
  if (timedOut) {
    const after = context.timeoutMs ? ` within ${formatDuration(context.timeoutMs)}` : ' in time';
    return new PartnerApiError({
      ...base,
      kind: 'timeout',
      code: 'timeout',
      message: `No answer from ${where}${after}`,
    });
  }
  if (code && (TLS_CODE.test(code) || (code === 'EPROTO' && /ssl|tls/i.test(reason)))) {
    return new PartnerApiError({
      ...base,
      kind: 'tls',
      code,
      retryable: false,
      message: `Secure connection to ${where} failed (${tlsReason(code, reason)})`,
    });
  }
  const kind: PartnerApiErrorKind = name === 'AbortError' ? 'cancelled' : 'network';
  return new PartnerApiError({
    ...base,
    kind,
    code: code ?? kind,
    message: networkMessage(code, where, reason),
  });
}

/** "300 ms", "30 s": for messages about timeouts. */
export function formatDuration(ms: number): string {
  return ms < 1000 ? `${Math.round(ms)} ms` : `${Math.round(ms / 100) / 10} s`;
}

function tlsReason(code: string, reason: string): string {
  if (code === 'ERR_SSL_WRONG_VERSION_NUMBER' || /wrong version number/i.test(reason)) {
    return 'the server does not speak HTTPS on this port; try http:// or check the port';
  }
  if (/SELF_SIGNED|UNABLE_TO_(GET|VERIFY)/.test(code)) return 'its certificate is not trusted';
  if (code === 'CERT_HAS_EXPIRED') return 'its certificate has expired';
  if (code === 'ERR_TLS_CERT_ALTNAME_INVALID' || code === 'HOSTNAME_MISMATCH') {
    return 'its certificate is for a different host name';
  }
  return code;
}

function networkMessage(code: string | undefined, where: string, reason: string): string {
  switch (code) {
    case 'ECONNREFUSED':
      return `Nothing is listening at ${where}; check the address and port, and that the service is running`;
    case 'ENOTFOUND':
    case 'EAI_AGAIN':
      return `The host of ${where} could not be found; check the address (and your network connection)`;
    case 'EHOSTUNREACH':
    case 'ENETUNREACH':
      return `${where} cannot be reached from this network`;
    case 'ECONNRESET':
    case 'EPIPE':
    case 'UND_ERR_SOCKET':
      return `The connection to ${where} was closed unexpectedly`;
    default:
      return `Could not talk to ${where}: ${reason}`;
  }
}
