/**
 * A follow of one of the team's streams that mends itself (log-follow.ts does one follow): lost —
 * a message missing, missed heartbeats, the relay or nats-server restarted — it is made again, from
 * the sequence after the last one handed over (or, for a slot that starts at each subject's last,
 * afresh: `onRestart` is told first, and what follows is the whole picture again). A follow that
 * cannot be made — the relay starting, or its server reloading a new agent's account — is tried
 * again every RETRY_MS until it is made or stopped, the first one too: nothing waits for it.
 */
import type { JsMsg } from '@nats-io/jetstream';
import type { NatsConnection } from '@nats-io/transport-node';
import type { Logger } from '../log/logger.ts';
import { FOLLOW_SLOTS, type FollowSlot } from './follow-slots.ts';
import { followLog, type LogFollow } from './log-follow.ts';

const RETRY_MS = 2_000;

export interface KeptFollowOptions {
  agentId: string;
  slot: FollowSlot;
  /** The first sequence wanted, for a slot that starts at a sequence (default 1). */
  fromSeq?: number;
  onMessage(msg: JsMsg): void;
  /**
   * A follow of a slot that starts at each subject's last is about to be made anew: the picture
   * starts over (what it delivers next is all of it).
   */
  onRestart?(): void;
  log: Logger;
}

export interface KeptFollow {
  stop(): Promise<void>;
}

export async function keepFollowing(nc: NatsConnection, options: KeptFollowOptions): Promise<KeptFollow> {
  const bySequence = FOLLOW_SLOTS[options.slot].start === 'sequence';
  let lastSeq = (options.fromSeq ?? 1) - 1;
  let stopped = false;
  let current: LogFollow | undefined;
  let retry: NodeJS.Timeout | undefined;
  let mending = Promise.resolve();

  const start = () =>
    followLog(nc, {
      agentId: options.agentId,
      slot: options.slot,
      ...(bySequence ? { fromSeq: lastSeq + 1 } : {}),
      onMessage: (msg) => {
        if (bySequence && msg.seq <= lastSeq) return;
        lastSeq = msg.seq;
        options.onMessage(msg);
      },
      onLost: (reason) => mend(reason),
    });

  const mend = (reason: string): void => {
    mending = mending.then(async () => {
      if (stopped) return;
      clearTimeout(retry);
      options.log.warn('following a team stream again', { slot: options.slot, reason });
      await current?.close();
      current = undefined;
      try {
        if (!bySequence) options.onRestart?.();
        const made = await start();
        if (stopped) return void (await made.close());
        current = made;
      } catch (error) {
        options.log.warn('could not follow a team stream again', {
          slot: options.slot,
          error: error instanceof Error ? error.message : String(error),
        });
        retry = setTimeout(() => mend('trying again'), RETRY_MS);
        retry.unref?.();
      }
    });
  };

  try {
    current = await start();
  } catch (error) {
    options.log.warn('could not follow a team stream yet; trying again', {
      slot: options.slot,
      error: error instanceof Error ? error.message : String(error),
    });
    retry = setTimeout(() => mend('trying again'), RETRY_MS);
    retry.unref?.();
  }
  // After a reconnect the relay's follow may be gone with the server's memory: followed anew.
  const statuses = nc.status();
  void (async () => {
    for await (const status of statuses) {
      if (stopped) return;
      if (status.type === 'reconnect') mend('reconnected');
    }
  })();
  return {
    async stop() {
      stopped = true;
      clearTimeout(retry);
      (statuses as { stop?: () => void }).stop?.();
      await mending;
      await current?.close();
    },
  };
}
