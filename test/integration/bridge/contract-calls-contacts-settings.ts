/** contract-calls.ts's contact, line, webhook and settings calls. */
import { expect } from 'vitest';
import type { MethodName } from '../../../shared/contract/methods.ts';
import { eventually } from '../core/helpers.ts';
import type { Call, CallState } from './contract-call-kit.ts';

/** Contacts, lines, live events (webhooks) and settings. */
export function contactLineAndSettingsCalls(s: CallState) {
  let createdContactId = 0;
  return {
    // ── contacts
    'contacts.list': async (t) => {
      const { contacts, total } = await t.parley.contacts.list({ limit: 5 });
      expect(contacts).toHaveLength(5);
      expect(total).toBeGreaterThan(5);
    },
    'contacts.create': async (t) => {
      const contact = await t.parley.contacts.create({
        firstName: 'Bridget',
        lastName: 'Bridge',
        phoneNumber: '+14155550177',
      });
      expect(contact).toMatchObject({
        firstName: 'Bridget',
        lastName: 'Bridge',
        phoneNumber: '+14155550177',
      });
      createdContactId = contact.id;
      const found = await t.parley.contacts.list({ query: 'Bridget' });
      expect(found.contacts.map((c) => c.id)).toContain(contact.id);
    },
    'contacts.update': async (t) => {
      // The service wants one identifying field in every update, even when it does not change.
      const contact = await t.parley.contacts.update({
        id: createdContactId,
        fields: { firstName: 'Bridget', company: 'Bridge & Co' },
      });
      expect(contact).toMatchObject({ id: createdContactId, company: 'Bridge & Co' });
    },
    'contacts.chats': async (t) => {
      const chats = await t.parley.contacts.chats({ id: s.f.contactWithChats });
      expect(chats.length).toBeGreaterThan(0);
    },
    'contacts.delete': async (t) => {
      expect(await t.parley.contacts.delete({ id: createdContactId })).toBeNull();
      const found = await t.parley.contacts.list({ query: 'Bridget' });
      expect(found.contacts.map((c) => c.id)).not.toContain(createdContactId);
    },

    // ── lines
    'lines.list': async (t) => {
      const lines = await t.parley.lines.list();
      expect(lines).toHaveLength(3);
      expect(lines.map((line) => line.id)).toContain(s.f.lineId);
    },
    'lines.setForwarding': async (t) => {
      const line = await t.parley.lines.setForwarding({
        lineId: s.f.lineId,
        forwardingNumber: '(408) 555-0123',
      });
      expect(line).toMatchObject({ id: s.f.lineId, forwardingNumber: '+14085550123' });
    },
    'lines.checkImessage': async (t) => {
      const result = await t.parley.lines.checkImessage({ handle: '+1 415 555 0123' });
      expect(result.handle).toBe('+14155550123');
      expect([true, false, null]).toContain(result.available);
    },

    // ── webhooks
    'webhooks.status': async (t) => {
      expect(await t.parley.webhooks.status()).toMatchObject({
        provider: 'direct',
        sync: { phase: 'incremental' },
      });
      // The demo's service posts its webhooks straight to this machine: live once the subscription points here.
      const live = await eventually(async () => {
        const status = await t.parley.webhooks.status();
        return status.state === 'live' ? status : undefined;
      }, 'live events');
      expect(live.subscription?.active).toBe(true);
      expect(live.publicUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    },
    'webhooks.configure': async (t) => {
      await expect(t.parley.webhooks.configure({ enabled: true, provider: 'custom' })).rejects.toMatchObject({
        code: 'invalid_input',
        field: 'customPublicUrl',
      });
      // The change is announced with the whole status: the renderer applies it without asking again.
      const announced: Array<{ state: string; provider: string; reason: string | null }> = [];
      const off = t.parley.on('live.status', (live) => announced.push(live));
      try {
        const status = await t.parley.webhooks.configure({ enabled: false, provider: 'cloudflare' });
        expect(status.provider).toBe('cloudflare');
        await eventually(
          () => announced.some((s) => s.state === 'polling' && s.provider === 'cloudflare'),
          'the live.status event',
        );
        expect(announced.at(-1)).toMatchObject({ state: 'polling', reason: expect.stringMatching(/off/) });
      } finally {
        off();
      }
    },

    // ── settings
    'settings.get': async (t) => {
      const settings = await t.parley.settings.get();
      expect(settings).toEqual(t.core.publicSettings());
      expect(settings.theme).toBe('system');
    },
    'settings.update': async (t) => {
      const updated = await t.parley.settings.update({ theme: 'dark', notifications: { sound: false } });
      expect(updated).toMatchObject({ theme: 'dark', notifications: { enabled: true, sound: false } });
      expect(await t.parley.settings.get()).toEqual(updated);
    },
  } satisfies Partial<Record<MethodName, Call>>;
}
