import { afterEach, describe, expect, it } from 'vitest';
import { createClock, type Clock } from '../../../sandbox/clock.ts';
import { createRandom } from '../../../sandbox/random.ts';
import { createOrg, createWorld, DEFAULT_CONFIG, type World } from '../../../sandbox/domain/world.ts';
import type { DomainEvent } from '../../../sandbox/domain/events.ts';
import type { Chat, Org, Persona } from '../../../sandbox/domain/model.ts';
import { createChat, sendMessage } from '../../../sandbox/domain/chats.ts';
import { seedOrg } from '../../../sandbox/seed/index.ts';
import { startSimulation, type Simulation } from '../../../sandbox/simulation/index.ts';

const running: Array<{ sim: Simulation; clock: Clock }> = [];
afterEach(() => {
  for (const { sim, clock } of running.splice(0)) {
    sim.stop();
    clock.clear();
  }
});

function setup(options: { quiet: boolean; seed?: 'demo' | 'empty' }) {
  const clock = createClock();
  const world = createWorld(clock, createRandom(7), DEFAULT_CONFIG);
  const org = createOrg(world, { name: 'Test', token: 'token' });
  seedOrg(world, org, { kind: options.seed ?? 'empty' }, { orgIndex: 0 });
  // The V2 stream (V3 events of the same world are asserted by the V3 contract tests).
  const events: DomainEvent[] = [];
  world.onEvent((event) => {
    if (event.family === 'v2') events.push(event);
  });
  const sim = startSimulation(world, { quiet: options.quiet });
  running.push({ sim, clock });
  return { clock, world, org, events, sim };
}

/** Advances simulated time in small steps, so timers scheduled by timers also run. */
function run(clock: Clock, ms: number): void {
  for (let t = 0; t < ms; t += 250) clock.advance(250);
}

function persona(world: World, identifier: string, fields: Partial<Persona>): void {
  world.personas.set(identifier, {
    identifier,
    firstName: 'Pat',
    lastName: 'Doe',
    imessage: false,
    rcs: false,
    reachable: true,
    autoReply: true,
    ...fields,
  });
}

function chatWith(world: World, org: Org, identifier: string): Chat {
  return createChat(world, org, { line: org.lines[0]!, identifiers: [identifier] });
}

const send = (world: World, org: Org, chat: Chat, text: string) =>
  sendMessage(world, org, chat, { text, attachments: [], idempotencyKey: null }).message;

const forChat = (events: DomainEvent[], chat: Chat) =>
  events.filter((e) => e.data.chat_id === String(chat.id));

describe('simulated customers answer sends', () => {
  it('iMessage: typing indicator, then a reply that relates to the message', () => {
    const { clock, world, org, events } = setup({ quiet: true });
    const chats = Array.from({ length: 6 }, (_, i) => {
      const id = `+1206555010${i}`;
      persona(world, id, { imessage: true });
      return chatWith(world, org, id);
    });
    events.length = 0;
    for (const chat of chats) send(world, org, chat, 'Can we come by tomorrow at 2:30pm?');
    run(clock, 30_000);
    let replies = 0;
    for (const chat of chats) {
      const types = forChat(events, chat).map((e) => e.type);
      expect(types[0]).toBe('message.sent');
      // Everyone answers: a reply or a tapback.
      expect(types.some((t) => t === 'message.received' || t === 'reaction.received')).toBe(true);
      const received = types.indexOf('message.received');
      if (received < 0) continue;
      replies++;
      const typing = types.indexOf('typing_indicator.received');
      expect(typing).toBeGreaterThan(0);
      expect(typing).toBeLessThan(received);
      expect(types.indexOf('typing_indicator.removed')).toBeGreaterThan(typing);
      const reply = chat.messages.at(-1)!;
      expect(reply.outbound).toBe(false);
      expect(reply.text).not.toBe('');
    }
    expect(replies).toBeGreaterThanOrEqual(4);
    const texts = chats.flatMap((c) => c.messages.filter((m) => !m.outbound).map((m) => m.text));
    expect(texts.some((t) => t.includes('2:30pm') || /time/i.test(t))).toBe(true);
  });

  it('replies take human time: nothing within the first second, all within half a minute', () => {
    const { clock, world, org, events } = setup({ quiet: true });
    persona(world, '+12065550111', { imessage: true });
    const chat = chatWith(world, org, '+12065550111');
    events.length = 0;
    send(world, org, chat, 'Thanks!');
    run(clock, 1_000);
    expect(events.map((e) => e.type)).toEqual(['message.sent']);
    run(clock, 29_000);
    expect(events.length).toBeGreaterThan(1);
  });

  it('SMS: a reply with no typing indicator and no read receipt', () => {
    const { clock, world, org, events } = setup({ quiet: true });
    const chats = ['+12065550120', '+12065550121', '+12065550122'].map((id) => {
      persona(world, id, {});
      return chatWith(world, org, id);
    });
    expect(chats.every((c) => c.service === 'SMS')).toBe(true);
    events.length = 0;
    for (const chat of chats) send(world, org, chat, 'Your invoice is ready');
    run(clock, 40_000);
    for (const chat of chats) {
      expect(forChat(events, chat).map((e) => e.type)).toEqual(['message.sent', 'message.received']);
    }
    expect(events.some((e) => e.type.startsWith('typing_indicator') || e.type === 'message.read')).toBe(
      false,
    );
  });

  it('unreachable or non-answering customers stay silent; paused lines reach nobody', () => {
    const { clock, world, org, events } = setup({ quiet: true });
    persona(world, '+12065550130', { imessage: true, reachable: false });
    persona(world, '+12065550131', { imessage: true, autoReply: false });
    persona(world, '+12065550132', { imessage: true });
    const unreachable = chatWith(world, org, '+12065550130');
    const silent = chatWith(world, org, '+12065550131');
    const paused = chatWith(world, org, '+12065550132');
    events.length = 0;
    const lost = send(world, org, unreachable, 'Hello?');
    send(world, org, silent, 'Hello?');
    org.lines[0]!.paused = true;
    send(world, org, paused, 'Hello?');
    run(clock, 60_000);
    expect(events.map((e) => e.type)).toEqual(['message.sent', 'message.sent', 'message.sent']);
    expect(lost.deliveryStatus).toBe('service_unavailable');
  });

  it('a deleted chat gets no reply, and stop() cancels pending answers', () => {
    const { clock, world, org, events, sim } = setup({ quiet: true });
    persona(world, '+12065550140', { imessage: true });
    persona(world, '+12065550141', { imessage: true });
    const deleted = chatWith(world, org, '+12065550140');
    const other = chatWith(world, org, '+12065550141');
    events.length = 0;
    send(world, org, deleted, 'See you soon');
    org.chats.delete(deleted.id);
    send(world, org, other, 'See you soon');
    sim.stop();
    run(clock, 60_000);
    expect(events.map((e) => e.type)).toEqual(['message.sent', 'message.sent']);
    expect(world.observers).toHaveLength(0);
  });

  it('in a group chat one or two members answer', () => {
    const { clock, world, org, events } = setup({ quiet: true });
    const ids = ['+12065550150', '+12065550151', '+12065550152', '+12065550153'];
    for (const id of ids) persona(world, id, { imessage: true });
    const group = createChat(world, org, { line: org.lines[0]!, identifiers: ids });
    events.length = 0;
    send(world, org, group, 'Hi everyone, the crew arrives Monday at 9:00am');
    run(clock, 60_000);
    const answerers = new Set(
      forChat(events, group)
        .filter((e) => e.type === 'message.received' || e.type === 'reaction.received')
        .map((e) =>
          e.type === 'message.received'
            ? e.data.from_phone
            : (e.data.chat_handle as { identifier: string }).identifier,
        ),
    );
    expect(answerers.size).toBeGreaterThanOrEqual(1);
    expect(answerers.size).toBeLessThanOrEqual(2);
  });
});

describe('unprompted activity', () => {
  it('quiet: nothing happens on its own, even over an hour', () => {
    const { clock, events } = setup({ quiet: true, seed: 'demo' });
    run(clock, 60 * 60_000);
    expect(events).toHaveLength(0);
  });

  it('not quiet: a demo org sees activity within 20 s and a voicemail within 2 min', () => {
    const { clock, org, events } = setup({ quiet: false, seed: 'demo' });
    const callsBefore = org.calls.length;
    run(clock, 20_000);
    expect(events.length).toBeGreaterThan(0);
    run(clock, 100_000);
    const voicemail = events.find((e) => e.type === 'call.completed' && e.data.voicemail === true);
    expect(voicemail).toBeDefined();
    expect((voicemail!.data.recording_data as { transcription: string }).transcription).toBeTruthy();
    expect(org.calls.length).toBeGreaterThan(callsBefore);
    run(clock, 15 * 60_000);
    const kinds = new Set(events.map((e) => e.type));
    expect(kinds.has('message.received')).toBe(true);
    expect(events.every((e) => e.org === org)).toBe(true);
  });

  it('not quiet: organizations without the demo seed stay still', () => {
    const { clock, events } = setup({ quiet: false, seed: 'empty' });
    run(clock, 30 * 60_000);
    expect(events).toHaveLength(0);
  });

  it('is reproducible for the same world seed', () => {
    const trace = () => {
      const { clock, events } = setup({ quiet: false, seed: 'demo' });
      run(clock, 10 * 60_000);
      return events.map(
        (e) => `${e.type}:${String(e.data.chat_id ?? e.data.from ?? '')}:${String(e.data.text ?? '')}`,
      );
    };
    const first = trace();
    expect(first.length).toBeGreaterThan(5);
    expect(trace()).toEqual(first);
  });
});
