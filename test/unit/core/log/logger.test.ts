import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  createLogger,
  drop,
  registerSecret,
  setLogLevel,
  setLogSink,
  type LogLevel,
} from '../../../../electron/core/log/logger.ts';
import { PartnerApiError } from '../../../../electron/core/api/errors.ts';

const SECRET = 'tok_live_9f8e7d6c5b4a3210';

describe('logger', () => {
  let lines: Array<{ line: string; level: LogLevel }>;
  let restoreSink: () => void;
  let unregister: () => void;

  beforeEach(() => {
    lines = [];
    restoreSink = setLogSink((line, level) => lines.push({ line, level }));
    unregister = registerSecret(SECRET);
    setLogLevel('debug');
  });

  afterEach(() => {
    restoreSink();
    unregister();
    setLogLevel(undefined);
    delete process.env.PARLEY_LOG_LEVEL;
  });

  const output = (): string => lines.map((l) => l.line).join('\n');

  it('writes one line with the name, level, message and fields', () => {
    createLogger('sync').info('pulled chats', { count: 3, line: '+14155550100', note: 'two words' });
    expect(lines).toHaveLength(1);
    expect(lines[0]?.line).toMatch(
      / INFO {2}sync: pulled chats count=3 line=\+14155550100 note="two words"$/,
    );
  });

  it('never prints a registered secret: message, fields, nested fields, errors and causes', () => {
    const log = createLogger('api');
    log.info(`calling with ${SECRET}`);
    log.warn('failed', {
      url: `https://x.example/?t=${SECRET}`,
      nested: { deeper: [`a ${SECRET} b`] },
      error: new Error(`boom ${SECRET}`, { cause: new Error(`inner ${SECRET}`) }),
    });
    log.error('api error', {
      error: new PartnerApiError({
        kind: 'server',
        status: 500,
        message: `bad ${SECRET}`,
        rawBody: `{"t":"${SECRET}"}`,
      }),
    });
    expect(lines).toHaveLength(3);
    expect(output()).not.toContain(SECRET);
    expect(output()).toContain('[redacted]');
    expect(output()).toContain('inner [redacted]');
  });

  it('masks values under secret-named keys even when they were never registered', () => {
    createLogger('api').info('headers', {
      'X-PARTNER-INTEGRATION-TOKEN': 'unregistered-value-1',
      authorization: 'Bearer unregistered-value-2',
      webhook: { secret: 'unregistered-value-3', password: 'unregistered-value-4' },
      signature: 'sha256=abc',
      secret_configured: true,
    });
    expect(output()).not.toMatch(/unregistered-value|sha256=abc/);
    expect(output()).toContain('secret_configured=true');
  });

  it('catches a secret that JSON escaping would otherwise hide', () => {
    const tricky = 'se"cr\\et-value';
    const unregisterTricky = registerSecret(tricky);
    createLogger('api').info('fields', { value: `x${tricky}y` });
    unregisterTricky();
    expect(output()).not.toContain('cr\\\\et');
    expect(output()).toContain('[redacted]');
  });

  it('does not register values too short to be real secrets (they would garble every line)', () => {
    const unregisterShort = registerSecret('t');
    createLogger('api').info('the token was refused', { status: 401 });
    unregisterShort();
    expect(output()).toContain('the token was refused');
  });

  it('filters by level from PARLEY_LOG_LEVEL (default info)', () => {
    setLogLevel(undefined);
    const log = createLogger('api');
    log.debug('hidden by default');
    log.info('shown by default');
    process.env.PARLEY_LOG_LEVEL = 'warn';
    log.info('hidden at warn');
    log.warn('shown at warn');
    expect(lines.map((l) => l.line.split(': ')[1])).toEqual(['shown by default', 'shown at warn']);
  });

  it('drop() logs a rejection instead of leaving it unhandled', async () => {
    drop(Promise.reject(new Error(`lost ${SECRET}`)), createLogger('outbox'));
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect(lines).toHaveLength(1);
    expect(lines[0]?.level).toBe('error');
    expect(lines[0]?.line).toContain('outbox: background task failed');
    expect(lines[0]?.line).not.toContain(SECRET);
  });

  it('survives a sink that throws and values that cannot be serialized', () => {
    const circular: Record<string, unknown> = { a: 1 };
    circular.self = circular;
    createLogger('api').info('circular', { circular, big: 10n });
    expect(output()).toContain('[circular]');
    restoreSink();
    restoreSink = setLogSink(() => {
      throw new Error('sink down');
    });
    expect(() => createLogger('api').error('still fine')).not.toThrow();
  });
});
