/** Plans the demo's chats: who is in them, what is said, and when. Pure data; nothing touches the world. */
import type { Chat, Line, Service } from '../domain/model.ts';
import type { Random } from '../random.ts';
import { DEMO_GROUPS, DIRECT_TEMPLATES, GROUP_TEMPLATES } from './demo-conversations.ts';
import {
  APPLIANCES,
  DAYS,
  DEMO_USERS,
  DIRECT_CHATS,
  FIRST_NAMES,
  LAST_NAMES,
  LINE_KINDS,
  PRICES,
  SMALL_PRICES,
  STREETS,
  TECHS,
  TIMES,
  WINDOWS,
  type LineKind,
} from './demo-data.ts';
import { demoCustomerPhone } from './numbers.ts';

export const MIN = 60_000;
export const HOUR = 60 * MIN;
export const DAY = 24 * HOUR;
/** Oldest seeded activity: six weeks. */
const MAX_HISTORY = 42 * DAY;
const UNREAD_CHATS = 10;
/** Customer indexes after which the next iMessage customer uses an email handle. */
const EMAIL_AFTER = [6, 21];

export interface Customer {
  identifier: string;
  firstName: string;
  lastName: string;
  service: Service;
  hasContact: boolean;
  company: string;
  slot: number;
}

export type Fill = Record<string, string>;
export type AttachmentKind = 'photo' | 'quote' | 'invoice' | 'vcard';

export interface Turn {
  from: Customer | null; // null: the organization
  text: string;
  attachment: AttachmentKind | null;
  fill: Fill;
  at: number;
}

export interface ChatPlan {
  line: Line;
  slot: number;
  service: Service;
  members: Customer[];
  displayName: string | null;
  turns: Turn[];
  unread: boolean;
  chat?: Chat;
}

export function planChats(rng: Random, lines: Line[]): ChatPlan[] {
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
    return {
      identifier,
      firstName: first,
      lastName: last,
      service,
      hasContact: rng.chance(0.8),
      company: '',
      slot,
    };
  };
  const services: Service[] = [
    'iMessage',
    'SMS',
    'iMessage',
    'RCS',
    'iMessage',
    'SMS',
    'iMessage',
    'RCS',
    'iMessage',
  ];
  const plans: ChatPlan[] = [];
  LINE_KINDS.forEach((kind, slot) => {
    for (let i = 0; i < DIRECT_CHATS[kind]; i++) {
      const service = services[(plans.length + slot) % services.length]!;
      const member = newCustomer(service, slot);
      plans.push({
        line: lines[slot]!,
        slot,
        service,
        members: [member],
        displayName: null,
        turns: directTurns(rng, kind, member),
        unread: false,
      });
    }
  });
  for (const group of DEMO_GROUPS) {
    const slot = LINE_KINDS.indexOf(group.line);
    // A known customer (same service, same line) brings others in: a spouse, a tenant, board members.
    const known = plans.find((p) => p.slot === slot && p.service === group.service && !p.members[0]!.company)
      ?.members[0];
    const first = known ?? newCustomer(group.service, slot);
    const members = [first];
    while (members.length < group.members) {
      members.push(
        newCustomer(
          group.service,
          slot,
          group.template === 1 && members.length === 1 ? first.lastName : undefined,
        ),
      );
    }
    if (group.displayName && group.template === 0) first.company = group.displayName;
    const template = GROUP_TEMPLATES[group.template]!;
    const fill = fillIns(rng, first, slot);
    const turns = template.map((line) => parseTurn(line, members, fill));
    plans.push({
      line: lines[slot]!,
      slot,
      service: group.service,
      members,
      displayName: group.displayName,
      turns,
      unread: false,
    });
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
  return {
    from,
    text,
    attachment: (match[3] as AttachmentKind | undefined) ?? null,
    fill: { ...fill },
    at: 0,
  };
}

/** Gives every turn a time: sessions days apart, replies minutes (sometimes hours) apart. */
export function scheduleTurns(rng: Random, plans: ChatPlan[], now: number): void {
  const byRecency = shuffle(rng, [...plans.keys()]);
  const unread = new Set(shuffle(rng, byRecency.slice(0, 15)).slice(0, UNREAD_CHATS));
  byRecency.forEach((planIndex, rank) => {
    const plan = plans[planIndex]!;
    const lastAgo =
      rank < 12
        ? (rank * 35 + rng.int(3, 30)) * MIN
        : rank < 25
          ? (rank - 11) * 5 * HOUR + rng.int(0, 180) * MIN
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
        turn.at =
          t +
          (turn.fill.sessionStart === 'regular' ? rng.int(1, 3) : rng.int(2, 9)) * DAY +
          rng.int(0, 8) * HOUR;
      } else if ((prev.from === null) === (turn.from === null)) turn.at = t + rng.int(15, 120) * 1000;
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

export function shuffle<T>(rng: Random, items: T[]): T[] {
  for (let i = items.length - 1; i > 0; i--) {
    const j = rng.int(0, i);
    [items[i], items[j]] = [items[j]!, items[i]!];
  }
  return items;
}
