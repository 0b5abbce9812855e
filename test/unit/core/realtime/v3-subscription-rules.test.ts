// Which V3 subscriptions are this installation's, and why V2 and V3 paths never meet.
import { describe, expect, it } from 'vitest';
import { isOwnSubscription, webhookPathFor } from '../../../../electron/core/realtime/subscriptions.ts';
import {
  isOwnV3Subscription,
  v3WebhookPathFor,
} from '../../../../electron/core/realtime/v3-subscriptions.ts';

describe('v3WebhookPathFor', () => {
  it('is stable per workspace and path key, unguessable without the key, and apart from the V2 path', () => {
    const path = v3WebhookPathFor('ws_Abc123', 'local-key');
    expect(path).toBe(v3WebhookPathFor('ws_Abc123', 'local-key'));
    expect(path).toMatch(/^\/hooks\/ws_Abc123\/v3\/[A-Za-z0-9_-]{43}$/);
    expect(v3WebhookPathFor('ws_Abc123', 'other-key')).not.toBe(path);
    expect(path).not.toBe(webhookPathFor('ws_Abc123', 'local-key'));
  });
});

describe('isOwnV3Subscription', () => {
  const path = v3WebhookPathFor('ws_Abc123', 'local-key');
  const own = (url: string) => isOwnV3Subscription({ target_url: url }, 'ws_Abc123');

  it('recognises ours whatever the host, port or prefix', () => {
    expect(own(`http://127.0.0.1:4100${path}`)).toBe(true);
    expect(own(`https://hooks.example.com/parley${path}`)).toBe(true);
    expect(own('https://x.ngrok-free.app/hooks/ws_Abc123/v3/oldMarker')).toBe(true);
  });

  it("leaves others' alone, and never takes a V2 path for a V3 one or the other way round", () => {
    expect(own(`http://127.0.0.1:4100${path.replace('ws_Abc123', 'ws_Other')}`)).toBe(false);
    expect(own(`http://127.0.0.1:4100${webhookPathFor('ws_Abc123', 'local-key')}`)).toBe(false);
    expect(isOwnSubscription({ webhook_url: `http://127.0.0.1:4100${path}` }, 'ws_Abc123')).toBe(false);
    expect(own('https://a.example/hooks/ws_Abc123/v3/')).toBe(false);
    expect(own('not a url')).toBe(false);
  });
});
