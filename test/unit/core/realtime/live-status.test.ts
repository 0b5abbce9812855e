// How the parts' states become the status the UI shows: 'live' only when the whole push path works.
import { describe, expect, it } from 'vitest';
import { type LiveParts, liveStatus } from '../../../../electron/core/realtime/live-status.ts';

const up: LiveParts = {
  on: true,
  fatal: null,
  tunnelKind: 'ngrok',
  tunnel: { phase: 'up', url: 'https://a.ngrok-free.app' },
  pointing: { url: 'https://a.ngrok-free.app', phase: 'ok' },
  deliveryProblem: null,
};

describe('liveStatus', () => {
  it('is live only with the tunnel up, the subscription pointed at it and deliveries arriving', () => {
    expect(liveStatus(up)).toEqual({ state: 'live', reason: null });
    expect(liveStatus({ ...up, deliveryProblem: 'The last 4 failed' })).toEqual({
      state: 'polling',
      reason: 'The last 4 failed; new messages arrive by polling meanwhile.',
    });
  });

  it('says what the tunnel is doing, and when it tries again', () => {
    expect(liveStatus({ ...up, tunnel: { phase: 'connecting', attempt: 1 } })).toEqual({
      state: 'reconnecting',
      reason: 'Opening the ngrok tunnel…',
    });
    expect(liveStatus({ ...up, tunnel: { phase: 'connecting', attempt: 3 } }).reason).toBe(
      'Reconnecting the ngrok tunnel (attempt 3)…',
    );
    const down = {
      phase: 'down',
      reason: 'ngrok lost its connection.',
      retryInMs: 8_000,
      retryable: true,
    } as const;
    expect(liveStatus({ ...up, tunnel: down })).toEqual({
      state: 'polling',
      reason: 'ngrok lost its connection. Retrying in 8 s; new messages arrive by polling meanwhile.',
    });
    expect(liveStatus({ ...up, tunnel: { ...down, retryable: false, retryInMs: 60_000 } }).reason).toMatch(
      /Checking again in 60 s/,
    );
  });

  it('tells a refused subscription from an unreachable service', () => {
    const failed = {
      url: up.pointing?.url as string,
      phase: 'failed' as const,
      reason: '422 VALIDATION_ERROR',
    };
    expect(liveStatus({ ...up, pointing: failed }).state).toBe('polling');
    expect(liveStatus({ ...up, pointing: { ...failed, offline: true } }).state).toBe('offline');
    expect(liveStatus({ ...up, pointing: { ...failed, phase: 'pending' } }).state).toBe('reconnecting');
  });

  it('is off when stopped, and a fatal problem wins over everything else', () => {
    expect(liveStatus({ ...up, on: false })).toEqual({ state: 'polling', reason: 'Live events are off' });
    expect(liveStatus({ ...up, fatal: 'Live events need the system keychain: locked' })).toEqual({
      state: 'polling',
      reason: 'Live events need the system keychain: locked',
    });
  });
});
