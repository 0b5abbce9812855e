import type { Database } from './database.ts';

export type OutboxState = 'queued' | 'running' | 'waiting' | 'failed';

export interface OutboxRow {
  id: number;
  kind: string;
  queue: string;
  payload: unknown;
  idempotencyKey: string | null;
  messageKey: string | null;
  state: OutboxState;
  attempts: number;
  nextAttemptAt: number;
  error: { code: string; message: string; retryable: boolean } | null;
  createdAt: number;
}

interface RawRow {
  id: number;
  kind: string;
  queue: string;
  payload_json: string;
  idempotency_key: string | null;
  message_key: string | null;
  state: OutboxState;
  attempts: number;
  next_attempt_at: number;
  error_json: string | null;
  created_at: number;
}

const toRow = (r: RawRow): OutboxRow => ({
  id: r.id,
  kind: r.kind,
  queue: r.queue,
  payload: JSON.parse(r.payload_json) as unknown,
  idempotencyKey: r.idempotency_key,
  messageKey: r.message_key,
  state: r.state,
  attempts: r.attempts,
  nextAttemptAt: r.next_attempt_at,
  error: r.error_json ? (JSON.parse(r.error_json) as OutboxRow['error']) : null,
  createdAt: r.created_at,
});

/**
 * Persisted jobs. A job is written in the same transaction as its optimistic message; only the
 * oldest unfinished job of a queue (one chat) may run, so a chat's sends keep their order. Failed
 * jobs wait for the user (retry or discard) and do not block the queue behind them.
 */
export class OutboxRepo {
  readonly #db: Database;
  constructor(db: Database) {
    this.#db = db;
  }

  enqueue(job: {
    kind: string;
    queue: string;
    payload: unknown;
    idempotencyKey?: string | null;
    messageKey?: string | null;
  }): number {
    return this.#db.run(
      `INSERT INTO outbox (kind, queue, payload_json, idempotency_key, message_key, state, created_at) VALUES (?, ?, ?, ?, ?, 'queued', ?)`,
      job.kind,
      job.queue,
      JSON.stringify(job.payload),
      job.idempotencyKey ?? null,
      job.messageKey ?? null,
      Date.now(),
    ).lastInsertRowid;
  }

  /** Jobs that may start now: the head of each queue, not running, due. */
  ready(now: number, limit = 16): OutboxRow[] {
    return this.#db
      .all<RawRow>(
        `SELECT * FROM outbox o WHERE o.state IN ('queued', 'waiting') AND o.next_attempt_at <= ?
           AND o.id = (SELECT MIN(id) FROM outbox WHERE queue = o.queue AND state IN ('queued', 'waiting', 'running'))
         ORDER BY o.id LIMIT ?`,
        now,
        limit,
      )
      .map(toRow);
  }

  /** When the next waiting job becomes due (for the scheduler's timer). */
  nextDueAt(): number | null {
    return (
      this.#db.get<{ at: number | null }>(
        "SELECT MIN(next_attempt_at) AS at FROM outbox WHERE state IN ('queued', 'waiting')",
      )?.at ?? null
    );
  }

  get(id: number): OutboxRow | undefined {
    const row = this.#db.get<RawRow>('SELECT * FROM outbox WHERE id = ?', id);
    return row ? toRow(row) : undefined;
  }

  byMessageKey(messageKey: string): OutboxRow | undefined {
    const row = this.#db.get<RawRow>(
      'SELECT * FROM outbox WHERE message_key = ? ORDER BY id DESC LIMIT 1',
      messageKey,
    );
    return row ? toRow(row) : undefined;
  }

  markRunning(id: number): void {
    this.#db.run("UPDATE outbox SET state = 'running', attempts = attempts + 1 WHERE id = ?", id);
  }

  markWaiting(id: number, nextAttemptAt: number, error: OutboxRow['error']): void {
    this.#db.run(
      "UPDATE outbox SET state = 'waiting', next_attempt_at = ?, error_json = ? WHERE id = ?",
      nextAttemptAt,
      error ? JSON.stringify(error) : null,
      id,
    );
  }

  markFailed(id: number, error: NonNullable<OutboxRow['error']>): void {
    this.#db.run(
      "UPDATE outbox SET state = 'failed', error_json = ? WHERE id = ?",
      JSON.stringify(error),
      id,
    );
  }

  /** A failed job goes back to the queue (same idempotency key: it can never send twice). */
  requeue(id: number): void {
    this.#db.run(
      "UPDATE outbox SET state = 'queued', next_attempt_at = 0, attempts = 0, error_json = NULL WHERE id = ?",
      id,
    );
  }

  updatePayload(id: number, payload: unknown): void {
    this.#db.run('UPDATE outbox SET payload_json = ? WHERE id = ?', JSON.stringify(payload), id);
  }

  complete(id: number): void {
    this.#db.run('DELETE FROM outbox WHERE id = ?', id);
  }

  /** After a crash, jobs that were mid-flight are queued again (their keys make that safe). */
  recoverInterrupted(): number {
    return this.#db.run("UPDATE outbox SET state = 'queued' WHERE state = 'running'").changes;
  }

  unfinished(): OutboxRow[] {
    return this.#db.all<RawRow>('SELECT * FROM outbox ORDER BY id').map(toRow);
  }

  count(state?: OutboxState): number {
    return state
      ? (this.#db.get<{ n: number }>('SELECT COUNT(*) AS n FROM outbox WHERE state = ?', state)?.n ?? 0)
      : (this.#db.get<{ n: number }>('SELECT COUNT(*) AS n FROM outbox')?.n ?? 0);
  }
}
