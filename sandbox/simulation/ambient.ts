/**
 * Unprompted customer activity in demo organizations: now and then a customer texts, taps back on
 * something the team sent, or calls. The first event comes within ~15 s and the first voicemail
 * within ~2 min of simulated time, so a fresh demo shows each kind of event early.
 */
import { completeCall } from '../domain/calls.ts';
import { lineOf, receiveMessage, setCustomerTyping } from '../domain/chats.ts';
import { customerHandles } from '../domain/handles.ts';
import type { Call, Chat, Handle, Org } from '../domain/model.ts';
import { handleName } from '../domain/names.ts';
import { addReaction } from '../domain/reactions.ts';
import type { World } from '../domain/world.ts';
import { STREETS, VOICEMAILS } from '../seed/demo-data.ts';
import { fileUrl, png, storeFile, wav } from '../seed/files.ts';
import { answeringCustomer } from './customers.ts';
import { reactionFor, UNPROMPTED, UNPROMPTED_WITH_PHOTO } from './replies.ts';
import type { Scheduler } from './scheduler.ts';

/** Unprompted customers write in the chats most recently active: where a demo's eyes are. */
const RECENT_CHATS = 15;

interface Candidate {
  chat: Chat;
  handle: Handle;
}

export function startAmbient(world: World, scheduler: Scheduler, isTarget: (org: Org) => boolean): void {
  const random = world.random;
  const pickOrg = (): Org | undefined => {
    const orgs = world.orgs.filter(isTarget);
    return orgs.length > 0 ? random.pick(orgs) : undefined;
  };
  const loop = (delay: number): void => {
    scheduler.after(delay, () => {
      loop(random.int(30_000, 90_000)); // reschedule first, so one failing event does not end the loop
      const org = pickOrg();
      if (!org) return;
      const roll = random.next();
      if (roll < 0.55 || !(roll < 0.85 ? react(world, org) : call(world, org))) text(world, scheduler, org);
    });
  };
  loop(random.int(6_000, 15_000));
  scheduler.after(random.int(60_000, 110_000), () => {
    const org = pickOrg();
    if (org) call(world, org, 'voicemail');
  });
}

function candidates(
  world: World,
  org: Org,
  filter: (chat: Chat, handle: Handle) => boolean = () => true,
): Candidate[] {
  const recent = [...org.chats.values()]
    .sort((a, b) => b.lastActivityAt - a.lastActivityAt)
    .slice(0, RECENT_CHATS);
  return recent.flatMap((chat) =>
    customerHandles(chat)
      .filter((h) => answeringCustomer(world, chat, h.identifier) && filter(chat, h))
      .map((handle) => ({ chat, handle })),
  );
}

/** A customer texts first (typing before it on iMessage/RCS). */
function text(world: World, scheduler: Scheduler, org: Org): void {
  const random = world.random;
  const found = candidates(world, org);
  if (found.length === 0) return;
  const { chat, handle } = random.pick(found);
  const withPhoto = random.chance(0.15);
  const body = random.pick(withPhoto ? UNPROMPTED_WITH_PHOTO : UNPROMPTED);
  const send = (): void => {
    const current = org.chats.get(chat.id);
    if (!current || !answeringCustomer(world, current, handle.identifier)) return;
    const attachments = withPhoto
      ? [
          storeFile(world, world.newUuid(), {
            data: png(320, 240, [176, 190, 204], [214, 201, 182]),
            mimeType: 'image/png',
            filename: `IMG_${random.int(5000, 9999)}.png`,
          }),
        ]
      : [];
    receiveMessage(world, org, current, { from: handle.identifier, text: body, attachments });
  };
  if (chat.service === 'SMS') return send();
  setCustomerTyping(world, org, chat, handle.identifier, true);
  scheduler.after(random.int(3_000, 7_000), send);
}

/** A customer taps back on something the team sent recently. False when there is nothing to react to. */
function react(world: World, org: Org): boolean {
  const random = world.random;
  const found = candidates(world, org, (chat) => chat.service !== 'SMS').flatMap(({ chat, handle }) =>
    chat.messages
      .slice(-5)
      .filter(
        (m) =>
          m.outbound &&
          m.deliveryStatus === 'delivered' &&
          !m.reactions.some((r) => r.handleId === handle.id),
      )
      .map((message) => ({ chat, handle, message })),
  );
  if (found.length === 0) return false;
  const { chat, handle, message } = random.pick(found);
  addReaction(world, org, chat, message, reactionFor(random, message.text), handle.identifier);
  return true;
}

/** A finished call on one of the org's lines: voicemail, answered, or missed. */
function call(world: World, org: Org, kind?: 'voicemail' | 'completed' | 'missed'): boolean {
  const random = world.random;
  const found = candidates(world, org, (_, h) => !h.identifier.includes('@')); // emails cannot call
  if (found.length === 0) return false;
  const { chat, handle } = random.pick(found);
  const line = lineOf(org, chat);
  const status = kind ?? random.pick(['voicemail', 'voicemail', 'completed', 'completed', 'missed'] as const);
  const seconds =
    status === 'completed'
      ? random.int(60, 420)
      : status === 'voicemail'
        ? random.int(25, 60)
        : random.int(12, 25);
  const end = world.clock.now();
  let recording: Call['recording'] = null;
  if (status === 'voicemail') {
    const duration = seconds - random.int(8, 15); // the greeting plays before the message starts
    const voicemail = random.pick(VOICEMAILS);
    const fill = (t: string): string =>
      t
        .replace('{name}', handleName(org, handle.identifier))
        .replace('{addr}', `${random.int(12, 4800)} ${random.pick(STREETS)}`);
    const id = world.newUuid();
    world.files.set(id, { data: wav(duration), mimeType: 'audio/wav', filename: 'voicemail.wav' });
    recording = {
      id,
      url: fileUrl(world, id, 'voicemail.wav'),
      duration,
      transcription: fill(voicemail.transcription),
      summary: fill(voicemail.summary),
    };
  }
  const answeredBy =
    status === 'completed'
      ? ((org.users.find((u) => u.id === line.userId) ?? org.users[0])?.email ?? null)
      : null;
  completeCall(world, org, {
    id: world.newUuid(),
    lineId: line.id,
    to: line.phoneNumber,
    from: handle.identifier,
    status,
    direction: 'inbound',
    startTime: end - seconds * 1000,
    endTime: end,
    forwardedFrom: null,
    answeredBy,
    recording,
  });
  return true;
}
