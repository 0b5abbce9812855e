/**
 * webhook-events.test.ts's call, contact and participant events, each block registered by the test
 * file in its place in the file's order.
 */
import { describe, expect, it } from 'vitest';
import { WEBHOOK_TIME } from './harness.ts';
import type { Json } from './http-clients.ts';
import {
  envelope,
  expectChatHandles,
  h,
  line,
  sameSecond,
  waitForEvent,
  webhookMs,
} from './webhook-events-world.ts';

/** call.completed, recorded and missed. */
export function callEvents(): void {
  describe('calls', () => {
    it('when a voicemail call completes, then call.completed with the recording data', async () => {
      const caller = await h.newCustomer();
      const call = await h.control.ok('POST', '/inbound/call', {
        from: caller,
        status: 'voicemail',
        duration: 42,
        transcription: 'Hi, the dishwasher is leaking again.',
        summary: 'Dishwasher leak, wants a callback.',
      });
      const data = envelope(
        await waitForEvent('call.completed', (d) => d.id === String(call.id)),
        'call.completed',
      );
      expect(data).toEqual({
        id: String(call.id),
        to: line,
        from: caller,
        status: 'voicemail',
        direction: 'inbound',
        start_time: expect.stringMatching(WEBHOOK_TIME),
        end_time: expect.stringMatching(WEBHOOK_TIME),
        duration: 42,
        call_type: 'normal',
        forwarded_from: null,
        answered_by: null,
        voicemail: true,
        has_recording: true,
        recording_data: {
          id: expect.any(String),
          url: expect.any(String),
          duration: 42,
          transcribed: true,
          transcript_available: true,
          transcription: 'Hi, the dishwasher is leaking again.',
          summary: 'Dishwasher leak, wants a callback.',
        },
      });
      expect(webhookMs(data.end_time) - webhookMs(data.start_time)).toBe(42_000);
    });

    it('when a forwarded call is missed, then call_type forwarded, no recording', async () => {
      const caller = await h.newCustomer();
      const call = await h.control.ok('POST', '/inbound/call', {
        from: caller,
        status: 'missed',
        forwarded_from: '+12125550177',
      });
      const data = envelope(
        await waitForEvent('call.completed', (d) => d.id === String(call.id)),
        'call.completed',
      );
      expect(data).toMatchObject({
        status: 'missed',
        call_type: 'forwarded',
        forwarded_from: '+12125550177',
        voicemail: false,
        has_recording: false,
        recording_data: null,
        duration: 0,
      });
    });
  });
}

/** contact.created, contact.updated and contact.deleted. */
export function contactEvents(): void {
  describe('contacts', () => {
    it('when a contact is created, updated and deleted, then contact.created/updated carry the full Contact and deleted only {id}', async () => {
      const created = await h.a.post('/contacts', {
        json: {
          contact: {
            first_name: 'Webhook',
            last_name: 'Person',
            email: 'webhook.person@example.com',
            company: 'Hooks Ltd',
          },
        },
      });
      const contact = created.body.data;
      const createdData = envelope(
        await waitForEvent('contact.created', (d) => d.id === contact.id),
        'contact.created',
      );
      expect(createdData).toEqual({
        ...contact,
        created_at: expect.stringMatching(WEBHOOK_TIME),
        updated_at: expect.stringMatching(WEBHOOK_TIME),
      });
      expect(Number.isInteger(createdData.id)).toBe(true);
      expect(createdData.contact_owner).toEqual(contact.contact_owner);
      sameSecond(createdData.created_at, contact.created_at);

      const updated = await h.a.patch(`/contacts/${contact.id}`, {
        json: { contact: { last_name: 'Renamed' } },
      });
      const updatedData = envelope(
        await waitForEvent('contact.updated', (d) => d.id === contact.id && d.last_name === 'Renamed'),
        'contact.updated',
      );
      expect(updatedData).toEqual({
        ...updated.body.data,
        created_at: expect.stringMatching(WEBHOOK_TIME),
        updated_at: expect.stringMatching(WEBHOOK_TIME),
      });

      expect((await h.a.delete(`/contacts/${contact.id}`)).status).toBe(204);
      const deleted = envelope(
        await waitForEvent('contact.deleted', (d) => d.id === contact.id),
        'contact.deleted',
      );
      expect(deleted).toEqual({ id: contact.id });
    });
  });
}

/** participant.added and participant.removed in a group chat. */
export function participantEvents(): void {
  describe('participants', () => {
    it('given a group chat, when someone is added then removed, then participant.added and participant.removed', async () => {
      const c1 = await h.newCustomer();
      const c2 = await h.newCustomer();
      const c3 = await h.newCustomer();
      const group = (await h.createChat({ to: [c1, c2], displayName: 'Board' })).body.data;
      const created = envelope(
        await waitForEvent('chat.created', (d) => d.chat_id === String(group.id)),
        'chat.created',
      );
      expect(created).toMatchObject({ is_group: true, is_direct: false, display_name: 'Board' });

      await h.control.ok('POST', `/chats/${group.id}/participants`, { identifier: c3 });
      const added = envelope(
        await waitForEvent('participant.added', (d) => d.chat_id === String(group.id)),
        'participant.added',
      );
      expect(added).toEqual({
        chat_id: String(group.id),
        handle: { id: expect.any(String), identifier: c3, display_name: expect.any(String) },
        chat_handles: expect.any(Array),
      });
      expectChatHandles(added.chat_handles, [c1, c2, c3, line]);
      expect(
        (await h.a.get(`/chats/${group.id}`)).body.data.chat_handles.map((c: Json) => c.phone_number),
      ).toContain(c3);

      await h.control.ok('DELETE', `/chats/${group.id}/participants/${encodeURIComponent(c3)}`);
      const removed = envelope(
        await waitForEvent('participant.removed', (d) => d.chat_id === String(group.id)),
        'participant.removed',
      );
      expect(removed.handle).toEqual({
        id: added.handle.id,
        identifier: c3,
        display_name: expect.any(String),
      });
      expectChatHandles(removed.chat_handles, [c1, c2, line]);
      expect(
        (await h.a.get(`/chats/${group.id}`)).body.data.chat_handles.map((c: Json) => c.phone_number),
      ).not.toContain(c3);
    });
  });
}
