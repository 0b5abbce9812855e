/**
 * A desktop told "credentials refused" never tries again (it needs a new join code), so only a real
 * refusal may be called one: nats-server's "Authentication Timeout" (a desktop too busy to finish the
 * handshake in time) reaches nats.js as the same AuthorizationError, and is worth trying again.
 * The errors are built as nats.js builds them from the server's -ERR lines.
 */
import { errors } from '@nats-io/transport-node';
import { describe, expect, it } from 'vitest';
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
