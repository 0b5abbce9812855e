/**
 * Only one of an organization's relays polls the service: the one holding a lease in a key-value
 * bucket. nats-server 2.9 has no per-key TTL, so the lease is a value — who holds it and until when —
 * changed only by compare-and-set on the revision read:
 *
 *   - nobody holds it (no key): `create` (refused if another relay created it first);
 *   - this relay holds it: renewed every third of the lease time, `update` at the revision read
 *     (refused if another relay took it meanwhile: then it is lost, at once);
 *   - another relay holds it but its `until` has passed (it died or lost nats-server): taken over by
 *     `update` at the revision read, so of two relays trying, one wins.
 *
 * A holder that cannot renew (nats-server unreachable) stops polling when its own `until` passes, so
 * two relays never poll at once for longer than the relays' clocks disagree (keep them in NTP).
 */
import { randomUUID } from 'node:crypto';
import { StorageType } from '@nats-io/jetstream';
import { Kvm, type KV } from '@nats-io/kv';
import type { NatsConnection } from '@nats-io/transport-node';
import { z } from 'zod';
import { createLogger } from '../core/log/logger.ts';
import { POLL_LEASE_BUCKET } from '../core/relay-host.ts';

const log = createLogger('relay-lease');

/** How long a lease lasts without renewal: a dead leader's successor starts polling within it. */
export const POLL_LEASE_MS = 15_000;
const LEASE_KEY = 'poller';
const Lease = z.object({ holder: z.string(), until: z.number() });

export interface PollLease {
  /** Whether this relay holds the lease now. */
  readonly held: boolean;
  readonly holder: string;
  /** Stops renewing (the lease then expires: a crash and a stop look alike to the other relays). */
  stop(): Promise<void>;
}

export async function holdPollLease(
  nc: NatsConnection,
  options: { leaseMs?: number; onChange: (held: boolean) => void },
): Promise<PollLease> {
  const leaseMs = options.leaseMs ?? POLL_LEASE_MS;
  const kv = await new Kvm(nc).create(POLL_LEASE_BUCKET, { history: 1, storage: StorageType.File });
  const me = randomUUID();
  let heldUntil = 0;
  let held = false;
  let stopped = false;
  const settle = (now: boolean) => {
    if (now === held) return;
    held = now;
    log.info(now ? 'this relay polls the service now' : 'another relay polls the service', { relay: me });
    options.onChange(now);
  };
  const attempt = async () => {
    const until = Date.now() + leaseMs;
    if (await claim(kv, me, until)) heldUntil = until;
    settle(Date.now() < heldUntil);
  };
  await attempt();
  let running: Promise<void> = Promise.resolve();
  const timer = setInterval(
    () => {
      if (!stopped) running = attempt();
    },
    Math.max(50, Math.floor(leaseMs / 3)),
  );
  return {
    get held() {
      return held;
    },
    holder: me,
    async stop() {
      stopped = true;
      clearInterval(timer);
      await running;
      settle(false);
    },
  };
}

/** One compare-and-set round: true when this relay holds the lease until `until`. */
async function claim(kv: KV, me: string, until: number): Promise<boolean> {
  const value = JSON.stringify({ holder: me, until });
  try {
    const entry = await kv.get(LEASE_KEY);
    if (!entry || entry.operation !== 'PUT') {
      await kv.create(LEASE_KEY, value);
      return true;
    }
    const current = Lease.safeParse(jsonOf(entry.value));
    if (current.success && current.data.holder !== me && current.data.until >= Date.now()) return false;
    await kv.update(LEASE_KEY, value, entry.revision);
    return true;
  } catch (error) {
    // Another relay won the compare-and-set, or nats-server is away: not held by this round.
    log.debug('the polling lease was not taken', {
      error: error instanceof Error ? error.message : String(error),
    });
    return false;
  }
}

function jsonOf(bytes: Uint8Array): unknown {
  try {
    return JSON.parse(new TextDecoder().decode(bytes));
  } catch {
    return undefined;
  }
}
