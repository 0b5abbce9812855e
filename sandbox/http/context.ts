/**
 * What every route module needs from the app: path prefixes, the services, and the request
 * decorations. A leaf module, so `app.ts` can import the routes without the routes importing it.
 */
import type { Org } from '../domain/model.ts';
import type { World } from '../domain/world.ts';
import type { WebhookDispatcher } from '../webhooks/dispatcher.ts';
import type { ErrorFormat } from './errors.ts';
import type { FaultBook } from './faults.ts';
import type { RateLimiter } from './rate-limit.ts';

export const V2 = '/api/partner/v2';
export const V3 = '/api/partner/v3';
export const CONTROL = '/__sandbox';
export const TOKEN_HEADER = 'x-partner-integration-token';

/** Partner API requests answered since the start or the last reset (the control API is not counted). */
export interface ServedCounts {
  total: number;
  status_429: number;
}

declare module 'fastify' {
  interface FastifyRequest {
    org: Org;
    /** Set by a slow_response fault: the answer waits this long after the work is done. */
    slowResponseMs: number;
  }
  interface FastifyContextConfig {
    errorFormat?: ErrorFormat;
  }
}

export interface SandboxServices {
  world: World;
  limiter: RateLimiter;
  faults: FaultBook;
  webhooks: WebhookDispatcher;
  adminSecret: string;
  /** What the partner API answered, counted (control API `GET /state`: a benchmark's service load). */
  served: ServedCounts;
  /** Restores the initial state (control API reset). */
  reset(): Promise<void>;
}
