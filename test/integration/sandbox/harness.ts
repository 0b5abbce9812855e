/**
 * Black-box harness for the sandbox contract tests: one sandbox per test file, reached only over
 * real HTTP (the partner API with its token header, the control API with the admin secret:
 * http-clients.ts), plus a webhook receiver and a file server on 127.0.0.1 built on node:http
 * (local-servers.ts).
 */
import { expect } from 'vitest';
import { startSandbox, type RunningSandbox } from '../../../sandbox/index.ts';
import {
  apiClient,
  type ApiClient,
  type ApiResponse,
  type ControlClient,
  controlClient,
  type Json,
} from './http-clients.ts';

export const TOKEN_A = 'sbx_contract_org_a_3f9c1e';
export const TOKEN_B = 'sbx_contract_org_b_7d2a40';

export const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
/** ISO 8601 with a time zone (Z or a numeric offset). */
export const ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})$/;
/** The webhook data timestamp form the project decided on. */
export const WEBHOOK_TIME = /^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2} \+0000$/;
export const E164 = /^\+[1-9]\d{6,14}$/;

// ---------------------------------------------------------------------------------------------
// Error format assertions

/** Standard V2 error: {errors:[{status, code, title, detail}]}. Returns the error object. */
export function expectV2Error(
  response: ApiResponse,
  status: number,
  code: string,
): { status: number; code: string; title: string; detail: string } {
  expect(response.status, response.text).toBe(status);
  expect(response.body).toEqual({
    errors: [{ status, code, title: expect.any(String), detail: expect.any(String) }],
  });
  return response.body.errors[0];
}

/** Contact / webhook subscription error: {status:"error", error_code, message, errors:[string]}. */
export function expectContactError(response: ApiResponse, status: number, errorCode: string): void {
  expect(response.status, response.text).toBe(status);
  expect(response.body).toEqual({
    status: 'error',
    error_code: errorCode,
    message: expect.any(String),
    errors: expect.arrayContaining([expect.any(String)]),
  });
}

// ---------------------------------------------------------------------------------------------
// Polling
// ---------------------------------------------------------------------------------------------
// The sandbox per test file

export type Service = 'iMessage' | 'SMS' | 'RCS';

export interface Harness {
  sandbox: RunningSandbox;
  url: string;
  /** Organization A (the seeded one). */
  a: ApiClient;
  /** Organization B (always empty). */
  b: ApiClient;
  /** No token at all. */
  anonymous: ApiClient;
  control: ControlClient;
  /** The organization's phone numbers (GET /phone_numbers). */
  lines(
    api?: ApiClient,
  ): Promise<
    Array<{ id: number; phone_number: string; forwarding_number: string | null; response_rate: number }>
  >;
  /** A fresh customer number whose persona is set through the control API. */
  newCustomer(options?: { service?: Service; autoReply?: boolean; reachable?: boolean }): Promise<string>;
  /** POST /chats as JSON; fails the test unless 200/201. */
  createChat(options: {
    to: string[];
    text?: string;
    from?: string;
    displayName?: string;
    api?: ApiClient;
    idempotencyKey?: string;
  }): Promise<ApiResponse>;
  /** A new direct chat with a fresh customer (no auto replies). */
  newChat(options?: {
    service?: Service;
    api?: ApiClient;
    text?: string;
  }): Promise<{ chat: Json; customer: string; line: string }>;
  stop(): Promise<void>;
}

const CAPABILITIES: Record<Service, { imessage: boolean; rcs: boolean }> = {
  iMessage: { imessage: true, rcs: false },
  RCS: { imessage: false, rcs: true },
  SMS: { imessage: false, rcs: false },
};

export async function startHarness(
  options: { seed?: 'demo' | 'empty'; speed?: number } = {},
): Promise<Harness> {
  const sandbox = await startSandbox({
    tokens: [TOKEN_A, TOKEN_B],
    seed: options.seed ?? 'empty',
    quiet: true,
    speed: options.speed ?? 50,
  });
  const a = apiClient(sandbox.url, TOKEN_A);
  const b = apiClient(sandbox.url, TOKEN_B);
  const control = controlClient(sandbox.url, sandbox.adminSecret);
  let customerIndex = 0;

  const lines: Harness['lines'] = async (api = a) => {
    const response = await api.get('/phone_numbers');
    if (response.status !== 200)
      throw new Error(`GET /phone_numbers answered ${response.status}: ${response.text}`);
    return response.body.phone_numbers;
  };
  const newCustomer: Harness['newCustomer'] = async ({
    service = 'iMessage',
    autoReply = false,
    reachable = true,
  } = {}) => {
    // 212-555-01xx..99xx: fictional numbers in an area code neither the seeds' lines nor customers use.
    const number = `+1212555${String(1000 + customerIndex++).padStart(4, '0')}`;
    await control.ok('PUT', `/customers/${encodeURIComponent(number)}`, {
      ...CAPABILITIES[service],
      auto_reply: autoReply,
      reachable,
    });
    return number;
  };
  const createChat: Harness['createChat'] = async ({
    to,
    text = 'Hello from the contract tests',
    from,
    displayName,
    api = a,
    idempotencyKey,
  }) => {
    const sendFrom = from ?? (await lines(api))[0]!.phone_number;
    const response = await api.post('/chats', {
      json: {
        send_from: sendFrom,
        chat: { phone_numbers: to, ...(displayName ? { display_name: displayName } : {}) },
        message: { text, ...(idempotencyKey ? { idempotency_key: idempotencyKey } : {}) },
      },
    });
    if (response.status !== 200 && response.status !== 201) {
      throw new Error(`POST /chats answered ${response.status}: ${response.text}`);
    }
    return response;
  };
  const newChat: Harness['newChat'] = async ({ service = 'iMessage', api = a, text } = {}) => {
    const customer = await newCustomer({ service });
    const line = (await lines(api))[0]!.phone_number;
    const response = await createChat({ to: [customer], from: line, api, ...(text ? { text } : {}) });
    return { chat: response.body.data, customer, line };
  };

  return {
    sandbox,
    url: sandbox.url,
    a,
    b,
    anonymous: apiClient(sandbox.url, null),
    control,
    lines,
    newCustomer,
    createChat,
    newChat,
    stop: () => sandbox.stop(),
  };
}

// ---------------------------------------------------------------------------------------------
// Webhook helpers

/** JSON with object keys sorted recursively (the canonical form the spec requires). */
export function sortedJson(value: unknown): string {
  const sort = (v: unknown): unknown => {
    if (Array.isArray(v)) return v.map(sort);
    if (v && typeof v === 'object') {
      return Object.fromEntries(
        Object.keys(v as Record<string, unknown>)
          .sort()
          .map((k) => [k, sort((v as Record<string, unknown>)[k])]),
      );
    }
    return v;
  };
  return JSON.stringify(sort(value));
}

export const ALL_EVENTS = [
  'message.sent',
  'message.received',
  'message.read',
  'call.completed',
  'reaction.sent',
  'reaction.received',
  'typing_indicator.received',
  'typing_indicator.removed',
  'chat.created',
  'contact.created',
  'contact.updated',
  'contact.deleted',
  'participant.added',
  'participant.removed',
] as const;

/** Creates a V2 webhook subscription for organization A (or `api`); returns the subscription. */
export async function subscribe(
  api: ApiClient,
  options: { url: string; events?: readonly string[]; secret?: string; version?: number },
): Promise<Json> {
  const response = await api.post('/webhook_subscriptions', {
    json: {
      webhook_subscription: {
        webhook_url: options.url,
        version: options.version ?? 2,
        events: options.events ?? ALL_EVENTS,
        ...(options.secret !== undefined ? { secret: options.secret } : {}),
      },
    },
  });
  if (response.status !== 201)
    throw new Error(`subscription create answered ${response.status}: ${response.text}`);
  return response.body.webhook_subscription;
}

/** A tiny valid 1×1 PNG, padded with a text chunk to `size` bytes when asked. */
export function pngBytes(padTo = 0): Buffer {
  const base = Buffer.from(
    '89504e470d0a1a0a0000000d4948445200000001000000010806000000' +
      '1f15c4890000000d49444154789c6360f8cfc0f01f0005000201a5d2a4e20000000049454e44ae426082',
    'hex',
  );
  if (padTo <= base.length) return base;
  return Buffer.concat([base, Buffer.alloc(padTo - base.length, 0x20)]);
}

/** A minimal PDF document. */
export function pdfBytes(): Buffer {
  return Buffer.from('%PDF-1.4\n1 0 obj<</Type/Catalog>>endobj\ntrailer<</Root 1 0 R>>\n%%EOF\n', 'latin1');
}
