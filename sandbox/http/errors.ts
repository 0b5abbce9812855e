/**
 * The spec's error formats. Routes throw `ApiError`; the error handler renders it in the format of
 * the route's family: V2 (`{errors:[…]}`) for most, the contact format for contacts and webhook
 * subscriptions.
 */
export type ErrorFormat = 'v2' | 'contact';

export class ApiError extends Error {
  readonly status: number;
  readonly code: string;
  readonly title: string;
  readonly detail: string;
  readonly headers: Record<string, string>;
  /** Renders in this format whatever the route's family (e.g. 401 is always V2). */
  readonly forceFormat: ErrorFormat | undefined;

  constructor(
    status: number,
    code: string,
    detail: string,
    options: { title?: string; headers?: Record<string, string>; format?: ErrorFormat } = {},
  ) {
    super(detail);
    this.status = status;
    this.code = code;
    this.detail = detail;
    this.title = options.title ?? TITLES[status] ?? 'Error';
    this.headers = options.headers ?? {};
    this.forceFormat = options.format;
  }
}

const TITLES: Record<number, string> = {
  400: 'Bad Request',
  401: 'Unauthorized',
  403: 'Forbidden',
  404: 'Not Found',
  405: 'Method Not Allowed',
  413: 'Payload Too Large',
  415: 'Unsupported Media Type',
  422: 'Unprocessable Entity',
  429: 'Too Many Requests',
  500: 'Internal Server Error',
  502: 'Bad Gateway',
  503: 'Service Unavailable',
};

export function renderError(error: ApiError, format: ErrorFormat): unknown {
  if ((error.forceFormat ?? format) === 'contact') {
    return {
      status: 'error',
      error_code: error.code.toUpperCase(),
      message: error.title,
      errors: [error.detail],
    };
  }
  return { errors: [{ status: error.status, code: error.code, title: error.title, detail: error.detail }] };
}

export const unauthorized = (): ApiError =>
  new ApiError(401, 'unauthorized', 'Missing or invalid X-PARTNER-INTEGRATION-TOKEN', { format: 'v2' });
export const notFound = (what: string): ApiError => new ApiError(404, 'not_found', `${what} not found`);
export const forbidden = (detail: string): ApiError => new ApiError(403, 'forbidden', detail);
export const invalidParams = (detail: string): ApiError => new ApiError(422, 'invalid_params', detail);
export const invalidRequest = (detail: string): ApiError => new ApiError(422, 'invalid_request', detail);
export const missingParam = (name: string, code = 'missing_param'): ApiError =>
  new ApiError(400, code, `${name} is required`);

/** Contact-format errors. */
export const contactError = (status: number, code: string, detail: string): ApiError =>
  new ApiError(status, code, detail, { format: 'contact' });
