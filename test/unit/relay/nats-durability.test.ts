/**
 * fsync before acknowledging is asked of nats-server only where it knows how (2.10+): 2.9 has no
 * `sync_interval`, and the relay must not rely on an option the server would not apply.
 */
import { readFileSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { fsyncBeforeAckSupported, writeNatsConfig } from '../../../electron/relay/nats-server.ts';

/** One user whose seed nobody has: a config nobody can connect with. */
const LOCKED = { ORG: { users: [{ nkey: 'UBHGTRYLM7BPBYVHLSDVVUTTF36ZEL3OPGNVCONXTVNC7PKIKRSKM56Q' }] } };

describe('fsync before acknowledgement', () => {
  it('is known to nats-server from 2.10 on', () => {
    expect(fsyncBeforeAckSupported('2.9.10')).toBe(false);
    expect(fsyncBeforeAckSupported('2.10.0')).toBe(true);
    expect(fsyncBeforeAckSupported('2.12.1')).toBe(true);
    expect(fsyncBeforeAckSupported('3.0.0')).toBe(true);
  });

  it('is written into the config only when asked for', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'parley-nats-conf-'));
    try {
      writeFileSync(join(dir, 'ports.json'), JSON.stringify({ client: 4222, monitor: 8222 }));
      await writeNatsConfig(dir, { accounts: LOCKED, fsyncBeforeAck: true });
      expect(JSON.parse(readFileSync(join(dir, 'nats.conf'), 'utf8')).jetstream.sync_interval).toBe('always');
      await writeNatsConfig(dir, { accounts: LOCKED });
      expect(JSON.parse(readFileSync(join(dir, 'nats.conf'), 'utf8')).jetstream).not.toHaveProperty(
        'sync_interval',
      );
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
