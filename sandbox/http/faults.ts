import { z } from 'zod';
import type { Random } from '../random.ts';

/** Route faults set through the control API: latency, server errors, 429s and connection resets. */
export const routeFaultSchema = z.object({
  method: z.string().toUpperCase().optional(),
  /** A regular expression matched against the request path (without the query). */
  path: z.string().optional(),
  /**
   * latency: wait before handling; slow_response: handle, then wait before answering (the work is
   * done even if the client gives up); error: a 5xx; rate_limit: a 429; reset: drop the connection.
   */
  kind: z.enum(['latency', 'slow_response', 'error', 'rate_limit', 'reset']),
  status: z.number().int().min(500).max(599).default(500),
  latencyMs: z.number().int().min(0).max(120_000).default(0),
  retryAfterSeconds: z.number().int().min(0).max(3600).default(1),
  probability: z.number().min(0).max(1).default(1),
  /** How many requests it applies to before it is spent; unlimited when absent. */
  times: z.number().int().positive().optional(),
});
export type RouteFaultInput = z.input<typeof routeFaultSchema>;
export type RouteFault = z.output<typeof routeFaultSchema> & {
  id: number;
  hits: number;
  pattern: RegExp | null;
};

export interface FaultBook {
  add(input: unknown): RouteFault;
  list(): RouteFault[];
  clear(): void;
  /** The fault this request meets, if any (consumes one of its `times`). */
  match(method: string, path: string): RouteFault | undefined;
}

export function createFaultBook(random: Random): FaultBook {
  let faults: RouteFault[] = [];
  let nextId = 1;
  return {
    add(input) {
      const parsed = routeFaultSchema.parse(input);
      const fault: RouteFault = {
        ...parsed,
        id: nextId++,
        hits: 0,
        pattern: parsed.path ? new RegExp(parsed.path) : null,
      };
      faults.push(fault);
      return fault;
    },
    list: () => faults,
    clear() {
      faults = [];
    },
    match(method, path) {
      for (const fault of faults) {
        if (fault.method && fault.method !== method) continue;
        if (fault.pattern && !fault.pattern.test(path)) continue;
        if (fault.probability < 1 && !random.chance(fault.probability)) continue;
        fault.hits++;
        if (fault.times !== undefined && fault.hits >= fault.times)
          faults = faults.filter((f) => f !== fault);
        return fault;
      }
      return undefined;
    },
  };
}
