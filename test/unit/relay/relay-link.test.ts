/**
 * A desktop told "credentials refused" never tries again (it needs a new join code), so only a real
 * refusal may be called one: nats-server's "Authentication Timeout" (a desktop too busy to finish the
 * handshake in time) reaches nats.js as the same AuthorizationError, and is worth trying again.
 * The errors are built as nats.js builds them from the server's -ERR lines.
 */
import { errors } from '@nats-io/transport-node';
import { describe, expect, it } from 'vitest';
import { connectToRelay, PlaintextRelayRefused } from '../../../electron/core/relay/connect.ts';
import { isRefusal, relayConnectionError } from '../../../electron/core/relay/relay-link.ts';

const fromServer = (line: string) => errors.AuthorizationError.parse(line) as Error;

describe("telling the relay's refusal from a slow handshake", () => {
  it('given an authorization violation, calls it a refusal that a new join code must cure', () => {
    const error = fromServer("'Authorization Violation'");
    expect(isRefusal(error)).toBe(true);
    expect(relayConnectionError(error, 'nats://relay.example:4222')).toMatchObject({ refused: true });
  });

  it('given expired credentials, calls it a refusal too', () => {
    expect(isRefusal(fromServer("'Account Authentication Expired'"))).toBe(true);
  });

  it('given an authentication timeout, says the relay could not be reached, to be tried again', () => {
    const error = fromServer("'Authentication Timeout'");
    expect(error).toBeInstanceOf(errors.AuthorizationError);
    expect(isRefusal(error)).toBe(false);
    expect(relayConnectionError(error, 'nats://relay.example:4222')).toMatchObject({ refused: false });
  });

  it('given a network failure or something that is not an error, is no refusal', () => {
    expect(isRefusal(new Error('connect ECONNREFUSED 127.0.0.1:4222'))).toBe(false);
    expect(isRefusal('authorization violation')).toBe(false);
  });
});

describe('a join code for a relay on another machine without TLS', () => {
  const code = (url: string) => ({
    url,
    agentId: 'dana-1a2b3c',
    seed: 'SUAKYRHVIOREXV7EUZTBHUHL7NUMHPMAS7QMDU3GTVUUZGHKMJE2FGVFLI',
  });

  it('is refused before anything is sent, in words, as a refusal a new code must cure', async () => {
    const refused = connectToRelay(code('nats://192.0.2.10:4222'), { reconnect: false });
    await expect(refused).rejects.toBeInstanceOf(PlaintextRelayRefused);
    const error = await refused.catch((e: unknown) => e);
    expect(relayConnectionError(error, 'nats://192.0.2.10:4222')).toMatchObject({
      refused: true,
      message: expect.stringMatching(/over TLS only/),
    });
  });

  it('is refused however the address is written, and taken on IPv6 loopback too', async () => {
    await expect(
      connectToRelay(code('nats://relay.example.com:4222'), { reconnect: false }),
    ).rejects.toBeInstanceOf(PlaintextRelayRefused);
    await expect(connectToRelay(code('nats://[::1]:1'), { reconnect: false })).rejects.not.toBeInstanceOf(
      PlaintextRelayRefused,
    );
  });

  it('is taken for a relay on this machine (loopback), where nothing crosses the network', async () => {
    // Nothing listens there: the attempt fails as unreachable, not as refused for plaintext
    const attempt = connectToRelay(code('nats://127.0.0.1:1'), { reconnect: false });
    await expect(attempt).rejects.not.toBeInstanceOf(PlaintextRelayRefused);
  });
});
