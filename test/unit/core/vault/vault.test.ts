import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createLogger, setLogSink } from '../../../../electron/core/log/logger.ts';
import { InMemoryVault } from '../../../../electron/core/vault/memory-vault.ts';
import { KeyedSequencer } from '../../../../electron/core/vault/sequencer.ts';
import { assertVaultKey, vaultKeys, VaultUnavailableError } from '../../../../electron/core/vault/vault.ts';

/** A promise with its resolve/reject exposed, to control when a task finishes. */
function deferred<T = void>() {
  let resolve!: (value: T) => void;
  let reject!: (error: unknown) => void;
  const promise = new Promise<T>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  return { promise, resolve, reject };
}

describe('KeyedSequencer', () => {
  it('runs tasks for one key in call order, each after the previous has finished', async () => {
    const sequencer = new KeyedSequencer();
    const order: string[] = [];
    const first = deferred();
    const a = sequencer.run('k', async () => {
      order.push('a start');
      await first.promise;
      order.push('a end');
    });
    const b = sequencer.run('k', async () => {
      order.push('b');
    });
    await new Promise((resolve) => setImmediate(resolve)); // let every queued microtask run
    expect(order).toEqual(['a start']);
    first.resolve();
    await Promise.all([a, b]);
    expect(order).toEqual(['a start', 'a end', 'b']);
  });

  it('lets other keys run meanwhile', async () => {
    const sequencer = new KeyedSequencer();
    const blocked = deferred();
    const slow = sequencer.run('a', () => blocked.promise);
    await expect(sequencer.run('b', async () => 'done')).resolves.toBe('done');
    blocked.resolve();
    await slow;
  });

  it('runs the next task even when the previous one failed, and reports each result to its caller', async () => {
    const sequencer = new KeyedSequencer();
    const failed = sequencer.run('k', async () => {
      throw new Error('nope');
    });
    const next = sequencer.run('k', async () => 42);
    await expect(failed).rejects.toThrow('nope');
    await expect(next).resolves.toBe(42);
  });
});

describe('vault keys', () => {
  it('spells the keys of a workspace under one prefix', () => {
    expect(vaultKeys.workspaceToken('abc')).toBe('workspace/abc/token');
    expect(vaultKeys.webhookSecret('abc')).toBe('workspace/abc/webhook-secret');
    expect(vaultKeys.workspaceToken('abc').startsWith(vaultKeys.workspacePrefix('abc'))).toBe(true);
  });

  it('rejects malformed keys', () => {
    for (const key of ['', '/x', 'x/', 'a//b', 'a b', 'ünï'])
      expect(() => assertVaultKey(key)).toThrow(TypeError);
    expect(() => assertVaultKey('tunnel/ngrok-authtoken')).not.toThrow();
  });
});

describe('InMemoryVault', () => {
  let lines: string[];
  let restoreSink: () => void;
  beforeEach(() => {
    lines = [];
    restoreSink = setLogSink((line) => lines.push(line));
  });
  afterEach(() => restoreSink());

  it('round-trips a secret and announces changes', async () => {
    const vault = new InMemoryVault();
    const changed: string[] = [];
    vault.onChange((key) => changed.push(key));
    await vault.set('workspace/a/token', 'tok-1');
    expect(await vault.get('workspace/a/token')).toBe('tok-1');
    expect(await vault.delete('workspace/a/token')).toBe(true);
    expect(await vault.delete('workspace/a/token')).toBe(false);
    expect(await vault.get('workspace/a/token')).toBeNull();
    expect(changed).toEqual(['workspace/a/token', 'workspace/a/token']);
  });

  it('deletes by prefix only within that segment', async () => {
    const vault = new InMemoryVault();
    await vault.set('workspace/ab/token', 'x1');
    await vault.set('workspace/ab/webhook-secret', 'x2');
    await vault.set('workspace/abc/token', 'x3');
    expect(await vault.deleteAll('workspace/ab/')).toBe(2);
    expect(vault.keys()).toEqual(['workspace/abc/token']);
    await expect(vault.deleteAll('workspace/ab')).rejects.toThrow(TypeError);
  });

  it('refuses empty secrets', async () => {
    await expect(new InMemoryVault().set('workspace/a/token', '')).rejects.toThrow(TypeError);
  });

  it('registers what it stores with log redaction', async () => {
    const vault = new InMemoryVault();
    await vault.set('workspace/a/token', 'memory-vault-secret-7f3a');
    createLogger('test').info('oops memory-vault-secret-7f3a');
    expect(lines.join('\n')).not.toContain('memory-vault-secret-7f3a');
    expect(lines.join('\n')).toContain('oops [redacted]');
  });

  it('plays an unavailable keychain with a user-presentable error', async () => {
    const vault = new InMemoryVault({ unavailable: true });
    const error = await vault.get('workspace/a/token').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(VaultUnavailableError);
    expect((error as Error).message).toMatch(/keychain/);
    await expect(vault.check()).rejects.toBeInstanceOf(VaultUnavailableError);
  });
});
