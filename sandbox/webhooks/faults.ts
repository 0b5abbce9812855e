import { z } from 'zod';
import { V3_WEBHOOK_EVENTS, WEBHOOK_EVENTS } from '../domain/model.ts';
import type { Random } from '../random.ts';

/** Webhook faults set through the control API; each applies to an event's first attempt. */
export const webhookFaultSchema = z.object({
  kind: z.enum(['drop', 'duplicate', 'delay', 'reorder', 'bad_signature']),
  event_type: z.enum([...new Set([...WEBHOOK_EVENTS, ...V3_WEBHOOK_EVENTS])]).optional(),
  subscription_id: z.number().int().positive().optional(),
  delay_ms: z.number().int().min(0).max(600_000).default(2_000),
  probability: z.number().min(0).max(1).default(1),
  times: z.number().int().positive().optional(),
});
export type WebhookFault = z.output<typeof webhookFaultSchema> & { id: number; hits: number };

export interface WebhookFaultBook {
  add(input: unknown): WebhookFault;
  list(): WebhookFault[];
  clear(): void;
  match(eventType: string, subscriptionId: number): WebhookFault | undefined;
}

export function createWebhookFaultBook(random: () => Random): WebhookFaultBook {
  let faults: WebhookFault[] = [];
  let nextId = 1;
  return {
    add(input) {
      const fault: WebhookFault = { ...webhookFaultSchema.parse(input), id: nextId++, hits: 0 };
      faults.push(fault);
      return fault;
    },
    list: () => faults,
    clear() {
      faults = [];
    },
    match(eventType, subscriptionId) {
      for (const fault of faults) {
        if (fault.event_type && fault.event_type !== eventType) continue;
        if (fault.subscription_id && fault.subscription_id !== subscriptionId) continue;
        if (fault.probability < 1 && !random().chance(fault.probability)) continue;
        fault.hits++;
        if (fault.times !== undefined && fault.hits >= fault.times)
          faults = faults.filter((f) => f !== fault);
        return fault;
      }
      return undefined;
    },
  };
}
