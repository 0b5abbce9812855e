/**
 * The demo seed: a believable small business with weeks of history. Everything comes from PRNGs
 * with fixed seeds, so the same world gets the same ids, texts and order on every run; only the
 * timestamps move with the clock (they are offsets from "now", so the newest activity is recent).
 */
import { createChat, customerHandles, meHandle, receiveMessage } from '../domain/chats.ts';
import { createContact } from '../domain/contacts.ts';
import type { Attachment, Call, Chat, Line, Org, ReactionType, Service, User } from '../domain/model.ts';
import type { World } from '../domain/world.ts';
import { createRandom, type Random } from '../random.ts';
import { addLine, addUsers, pastOutbound } from './basics.ts';
import {
  APPLIANCES, BUSINESS, CITIES, DAYS, DEMO_DOMAIN, DEMO_GROUPS, DEMO_USERS, DIRECT_CHATS, DIRECT_TEMPLATES,
  FIRST_NAMES, GROUP_TEMPLATES, LAST_NAMES, LINE_KINDS, PRICES, SMALL_PRICES, STREETS, TECHS, TIMES, VOICEMAILS,
  WINDOWS, type LineKind,
} from './demo-data.ts';
import { fileUrl, pdf, png, storeFile, vcard, wav } from './files.ts';
import { demoCustomerPhone } from './numbers.ts';

const MIN = 60_000;
const HOUR = 60 * MIN;
const DAY = 24 * HOUR;
/** Oldest seeded activity: six weeks. */
const MAX_HISTORY = 42 * DAY;
const UNREAD_CHATS = 10;
/** Customer indexes after which the next iMessage customer uses an email handle. */
const EMAIL_AFTER = [6, 21];

interface Customer {
  identifier: string;
  firstName: string;
  lastName: string;
  service: Service;
  hasContact: boolean;
  company: string;
  slot: number;
}

type Fill = Record<string, string>;
type AttachmentKind = 'photo' | 'quote' | 'invoice' | 'vcard';

interface Turn {
  from: Customer | null; // null: the organization
  text: string;
  attachment: AttachmentKind | null;
  fill: Fill;
  at: number;
}

interface ChatPlan {
  line: Line;
  slot: number;
  service: Service;
  members: Customer[];
  displayName: string | null;
  turns: Turn[];
  unread: boolean;
  chat?: Chat;
}

/** Organizations seeded with the demo; the simulation gives only these unprompted activity. */
const demoOrgs = new WeakSet<Org>();
export const isDemoOrg = (org: Org): boolean => demoOrgs.has(org);

export function seedDemo(world: World, org: Org, orgIndex: number): void {
  const rng = createRandom('parley-demo');
  // File and call ids must differ between demo organizations of one world, so they get their own PRNG.
  const ids = createRandom(`parley-demo-ids:${orgIndex}`);
  const now = world.clock.now();
  const domain = orgIndex === 0 ? DEMO_DOMAIN : DEMO_DOMAIN.replace('.', `${orgIndex + 1}.`);
  const users = addUsers(world, org, domain, DEMO_USERS);
  const lines = LINE_KINDS.map((_, slot) =>
    addLine(world, org, {
      orgIndex,
      slot,
      userId: users[slot]!.id,
      responseRate: [7, 5, 9][slot]!,
      forwardingNumber: slot === 0 ? demoCustomerPhone(399) : null,
    }),
  );

  const plans = planChats(rng, lines);
  scheduleTurns(rng, plans, now);
  const customers = [...new Set(plans.flatMap((p) => p.members))];
  // One customer never answers, so a demo shows a chat that stays quiet.
  const silent = customers.find((x) => x.service === 'RCS');
  for (const c of customers) {
    world.personas.set(c.identifier, {
      identifier: c.identifier,
      firstName: c.firstName,
      lastName: c.lastName,
      imessage: c.service === 'iMessage',
      rcs: c.service === 'RCS',
      reachable: true,
      autoReply: c !== silent,
    });
  }
  seedContacts(world, org, rng, users, plans, now);

  // Chats and messages are created in time order, so ids grow with time as on the real service.
  plans.sort((a, b) => a.turns[0]!.at - b.turns[0]!.at);
  for (const plan of plans) {
    plan.chat = createChat(world, org, {
      line: plan.line,
      identifiers: plan.members.map((m) => m.identifier),
      displayName: plan.displayName,
      service: plan.service,
      at: plan.turns[0]!.at - MIN,
      silent: true,
    });
  }
  const all = plans.flatMap((plan) => plan.turns.map((turn, index) => ({ plan, turn, index })));
  all.sort((a, b) => a.turn.at - b.turn.at);
  const files = fileMaker(world, ids);
  for (const { plan, turn, index } of all) {
    const chat = plan.chat!;
    const attachments = turn.attachment ? [files(turn.attachment, turn.fill, plan)] : [];
    const answeredAt = plan.turns.slice(index + 1).find((t) => (t.from === null) !== (turn.from === null))?.at;
    const laterRead = (): number | null => {
      const at = turn.at + rng.int(1, 25) * MIN;
      return at < now - MIN ? at : null;
    };
    if (turn.from) {
      const message = receiveMessage(world, org, chat, { from: turn.from.identifier, text: turn.text, attachments, at: turn.at, silent: true });
      const unread = plan.unread && answeredAt === undefined;
      message.isRead = !unread;
      message.readAt = unread ? null : (answeredAt ?? laterRead() ?? now - MIN);
    } else {
      const readAt = plan.service === 'SMS' ? null : (answeredAt ?? laterRead());
      pastOutbound(world, org, chat, { text: turn.text, at: turn.at, attachments, readAt, line: plan.line });
    }
  }
  decorate(world, rng, plans, now);
  seedCalls(world, org, ids, plans, now);
  demoOrgs.add(org);
}

function planChats(rng: Random, lines: Line[]): ChatPlan[] {
  const usedNames = new Set<string>();
  let phoneIndex = 0;
  let emails = 0;
  const newCustomer = (service: Service, slot: number, lastName?: string): Customer => {
    let first: string, last: string;
    do {
      first = rng.pick(FIRST_NAMES);
      last = lastName ?? rng.pick(LAST_NAMES);
    } while (usedNames.has(`${first} ${last}`));
    usedNames.add(`${first} ${last}`);
    // Two iMessage customers text from their Apple ID email instead of a number.
    const email = service === 'iMessage' && emails < EMAIL_AFTER.length && phoneIndex >= EMAIL_AFTER[emails]!;
    if (email) emails++;
    const identifier = email ? `${first}.${last}@example.com`.toLowerCase() : demoCustomerPhone(phoneIndex);
    phoneIndex++;
    return { identifier, firstName: first, lastName: last, service, hasContact: rng.chance(0.8), company: '', slot };
  };
  const services: Service[] = ['iMessage', 'SMS', 'iMessage', 'RCS', 'iMessage', 'SMS', 'iMessage', 'RCS', 'iMessage'];
  const plans: ChatPlan[] = [];
  LINE_KINDS.forEach((kind, slot) => {
    for (let i = 0; i < DIRECT_CHATS[kind]; i++) {
      const service = services[(plans.length + slot) % services.length]!;
      const member = newCustomer(service, slot);
      plans.push({ line: lines[slot]!, slot, service, members: [member], displayName: null, turns: directTurns(rng, kind, member), unread: false });
    }
  });
  for (const group of DEMO_GROUPS) {
    const slot = LINE_KINDS.indexOf(group.line);
    // A known customer (same service, same line) brings others in: a spouse, a tenant, board members.
    const known = plans.find((p) => p.slot === slot && p.service === group.service && !p.members[0]!.company)?.members[0];
    const first = known ?? newCustomer(group.service, slot);
    const members = [first];
    while (members.length < group.members) {
      members.push(newCustomer(group.service, slot, group.template === 1 && members.length === 1 ? first.lastName : undefined));
    }
    if (group.displayName && group.template === 0) first.company = group.displayName;
    const template = GROUP_TEMPLATES[group.template]!;
    const fill = fillIns(rng, first, slot);
    const turns = template.map((line) => parseTurn(line, members, fill));
    plans.push({ line: lines[slot]!, slot, service: group.service, members, displayName: group.displayName, turns, unread: false });
  }
  return plans;
}

function directTurns(rng: Random, kind: LineKind, customer: Customer): Turn[] {
  const pool = DIRECT_TEMPLATES[kind];
  // A few long-standing customers (property managers, repeat clients) have many conversations.
  const regular = rng.chance(0.12);
  const sessions = regular ? rng.int(8, 12) : rng.int(1, 3);
  const order = shuffle(rng, [...pool.keys()]);
  const turns: Turn[] = [];
  for (let s = 0; s < sessions || turns.length < 5; s++) {
    const template = pool[order[s % order.length]!]!;
    const fill = fillIns(rng, customer, LINE_KINDS.indexOf(kind));
    const session = template.map((line) => parseTurn(line, [customer], fill));
    if (turns.length + session.length > 60) break;
    session[0]!.fill.sessionStart = regular ? 'regular' : 'occasional';
    turns.push(...session);
  }
  return turns;
}

function fillIns(rng: Random, customer: Customer, slot: number): Fill {
  const day = rng.int(0, DAYS.length - 1);
  const time = rng.int(0, TIMES.length - 2);
  const tech = rng.pick(TECHS);
  return {
    first: customer.firstName,
    last: customer.lastName,
    agent: DEMO_USERS[slot]!.firstName,
    tech: tech.firstName,
    techLast: tech.lastName,
    day: DAYS[day]!,
    day2: DAYS[(day + rng.int(1, 3)) % DAYS.length]!,
    time: TIMES[time]!,
    time2: TIMES[rng.int(time + 1, TIMES.length - 1)]!,
    window: rng.pick(WINDOWS),
    eta: String(rng.pick([10, 15, 20, 25, 30])),
    addr: `${rng.int(12, 4800)} ${rng.pick(STREETS)}`,
    price: rng.pick(PRICES),
    price2: rng.pick(SMALL_PRICES),
    appliance: rng.pick(APPLIANCES),
    inv: `INV-${rng.int(2100, 2999)}`,
  };
}

function parseTurn(line: string, members: Customer[], fill: Fill): Turn {
  const match = /^(o|c\d?):(.*?)(?:\s*\[(photo|quote|invoice|vcard)\])?$/.exec(line);
  if (!match) throw new Error(`bad template line: ${line}`);
  const who = match[1]!;
  const from = who === 'o' ? null : members[(Number(who.slice(1) || '1') - 1) % members.length]!;
  const text = match[2]!.replace(/\{(\w+)\}/g, (_, key: string) => fill[key] ?? `{${key}}`);
  return { from, text, attachment: (match[3] as AttachmentKind | undefined) ?? null, fill: { ...fill }, at: 0 };
}

/** Gives every turn a time: sessions days apart, replies minutes (sometimes hours) apart. */
function scheduleTurns(rng: Random, plans: ChatPlan[], now: number): void {
  const byRecency = shuffle(rng, [...plans.keys()]);
  const unread = new Set(shuffle(rng, byRecency.slice(0, 15)).slice(0, UNREAD_CHATS));
  byRecency.forEach((planIndex, rank) => {
    const plan = plans[planIndex]!;
    const lastAgo =
      rank < 12 ? (rank * 35 + rng.int(3, 30)) * MIN
      : rank < 25 ? (rank - 11) * 5 * HOUR + rng.int(0, 180) * MIN
      : 3 * DAY + (rank - 25) * 0.8 * DAY + rng.int(0, 12) * HOUR;
    if (unread.has(planIndex)) {
      plan.unread = true;
      // An unread chat ends with what the customer said.
      while (plan.turns.length > 1 && plan.turns.at(-1)!.from === null) plan.turns.pop();
    }
    let t = 0;
    plan.turns.forEach((turn, i) => {
      const prev = plan.turns[i - 1];
      if (!prev) turn.at = 0;
      else if (turn.fill.sessionStart) {
        turn.at = t + (turn.fill.sessionStart === 'regular' ? rng.int(1, 3) : rng.int(2, 9)) * DAY + rng.int(0, 8) * HOUR;
      }
      else if ((prev.from === null) === (turn.from === null)) turn.at = t + rng.int(15, 120) * 1000;
      else if (turn.from) turn.at = t + (rng.chance(0.15) ? rng.int(60, 300) : rng.int(1, 25)) * MIN;
      else turn.at = t + rng.int(1, 15) * MIN;
      t = turn.at;
    });
    const shift = now - lastAgo - t;
    for (const turn of plan.turns) turn.at += shift;
    // Keep history within six weeks: drop the oldest sessions that fall before it.
    while (plan.turns[0]!.at < now - MAX_HISTORY && plan.turns.length > 5) {
      const next = plan.turns.findIndex((turn, i) => i > 0 && turn.fill.sessionStart);
      if (next < 0) break;
      plan.turns.splice(0, next);
    }
  });
}

function seedContacts(world: World, org: Org, rng: Random, users: User[], plans: ChatPlan[], now: number): void {
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
        email: isEmail ? c.identifier : withEmail ? `${c.firstName}.${c.lastName}@example.com`.toLowerCase() : '',
        company: c.company,
        title: c.company ? 'Property manager' : '',
        location: city,
      },
      users[c.slot] ?? users[0]!,
      { silent: true, at },
    );
  }
  // People the office knows who never texted: a supplier and a subcontractor.
  createContact(world, org, { firstName: 'Rick', lastName: 'Tanner', company: 'Bay Plumbing Supply', title: 'Account rep', phoneNumber: demoCustomerPhone(398), location: 'Oakland' }, users[0]!, { silent: true, at: now - 40 * DAY });
  createContact(world, org, { firstName: 'Denise', lastName: 'Ochoa', company: 'Ochoa Electric', title: 'Owner', phoneNumber: demoCustomerPhone(397), email: 'denise@ochoaelectric.example' }, users[1]!, { silent: true, at: now - 33 * DAY });
}

function fileMaker(world: World, ids: Random): (kind: AttachmentKind, fill: Fill, plan: ChatPlan) => Attachment {
  let photos = 0;
  let quotes = 0;
  const palette: Array<[number, number, number]> = [[188, 203, 214], [214, 196, 170], [120, 140, 160], [200, 210, 190], [230, 220, 205]];
  return (kind, fill) => {
    const id = ids.uuid();
    if (kind === 'photo') {
      photos++;
      const data = png(320, 240, palette[photos % palette.length]!, palette[(photos + 2) % palette.length]!);
      return storeFile(world, id, { data, mimeType: 'image/png', filename: `IMG_${4100 + photos * 7}.png` });
    }
    if (kind === 'vcard') {
      const data = vcard({ firstName: fill.tech!, lastName: fill.techLast!, phone: demoCustomerPhone(396), org: BUSINESS, title: 'Service technician' });
      return storeFile(world, id, { data, mimeType: 'text/vcard', filename: `${fill.tech} ${fill.techLast}.vcf` });
    }
    if (kind === 'quote') {
      quotes++;
      const number = `Q-${1040 + quotes}`;
      const data = pdf([BUSINESS, `Quote ${number}`, `Prepared for ${fill.first} ${fill.last}`, '', `${fill.appliance} replacement, parts and labor: ${fill.price}`, 'Haul-away and disposal: included', 'Permit (if required): included', '', 'Valid for 30 days. Reply to this text to approve.']);
      return storeFile(world, id, { data, mimeType: 'application/pdf', filename: `Harborview Quote ${number}.pdf` });
    }
    const data = pdf([BUSINESS, `Invoice ${fill.inv}`, `Billed to ${fill.first} ${fill.last}`, '', `Service call and repair: ${fill.price2}`, '', 'Paid online or by phone. Thank you for your business!']);
    return storeFile(world, id, { data, mimeType: 'application/pdf', filename: `${fill.inv}.pdf` });
  };
}

/** Edits and reactions, as a team and its customers leave them on iMessage and RCS. */
function decorate(world: World, rng: Random, plans: ChatPlan[], now: number): void {
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
      if (message.outbound && /all set|booked|see you|on the calendar|arrived early|receipt/i.test(message.text) && rng.chance(0.5)) {
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
      message.reactions.push({ id: world.nextId('reaction'), messageId: message.id, type, isFromMe: fromMe, fromPhone: handle.identifier, handleId: handle.id, sentAt: at, createdAt: at, updatedAt: at });
    }
  }
}

/** Call history on the dispatch line, ending with a voicemail left shortly before an unread text. */
function seedCalls(world: World, org: Org, ids: Random, plans: ChatPlan[], now: number): void {
  const dispatch = plans.filter((p) => p.slot === 0 && p.members.length === 1 && !p.members[0]!.identifier.includes('@'));
  const caller = (dispatch.find((p) => p.unread) ?? dispatch[0]!);
  const customer = caller.members[0]!;
  const line = caller.line;
  const others = dispatch.filter((p) => p !== caller).map((p) => p.members[0]!);
  const name = `${customer.firstName} ${customer.lastName}`;
  const voicemail = VOICEMAILS[0]!;
  const fill = (text: string): string => text.replace('{name}', name).replace('{addr}', caller.turns[0]!.fill.addr!);
  const vmEnd = Math.min(caller.turns.at(-1)!.at - 2 * MIN, now - 20 * MIN);
  const recordingId = ids.uuid();
  world.files.set(recordingId, { data: wav(27), mimeType: 'audio/wav', filename: 'voicemail.wav' });
  const calls: Call[] = [
    { id: ids.uuid(), lineId: line.id, to: line.phoneNumber, from: others[0]!.identifier, status: 'missed', direction: 'inbound', startTime: now - 3 * DAY, endTime: now - 3 * DAY + 21_000, forwardedFrom: null, answeredBy: null, recording: null },
    { id: ids.uuid(), lineId: line.id, to: others[1]!.identifier, from: line.phoneNumber, status: 'completed', direction: 'outbound', startTime: now - 2 * DAY, endTime: now - 2 * DAY + 184_000, forwardedFrom: null, answeredBy: others[1]!.identifier, recording: null },
    { id: ids.uuid(), lineId: line.id, to: line.phoneNumber, from: others[2]!.identifier, status: 'completed', direction: 'inbound', startTime: now - 26 * HOUR, endTime: now - 26 * HOUR + 312_000, forwardedFrom: null, answeredBy: org.users[0]!.email, recording: null },
    {
      id: ids.uuid(), lineId: line.id, to: line.phoneNumber, from: customer.identifier, status: 'voicemail', direction: 'inbound',
      startTime: vmEnd - 52_000, endTime: vmEnd, forwardedFrom: null, answeredBy: null,
      recording: { id: recordingId, url: fileUrl(world, recordingId, 'voicemail.wav'), duration: 27, transcription: fill(voicemail.transcription), summary: fill(voicemail.summary) },
    },
  ];
  org.calls.push(...calls);
}


function shuffle<T>(rng: Random, items: T[]): T[] {
  for (let i = items.length - 1; i > 0; i--) {
    const j = rng.int(0, i);
    [items[i], items[j]] = [items[j]!, items[i]!];
  }
  return items;
}
