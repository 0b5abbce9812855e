/** The demo's finishing touches: contacts, generated files, edits and reactions, call history. */
import { customerHandles, meHandle } from '../domain/handles.ts';
import { createContact } from '../domain/contacts.ts';
import type { Attachment, Call, Org, ReactionType, User } from '../domain/model.ts';
import type { World } from '../domain/world.ts';
import type { Random } from '../random.ts';
import { BUSINESS, CITIES, VOICEMAILS } from './demo-data.ts';
import { DAY, HOUR, MIN, type AttachmentKind, type ChatPlan, type Customer, type Fill } from './demo-plan.ts';
import { fileUrl, pdf, png, storeFile, vcard, wav } from './files.ts';
import { demoCustomerPhone } from './numbers.ts';

export function seedContacts(
  world: World,
  org: Org,
  rng: Random,
  users: User[],
  plans: ChatPlan[],
  now: number,
): void {
  const firstSeen = new Map<Customer, number>();
  for (const plan of plans) {
    for (const member of plan.members) {
      const at = plan.turns[0]!.at;
      const seen = firstSeen.get(member);
      if (member.hasContact && (seen === undefined || at < seen)) firstSeen.set(member, at);
    }
  }
  const entries = [...firstSeen].map(([customer, at]) => ({
    customer,
    at: Math.min(at + rng.int(2, 90) * MIN, now - MIN),
    city: rng.pick(CITIES),
    withEmail: rng.chance(0.4),
  }));
  entries.sort((a, b) => a.at - b.at);
  for (const { customer: c, at, city, withEmail } of entries) {
    const isEmail = c.identifier.includes('@');
    createContact(
      world,
      org,
      {
        firstName: c.firstName,
        lastName: c.lastName,
        phoneNumber: isEmail ? '' : c.identifier,
        email: isEmail
          ? c.identifier
          : withEmail
            ? `${c.firstName}.${c.lastName}@example.com`.toLowerCase()
            : '',
        company: c.company,
        title: c.company ? 'Property manager' : '',
        location: city,
      },
      users[c.slot] ?? users[0]!,
      { silent: true, at },
    );
  }
  // People the office knows who never texted: a supplier and a subcontractor.
  createContact(
    world,
    org,
    {
      firstName: 'Rick',
      lastName: 'Tanner',
      company: 'Bay Plumbing Supply',
      title: 'Account rep',
      phoneNumber: demoCustomerPhone(398),
      location: 'Oakland',
    },
    users[0]!,
    { silent: true, at: now - 40 * DAY },
  );
  createContact(
    world,
    org,
    {
      firstName: 'Denise',
      lastName: 'Ochoa',
      company: 'Ochoa Electric',
      title: 'Owner',
      phoneNumber: demoCustomerPhone(397),
      email: 'denise@ochoaelectric.example',
    },
    users[1]!,
    { silent: true, at: now - 33 * DAY },
  );
}

export function fileMaker(
  world: World,
  ids: Random,
): (kind: AttachmentKind, fill: Fill, plan: ChatPlan) => Attachment {
  let photos = 0;
  let quotes = 0;
  const palette: Array<[number, number, number]> = [
    [188, 203, 214],
    [214, 196, 170],
    [120, 140, 160],
    [200, 210, 190],
    [230, 220, 205],
  ];
  return (kind, fill) => {
    const id = ids.uuid();
    if (kind === 'photo') {
      photos++;
      const data = png(320, 240, palette[photos % palette.length]!, palette[(photos + 2) % palette.length]!);
      return storeFile(world, id, { data, mimeType: 'image/png', filename: `IMG_${4100 + photos * 7}.png` });
    }
    if (kind === 'vcard') {
      const data = vcard({
        firstName: fill.tech!,
        lastName: fill.techLast!,
        phone: demoCustomerPhone(396),
        org: BUSINESS,
        title: 'Service technician',
      });
      return storeFile(world, id, {
        data,
        mimeType: 'text/vcard',
        filename: `${fill.tech} ${fill.techLast}.vcf`,
      });
    }
    if (kind === 'quote') {
      quotes++;
      const number = `Q-${1040 + quotes}`;
      const data = pdf([
        BUSINESS,
        `Quote ${number}`,
        `Prepared for ${fill.first} ${fill.last}`,
        '',
        `${capitalize(fill.appliance!)} replacement, parts and labor: ${fill.price}`,
        'Haul-away and disposal: included',
        'Permit (if required): included',
        '',
        'Valid for 30 days. Reply to this text to approve.',
      ]);
      return storeFile(world, id, {
        data,
        mimeType: 'application/pdf',
        filename: `Harborview Quote ${number}.pdf`,
      });
    }
    const data = pdf([
      BUSINESS,
      `Invoice ${fill.inv}`,
      `Billed to ${fill.first} ${fill.last}`,
      '',
      `Service call and repair: ${fill.price2}`,
      '',
      'Paid online or by phone. Thank you for your business!',
    ]);
    return storeFile(world, id, { data, mimeType: 'application/pdf', filename: `${fill.inv}.pdf` });
  };
}

/** Edits and reactions, as a team and its customers leave them on iMessage and RCS. */
export function decorate(world: World, rng: Random, plans: ChatPlan[], now: number): void {
  let edits = 0;
  for (const plan of plans) {
    const chat = plan.chat!;
    if (chat.service === 'SMS') continue; // SMS has neither edits nor tapbacks
    const me = meHandle(chat);
    const customers = customerHandles(chat);
    for (const message of chat.messages) {
      if (message.outbound && edits < 5 && /\d:\d\d(am|pm)/.test(message.text) && rng.chance(0.3)) {
        message.editedAt = Math.min(message.sentAt + rng.int(40, 150) * 1000, now - 1000);
        edits++;
      }
      let type: ReactionType | null = null;
      let fromMe = false;
      if (
        message.outbound &&
        /all set|booked|see you|on the calendar|arrived early|receipt/i.test(message.text) &&
        rng.chance(0.5)
      ) {
        type = rng.pick(['love', 'like', 'like', 'emphasize'] as const);
      } else if (!message.outbound && /lol|😂/.test(message.text)) {
        type = 'laugh';
        fromMe = true;
      } else if (!message.outbound && /thank|worked|found it/i.test(message.text) && rng.chance(0.35)) {
        type = rng.pick(['love', 'like'] as const);
        fromMe = true;
      }
      if (!type) continue;
      const handle = fromMe ? me : rng.pick(customers);
      const at = Math.min(message.sentAt + rng.int(20, 600) * 1000, now - 5000);
      message.reactions.push({
        id: world.nextId('reaction'),
        messageId: message.id,
        type,
        customEmoji: null,
        partIndex: 0,
        isFromMe: fromMe,
        fromPhone: handle.identifier,
        handleId: handle.id,
        sentAt: at,
        createdAt: at,
        updatedAt: at,
      });
    }
  }
}

/** Call history on the dispatch line, ending with a voicemail left shortly before an unread text. */
export function seedCalls(world: World, org: Org, ids: Random, plans: ChatPlan[], now: number): void {
  const dispatch = plans.filter(
    (p) => p.slot === 0 && p.members.length === 1 && !p.members[0]!.identifier.includes('@'),
  );
  const caller = dispatch.find((p) => p.unread) ?? dispatch[0]!;
  const customer = caller.members[0]!;
  const line = caller.line;
  const others = dispatch.filter((p) => p !== caller).map((p) => p.members[0]!);
  const name = `${customer.firstName} ${customer.lastName}`;
  const voicemail = VOICEMAILS[0]!;
  const fill = (text: string): string =>
    text.replace('{name}', name).replace('{addr}', caller.turns[0]!.fill.addr!);
  const vmEnd = Math.min(caller.turns.at(-1)!.at - 2 * MIN, now - 20 * MIN);
  const recordingId = ids.uuid();
  world.files.set(recordingId, { data: wav(27), mimeType: 'audio/wav', filename: 'voicemail.wav' });
  const calls: Call[] = [
    {
      id: ids.uuid(),
      lineId: line.id,
      to: line.phoneNumber,
      from: others[0]!.identifier,
      status: 'missed',
      direction: 'inbound',
      startTime: now - 3 * DAY,
      endTime: now - 3 * DAY + 21_000,
      forwardedFrom: null,
      answeredBy: null,
      recording: null,
    },
    {
      id: ids.uuid(),
      lineId: line.id,
      to: others[1]!.identifier,
      from: line.phoneNumber,
      status: 'completed',
      direction: 'outbound',
      startTime: now - 2 * DAY,
      endTime: now - 2 * DAY + 184_000,
      forwardedFrom: null,
      answeredBy: others[1]!.identifier,
      recording: null,
    },
    {
      id: ids.uuid(),
      lineId: line.id,
      to: line.phoneNumber,
      from: others[2]!.identifier,
      status: 'completed',
      direction: 'inbound',
      startTime: now - 26 * HOUR,
      endTime: now - 26 * HOUR + 312_000,
      forwardedFrom: null,
      answeredBy: org.users[0]!.email,
      recording: null,
    },
    {
      id: ids.uuid(),
      lineId: line.id,
      to: line.phoneNumber,
      from: customer.identifier,
      status: 'voicemail',
      direction: 'inbound',
      startTime: vmEnd - 52_000,
      endTime: vmEnd,
      forwardedFrom: null,
      answeredBy: null,
      recording: {
        id: recordingId,
        url: fileUrl(world, recordingId, 'voicemail.wav'),
        duration: 27,
        transcription: fill(voicemail.transcription),
        summary: fill(voicemail.summary),
      },
    },
  ];
  org.calls.push(...calls);
}

const capitalize = (text: string): string => text.charAt(0).toUpperCase() + text.slice(1);
