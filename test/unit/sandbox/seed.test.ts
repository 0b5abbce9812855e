import { describe, expect, it } from 'vitest';
import { createClock } from '../../../sandbox/clock.ts';
import { createRandom } from '../../../sandbox/random.ts';
import { createOrg, createWorld, DEFAULT_CONFIG, type World } from '../../../sandbox/domain/world.ts';
import type { Org } from '../../../sandbox/domain/model.ts';
import { customerHandles } from '../../../sandbox/domain/handles.ts';
import { contactFor } from '../../../sandbox/domain/names.ts';
import { isDemoOrg, parseSeed, seedOrg, type SeedSpec } from '../../../sandbox/seed/index.ts';

function seeded(spec: SeedSpec, worldSeed: number | string = 1): { world: World; org: Org; events: number } {
  const world = createWorld(createClock(), createRandom(worldSeed), DEFAULT_CONFIG);
  world.baseUrl = 'http://127.0.0.1:4555';
  let events = 0;
  world.onEvent(() => events++);
  const org = createOrg(world, { name: 'Test', token: `t-${worldSeed}` });
  seedOrg(world, org, spec, { orgIndex: 0 });
  return { world, org, events };
}

describe('parseSeed', () => {
  it('accepts demo, empty and bulk:CxM', () => {
    expect(parseSeed('demo')).toEqual({ kind: 'demo' });
    expect(parseSeed(' EMPTY ')).toEqual({ kind: 'empty' });
    expect(parseSeed('bulk:5000x50')).toEqual({ kind: 'bulk', chats: 5000, messagesPerChat: 50 });
  });

  it('rejects anything else with a message naming the forms', () => {
    for (const bad of [
      '',
      'demo2',
      'bulk',
      'bulk:10',
      'bulk:0x5',
      'bulk:10x0',
      'bulk:-1x5',
      'bulk:99999999x1',
    ]) {
      expect(() => parseSeed(bad), bad).toThrow(/seed/);
    }
    expect(() => parseSeed('nope')).toThrow(/demo, empty or bulk:/);
  });
});

describe('demo seed', () => {
  const { world, org, events } = seeded({ kind: 'demo' });
  const chats = [...org.chats.values()];
  const messages = chats.flatMap((c) => c.messages);
  const now = world.clock.now();

  it('is silent and marks the organization as a demo', () => {
    expect(events).toBe(0);
    expect(isDemoOrg(org)).toBe(true);
  });

  it('has an admin first and three lines with distinct numbers', () => {
    expect(org.users.length).toBeGreaterThanOrEqual(2);
    expect(org.users[0]!.admin).toBe(true);
    expect(org.lines).toHaveLength(3);
    expect(new Set(org.lines.map((l) => l.phoneNumber)).size).toBe(3);
    for (const line of org.lines) {
      expect(line.phoneNumber).toMatch(/^\+1\d{3}55501\d\d$/);
      expect(line.dailyChatQuota).toBe(DEFAULT_CONFIG.dailyNewChatQuota);
      expect(chats.some((c) => c.lineId === line.id)).toBe(true);
    }
  });

  it('has about sixty chats over all three services, with named and unnamed groups', () => {
    expect(chats.length).toBeGreaterThanOrEqual(55);
    expect(chats.length).toBeLessThanOrEqual(65);
    for (const service of ['iMessage', 'SMS', 'RCS'] as const) {
      expect(chats.filter((c) => c.service === service).length).toBeGreaterThanOrEqual(5);
    }
    const groups = chats.filter((c) => c.group);
    expect(groups.length).toBeGreaterThanOrEqual(5);
    expect(groups.every((g) => customerHandles(g).length >= 2)).toBe(true);
    expect(groups.some((g) => g.displayName)).toBe(true);
    expect(groups.some((g) => !g.displayName)).toBe(true);
    for (const chat of chats) {
      expect(chat.messages.length).toBeGreaterThanOrEqual(5);
      expect(chat.messages.length).toBeLessThanOrEqual(60);
    }
  });

  it('gives every customer a persona that fits the chat service, and some email handles on iMessage', () => {
    for (const chat of chats) {
      for (const handle of customerHandles(chat)) {
        const persona = world.personas.get(handle.identifier);
        expect(persona, handle.identifier).toBeDefined();
        expect(persona!.firstName).not.toBe('');
        if (chat.service === 'iMessage') expect(persona!.imessage).toBe(true);
        if (chat.service === 'RCS') expect([persona!.imessage, persona!.rcs]).toEqual([false, true]);
        if (chat.service === 'SMS') expect([persona!.imessage, persona!.rcs]).toEqual([false, false]);
        if (handle.identifier.includes('@')) expect(chat.service).toBe('iMessage');
      }
    }
    const emails = chats.flatMap(customerHandles).filter((h) => h.identifier.includes('@'));
    expect(emails.length).toBeGreaterThanOrEqual(1);
    expect([...world.personas.values()].every((p) => p.reachable)).toBe(true);
    expect([...world.personas.values()].filter((p) => !p.autoReply)).toHaveLength(1);
  });

  it('has contacts for most customers, but not all', () => {
    const identifiers = [...new Set(chats.flatMap(customerHandles).map((h) => h.identifier))];
    const known = identifiers.filter((id) => contactFor(org, id));
    expect(known.length / identifiers.length).toBeGreaterThan(0.6);
    expect(known.length).toBeLessThan(identifiers.length);
  });

  it('has weeks of ordered history ending minutes ago, mostly read, with about ten unread chats', () => {
    const oldest = Math.min(...messages.map((m) => m.sentAt));
    const newest = Math.max(...messages.map((m) => m.sentAt));
    expect(now - oldest).toBeGreaterThan(21 * 86_400_000);
    expect(now - oldest).toBeLessThan(50 * 86_400_000);
    expect(now - newest).toBeLessThan(2 * 3_600_000);
    expect(newest).toBeLessThan(now);
    for (const chat of chats) {
      for (let i = 1; i < chat.messages.length; i++) {
        const [a, b] = [chat.messages[i - 1]!, chat.messages[i]!];
        expect(a.sentAt < b.sentAt || (a.sentAt === b.sentAt && a.id < b.id)).toBe(true);
      }
      expect(chat.lastActivityAt).toBe(chat.messages.at(-1)!.sentAt);
      expect(org.messageIndex.get(chat.messages[0]!.id)).toBe(chat.id);
    }
    const unread = chats.filter((c) => c.messages.some((m) => !m.outbound && !m.isRead));
    expect(unread.length).toBeGreaterThanOrEqual(8);
    expect(unread.length).toBeLessThanOrEqual(12);
    for (const chat of unread) expect(chat.messages.at(-1)!.outbound).toBe(false);
    expect(messages.filter((m) => !m.outbound && !m.isRead).length).toBeLessThan(messages.length / 10);
    const line = new Map(org.lines.map((l) => [l.id, l.phoneNumber]));
    for (const m of messages.filter((x) => x.outbound)) {
      expect(m.deliveryStatus).toBe('delivered');
      expect(m.sentFrom).toBe(line.get(org.chats.get(m.chatId)!.lineId));
      expect(m.deliveredAt).not.toBeNull();
    }
    expect(
      chats
        .filter((c) => c.service === 'SMS')
        .flatMap((c) => c.messages)
        .filter((m) => m.outbound && m.isRead),
    ).toHaveLength(0);
  });

  it('has attachments backed by real files, reactions and edits', () => {
    const attachments = messages.flatMap((m) => m.attachments);
    expect(attachments.length).toBeGreaterThanOrEqual(5);
    const types = new Set(attachments.map((a) => a.mimeType));
    expect(types).toEqual(new Set(['image/png', 'application/pdf', 'text/vcard']));
    for (const a of attachments) {
      const file = world.files.get(a.id);
      expect(file, a.filename).toBeDefined();
      expect(file!.data.length).toBe(a.fileSize);
      expect(a.url).toBe(`http://127.0.0.1:4555/files/${a.id}/${encodeURIComponent(a.filename)}`);
    }
    const png = world.files.get(attachments.find((a) => a.mimeType === 'image/png')!.id)!.data;
    expect(png.subarray(1, 4).toString('latin1')).toBe('PNG');
    const pdf = world.files
      .get(attachments.find((a) => a.mimeType === 'application/pdf')!.id)!
      .data.toString('latin1');
    expect(pdf.startsWith('%PDF-1.4')).toBe(true);
    expect(pdf.trimEnd().endsWith('%%EOF')).toBe(true);
    const reactions = messages.flatMap((m) => m.reactions);
    expect(reactions.length).toBeGreaterThanOrEqual(5);
    expect(reactions.some((r) => r.isFromMe)).toBe(true);
    expect(reactions.some((r) => !r.isFromMe)).toBe(true);
    expect(messages.filter((m) => m.editedAt !== null).length).toBeGreaterThanOrEqual(2);
    for (const m of messages.filter((x) => x.editedAt !== null)) expect(m.outbound).toBe(true);
  });

  it('has a voicemail with a recording, transcript and summary', () => {
    const voicemail = org.calls.find((c) => c.status === 'voicemail');
    expect(voicemail).toBeDefined();
    expect(voicemail!.direction).toBe('inbound');
    expect(voicemail!.recording?.transcription).toMatch(/\w+ \w+/);
    expect(voicemail!.recording?.summary).toBeTruthy();
    expect(world.files.get(voicemail!.recording!.id)?.mimeType).toBe('audio/wav');
    expect(org.lines.map((l) => l.phoneNumber)).toContain(voicemail!.to);
  });

  it('is identical for the same seed, whatever the world PRNG', () => {
    const structure = (org: Org) => {
      const chats = [...org.chats.values()];
      const base = Math.max(...chats.map((c) => c.lastActivityAt));
      return {
        lines: org.lines.map((l) => [l.id, l.phoneNumber]),
        contacts: [...org.contacts.values()].map((c) => [
          c.id,
          c.firstName,
          c.lastName,
          c.phoneNumber,
          c.email,
        ]),
        chats: chats.map((c) => ({
          id: c.id,
          service: c.service,
          name: c.displayName,
          handles: c.handles.map((h) => [h.id, h.identifier]),
          messages: c.messages.map((m) => [
            m.id,
            m.text,
            m.outbound,
            m.isRead,
            m.sentAt - base,
            m.attachments.map((a) => a.id + a.filename),
            m.reactions.map((r) => r.type),
          ]),
        })),
        calls: org.calls.map((c) => [c.id, c.status, c.from, c.recording?.transcription]),
      };
    };
    const again = seeded({ kind: 'demo' }, 'another world seed');
    expect(structure(again.org)).toEqual(structure(org));
  });

  it('gives a second demo organization other lines and other file ids', () => {
    const w = createWorld(createClock(), createRandom(3), DEFAULT_CONFIG);
    const a = createOrg(w, { name: 'A', token: 'a' });
    const b = createOrg(w, { name: 'B', token: 'b' });
    seedOrg(w, a, { kind: 'demo' }, { orgIndex: 0 });
    const filesAfterA = w.files.size;
    seedOrg(w, b, { kind: 'demo' }, { orgIndex: 1 });
    expect(w.files.size).toBe(filesAfterA * 2);
    const numbers = [...a.lines, ...b.lines].map((l) => l.phoneNumber);
    expect(new Set(numbers).size).toBe(6);
    const emailsOfA = new Set(a.users.map((u) => u.email));
    expect(b.users.filter((u) => emailsOfA.has(u.email))).toEqual([]);
  });
});

describe('empty and bulk seeds', () => {
  it('empty: users and one line, nothing else', () => {
    const { org, events } = seeded({ kind: 'empty' });
    expect(events).toBe(0);
    expect(org.users[0]!.admin).toBe(true);
    expect(org.users.every((u) => u.email.endsWith('@org1.example'))).toBe(true);
    expect(org.lines).toHaveLength(1);
    expect(org.chats.size + org.contacts.size + org.calls.length).toBe(0);
    expect(isDemoOrg(org)).toBe(false);
  });

  it('lines of organizations in one world never collide', () => {
    const world = createWorld(createClock(), createRandom(1), DEFAULT_CONFIG);
    const numbers: string[] = [];
    for (let i = 0; i < 40; i++) {
      const org = createOrg(world, { name: `o${i}`, token: `t${i}` });
      seedOrg(world, org, { kind: i % 13 === 0 ? 'demo' : 'empty' }, { orgIndex: i });
      numbers.push(...org.lines.map((l) => l.phoneNumber));
    }
    expect(new Set(numbers).size).toBe(numbers.length);
  });

  it('bulk:200x10 gives 2000 ordered, alternating messages', () => {
    const { world, org } = seeded(parseSeed('bulk:200x10'));
    const chats = [...org.chats.values()];
    expect(chats).toHaveLength(200);
    expect(org.lines).toHaveLength(1);
    expect(chats.reduce((n, c) => n + c.messages.length, 0)).toBe(2000);
    expect(new Set(chats.map((c) => c.service))).toEqual(new Set(['iMessage', 'SMS', 'RCS']));
    expect(new Set(chats.map((c) => customerHandles(c)[0]!.identifier)).size).toBe(200);
    for (const chat of chats) {
      expect(chat.group).toBe(false);
      chat.messages.forEach((m, i) => {
        if (i > 0) expect(m.outbound).toBe(!chat.messages[i - 1]!.outbound);
        if (i > 0) expect(m.sentAt).toBeGreaterThan(chat.messages[i - 1]!.sentAt);
        expect(m.sentAt).toBeLessThan(world.clock.now());
      });
    }
    expect(org.contacts.size).toBe(200);
    const unread = chats.filter((c) => c.messages.some((m) => !m.outbound && !m.isRead));
    expect(unread).toHaveLength(20);
    for (const chat of unread) expect(chat.messages.at(-1)!.isRead).toBe(false);
  });

  it('bulk:5000x50 seeds 250k messages within a few seconds', () => {
    const started = performance.now();
    const { org } = seeded(parseSeed('bulk:5000x50'));
    const elapsed = performance.now() - started;
    expect(org.messageIndex.size).toBe(250_000);
    expect(org.contacts.size).toBe(500);
    expect(elapsed).toBeLessThan(8_000);
  });
});
