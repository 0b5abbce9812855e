import { describe, expect, it } from 'vitest';
import { deliveryWords, failurePresentation, isFailed, isInFlight } from '../../../renderer/lib/delivery.ts';
import { message } from './fixtures.ts';

describe('failed messages in words', () => {
  it('an opt-out says so and offers no way to send again', () => {
    const shown = failurePresentation(
      message({ fromMe: true, state: 'failed', failure: { code: '2024', reason: 'opted out' } }),
    );
    expect(shown).toMatchObject({
      title: 'The recipient asked you to stop messaging them',
      code: '2024',
      action: 'none',
    });
  });

  it('a transient delivery failure offers a new send (a fresh key), with the service’s hint', () => {
    const shown = failurePresentation(
      message({ fromMe: true, state: 'failed', failure: { code: '3001', reason: null } }),
    );
    expect(shown).toMatchObject({
      title: 'Delivery failed — send again',
      action: 'send-again',
      code: '3001',
    });
    expect(shown?.hint).toBe('The service had a connection problem');
  });

  it('an unknown code keeps its code and the service’s reason', () => {
    const shown = failurePresentation(
      message({ fromMe: true, state: 'failed', failure: { code: '2099', reason: 'Something new' } }),
    );
    expect(shown).toMatchObject({
      title: 'Not delivered (code 2099)',
      hint: 'Something new',
      action: 'none',
    });
  });

  it('a send accepted and then failed with no reason known (seen by a poll) offers a new send', () => {
    const shown = failurePresentation(message({ id: 42, fromMe: true, state: 'failed', failure: null }));
    expect(shown).toMatchObject({ title: 'Not delivered', code: null, action: 'send-again' });
    expect(shown?.hint).toBe('The service did not say why');
  });

  it('a send refused outright for an opt-out says so and offers no retry', () => {
    const refused = message({
      id: null,
      fromMe: true,
      state: 'failed',
      error: { code: '2024', message: 'Recipient asked you to stop messaging them', retryable: false },
    });
    expect(failurePresentation(refused)).toMatchObject({
      title: 'The recipient asked you to stop messaging them',
      code: '2024',
      action: 'none',
    });
  });

  it('an outbox failure retries under its own key; a delivered message has nothing to show', () => {
    const failed = message({
      id: null,
      fromMe: true,
      state: 'failed',
      error: { code: 'invalid_input', message: 'Refused', retryable: false },
    });
    expect(failurePresentation(failed)).toMatchObject({ title: 'Refused', action: 'retry', code: null });
    expect(failurePresentation(message({ state: 'delivered' }))).toBeNull();
  });
});

describe('the delivery status in words (one wording for every state)', () => {
  const sent = message({ fromMe: true, id: 5 });
  const t = 1_000_000;
  const words = (partial: Parameters<typeof message>[0], offline = false) =>
    deliveryWords({ ...sent, ...partial }, t, offline);

  it('says what is still on its way, with the age of a pending message', () => {
    expect(deliveryWords({ ...sent, state: 'pending', sentAt: t }, t + 5 * 60_000, false)).toBe(
      'Sent · not delivered yet (5 min)',
    );
    expect(words({ state: 'queued' }, true)).toMatch(/back online/);
    expect(words({ state: 'queued' })).toBe('Queued');
    expect(words({ state: 'sending' })).toBe('Sending…');
    expect(
      words({
        state: 'sending',
        error: { code: 'rate_limited', message: 'Rate limit exceeded', retryable: true },
      }),
    ).toBe('Retrying… (Rate limit exceeded)');
    expect(words({ state: 'rate_limit_exceeded' })).toMatch(/retrying/);
    expect(words({ state: 'service_unavailable' })).toBe('Service unavailable: retrying…');
    expect(words({ state: 'paused' })).toBe('Line paused: will send when it resumes');
    expect(isInFlight({ state: 'queued' })).toBe(true);
    expect(isInFlight({ state: 'pending' })).toBe(false);
  });

  it('says sent, delivered and read (with the time when known)', () => {
    expect(words({ state: 'sent' })).toBe('Sent');
    expect(words({ state: 'delivered' })).toBe('Delivered');
    expect(words({ state: 'read', readAt: null })).toBe('Read');
    expect(words({ state: 'read', readAt: Date.UTC(2026, 0, 1, 9, 5) })).toMatch(/^Read \S/);
  });

  it('words a failure as its presentation does: the code’s words, not delivered, or the outbox’s reason', () => {
    expect(words({ state: 'failed', failure: { code: '2024', reason: null } })).toBe(
      'The recipient asked you to stop messaging them',
    );
    // The service's code wins over whatever state the message was left in.
    expect(words({ state: 'delivered', failure: { code: '2024', reason: null } })).toBe(
      'The recipient asked you to stop messaging them',
    );
    expect(words({ state: 'failed', id: 42 })).toBe('Not delivered');
    expect(
      words({
        state: 'failed',
        id: null,
        error: { code: 'x', message: 'Number unreachable', retryable: false },
      }),
    ).toBe('Number unreachable');
    expect(words({ state: 'failed', id: null, error: null })).toBe('Not sent');
    expect(isFailed({ state: 'failed' })).toBe(true);
  });

  it('names a state it does not know as it is', () => {
    expect(words({ state: 'received' })).toBe('received');
  });
});
