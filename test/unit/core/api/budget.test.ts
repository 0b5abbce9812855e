import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import {
  budgetFor,
  forgetBudget,
  RequestBudget,
  type RequestPriority,
} from '../../../../electron/core/api/budget.ts';

/** Records grant order; the budget's clock follows the fake timers. */
function track(budget: RequestBudget) {
  const granted: string[] = [];
  const request = (label: string, priority: RequestPriority = 'user', signal?: AbortSignal) =>
    budget.acquire(priority, signal).then(
      () => void granted.push(label),
      () => void granted.push(`${label}:aborted`),
    );
  return { granted, request };
}

describe('RequestBudget', () => {
  beforeEach(() => {
    vi.useFakeTimers();
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it('grants a burst at once, then one request per 1/rate seconds', async () => {
    const budget = new RequestBudget({ ratePerSecond: 10, headroom: 1, burst: 3, now: Date.now });
    const { granted, request } = track(budget);
    for (let i = 0; i < 6; i++) void request(`r${i}`);
    await vi.advanceTimersByTimeAsync(0);
    expect(granted).toEqual(['r0', 'r1', 'r2']);
    await vi.advanceTimersByTimeAsync(100);
    expect(granted).toHaveLength(4);
    await vi.advanceTimersByTimeAsync(200);
    expect(granted).toHaveLength(6);
    expect(budget.stats().granted).toBe(6);
  });

  it('serves queued user requests before queued background ones', async () => {
    const budget = new RequestBudget({ ratePerSecond: 10, headroom: 1, burst: 1, now: Date.now });
    const { granted, request } = track(budget);
    void request('first');
    void request('sync-1', 'background');
    void request('sync-2', 'background');
    void request('click', 'user');
    void request('sync-3', 'background');
    void request('typing', 'user');
    await vi.advanceTimersByTimeAsync(1000);
    expect(granted).toEqual(['first', 'click', 'typing', 'sync-1', 'sync-2', 'sync-3']);
  });

  it('on a 429 pauses everything until Retry-After, halves the rate once, then recovers on success', async () => {
    const budget = new RequestBudget({ ratePerSecond: 10, headroom: 1, burst: 5, now: Date.now });
    const { granted, request } = track(budget);
    budget.rateLimited(2);
    budget.rateLimited(2); // the same storm, seen by another in-flight request: one cut only
    expect(budget.stats().ratePerSecond).toBe(5);
    expect(budget.stats().rateLimited).toBe(2);
    void request('a');
    void request('b', 'background');
    await vi.advanceTimersByTimeAsync(1999);
    expect(granted).toEqual([]);
    // After the pause the bucket starts empty and refills at the reduced rate (5/s → one per 200 ms).
    await vi.advanceTimersByTimeAsync(1 + 200);
    expect(granted).toEqual(['a']);
    await vi.advanceTimersByTimeAsync(200);
    expect(granted).toEqual(['a', 'b']);
    for (let i = 0; i < 200; i++) budget.succeeded();
    expect(budget.stats().ratePerSecond).toBe(10);
  });

  it('keeps cutting on repeated storms, but never below the floor', async () => {
    const budget = new RequestBudget({
      ratePerSecond: 8,
      headroom: 1,
      burst: 5,
      minRatePerSecond: 2,
      now: Date.now,
    });
    for (let i = 0; i < 5; i++) {
      budget.rateLimited(1);
      await vi.advanceTimersByTimeAsync(1000);
    }
    expect(budget.stats().ratePerSecond).toBe(2);
  });

  it('an aborted waiting request leaves the queue and its slot goes to the next', async () => {
    const budget = new RequestBudget({ ratePerSecond: 10, headroom: 1, burst: 1, now: Date.now });
    const { granted, request } = track(budget);
    const controller = new AbortController();
    void request('first');
    void request('cancelled', 'user', controller.signal);
    void request('next', 'background');
    await vi.advanceTimersByTimeAsync(0);
    expect(budget.stats().waiting).toEqual({ user: 1, background: 1 });
    controller.abort();
    await vi.advanceTimersByTimeAsync(0);
    expect(budget.stats().waiting).toEqual({ user: 0, background: 1 });
    await vi.advanceTimersByTimeAsync(100);
    expect(granted).toEqual(['first', 'cancelled:aborted', 'next']);
  });

  it('rejects at once with an already aborted signal', async () => {
    const budget = new RequestBudget({ now: Date.now });
    await expect(budget.acquire('user', AbortSignal.abort(new Error('gone')))).rejects.toThrow('gone');
  });
});

describe('budgetFor', () => {
  it('gives every client of the same token and service the same budget', () => {
    const a = budgetFor('https://svc.example', 'tok-1');
    expect(budgetFor('https://svc.example/api/partner/v2/', 'tok-1')).toBe(a);
    expect(budgetFor('https://svc.example', 'tok-2')).not.toBe(a);
    expect(budgetFor('https://other.example', 'tok-1')).not.toBe(a);
    forgetBudget('https://svc.example', 'tok-1');
    expect(budgetFor('https://svc.example', 'tok-1')).not.toBe(a);
  });

  it('keeps a share of a known limit in reserve, so bunched arrivals do not meet a 429', () => {
    const budget = new RequestBudget({ ratePerSecond: 100, burst: 10 });
    expect(budget.stats().ceilingPerSecond).toBeCloseTo(95);
    budget.configure({ ratePerSecond: 40 });
    expect(budget.stats().ceilingPerSecond).toBeCloseTo(38);
  });
});
