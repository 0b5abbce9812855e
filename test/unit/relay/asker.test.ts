/**
 * Who asked the relay is the server's word (responder.ts `askerOf`): a request that crossed from an
 * agent's account carries a `_R_.` reply and exactly one `Nats-Request-Info` naming that account.
 * Anything else names nobody, and the relay answers nothing. (How nats-server writes and overwrites
 * the header is proved against a real server in consumers-owned.test.ts.)
 */
import { headers, type Msg } from '@nats-io/transport-node';
import { describe, expect, it } from 'vitest';
import { askerOf } from '../../../electron/core/relay/responder.ts';

function request(reply: string | undefined, ...infos: string[]): Msg {
  const h = headers();
  for (const info of infos) h.append('Nats-Request-Info', info);
  return {
    subject: 'parley.info',
    reply,
    headers: infos.length ? h : undefined,
    data: new Uint8Array(),
  } as Msg;
}

const info = (acc: unknown) => JSON.stringify({ acc, user: 'UABC', name: 'whoever' });

describe('the asker of a request to the relay', () => {
  it("is the agent whose account the server names, whatever the client's own `name` says", () => {
    expect(askerOf(request('_R_.abc.def', info('A_dana-3f9a1c')))).toBe('dana-3f9a1c');
  });

  it('is nobody for a reply that did not go through an import (a request from inside the team’s account)', () => {
    expect(askerOf(request('_INBOX.dana-3f9a1c.x', info('A_dana-3f9a1c')))).toBeUndefined();
    expect(askerOf(request(undefined, info('A_dana-3f9a1c')))).toBeUndefined();
  });

  it('is nobody without exactly one identity header, or with an account that is no agent’s', () => {
    expect(askerOf(request('_R_.a.b'))).toBeUndefined();
    expect(askerOf(request('_R_.a.b', info('A_dana'), info('A_eli')))).toBeUndefined();
    for (const account of ['ORG', 'A_', 'A_dana.eli', 'A_da*', 'B_dana', 42, null])
      expect(askerOf(request('_R_.a.b', info(account))), String(account)).toBeUndefined();
    expect(askerOf(request('_R_.a.b', 'not json'))).toBeUndefined();
  });
});
