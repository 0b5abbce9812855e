// Which subscriptions are this installation's, where their path comes from, and what the service's
// delivery counters say.
import { describe, expect, it } from 'vitest';
import {
  failedDeliveriesBetween,
  isOwnSubscription,
  webhookPathFor,
} from '../../../../electron/core/realtime/subscriptions.ts';
import { publicWebhookUrl } from '../../../../electron/core/realtime/webhook-url.ts';

describe('webhookPathFor', () => {
  it('is stable for a workspace and secret, unguessable without the secret, and per workspace', () => {
    const path = webhookPathFor('ws_Abc123', 'whsec_one');
    expect(path).toBe(webhookPathFor('ws_Abc123', 'whsec_one'));
    expect(path).toMatch(/^\/hooks\/ws_Abc123\/[A-Za-z0-9_-]{43}$/);
    expect(webhookPathFor('ws_Abc123', 'whsec_two')).not.toBe(path);
    expect(webhookPathFor('ws_Other', 'whsec_one').split('/')[3]).not.toBe(path.split('/')[3]);
  });
});

describe('isOwnSubscription', () => {
  const path = webhookPathFor('ws_Abc123', 'whsec_one');
  const own = (url: string) => isOwnSubscription({ webhook_url: url }, 'ws_Abc123');

  it('recognises ours whatever the host, port or path prefix (tunnels change hosts)', () => {
    expect(own(`http://127.0.0.1:4100${path}`)).toBe(true);
    expect(own(`https://seasonal-deck.trycloudflare.com${path}`)).toBe(true);
    expect(own(`https://hooks.example.com/parley${path}`)).toBe(true);
    // Made before the secret was lost: same workspace id, another last segment.
    expect(own('https://x.ngrok-free.app/hooks/ws_Abc123/oldMarker')).toBe(true);
  });

  it("leaves everyone else's alone", () => {
    expect(own(`http://127.0.0.1:4100${path.replace('ws_Abc123', 'ws_Abc1234')}`)).toBe(false);
    expect(own('https://crm.example.com/webhooks/partner')).toBe(false);
    expect(own(`https://a.example${path}/extra`)).toBe(false);
    expect(own('https://a.example/hooks/ws_Abc123/')).toBe(false);
    expect(own('not a url')).toBe(false);
  });

  it('joins a public base URL and a path without doubling slashes', () => {
    expect(publicWebhookUrl('https://a.example/base/', '/hooks/x/y')).toBe(
      'https://a.example/base/hooks/x/y',
    );
    expect(publicWebhookUrl('http://127.0.0.1:3000', '/hooks/x/y')).toBe('http://127.0.0.1:3000/hooks/x/y');
  });
});

describe('failedDeliveriesBetween', () => {
  const before = { attempts: 10, lastDeliveredAt: '2026-11-21T10:00:00Z' };
  it('counts attempts that delivered nothing', () => {
    expect(failedDeliveriesBetween(before, { ...before, attempts: 14 }, false)).toBe(4);
  });
  it('sees no failure when something was delivered or arrived', () => {
    expect(
      failedDeliveriesBetween(before, { attempts: 14, lastDeliveredAt: '2026-11-21T10:01:00Z' }, false),
    ).toBe(0);
    expect(failedDeliveriesBetween(before, { ...before, attempts: 14 }, true)).toBe(0);
    expect(failedDeliveriesBetween(before, before, false)).toBe(0);
  });
});
