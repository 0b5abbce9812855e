/**
 * The demo seed: a believable small business with weeks of history. Everything comes from PRNGs
 * with fixed seeds, so the same world gets the same ids, texts and order on every run; only the
 * timestamps move with the clock (they are offsets from "now", so the newest activity is recent).
 */
import { createChat, receiveMessage } from '../domain/chats.ts';
import type { Org } from '../domain/model.ts';
import type { World } from '../domain/world.ts';
import { createRandom } from '../random.ts';
import { addLine, addUsers, pastOutbound } from './basics.ts';
import { DEMO_DOMAIN, DEMO_USERS, LINE_KINDS } from './demo-data.ts';
import { decorate, fileMaker, seedCalls, seedContacts } from './demo-extras.ts';
import { MIN, planChats, scheduleTurns } from './demo-plan.ts';
import { demoCustomerPhone } from './numbers.ts';

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
      failCode: null,
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
    const answeredAt = plan.turns
      .slice(index + 1)
      .find((t) => (t.from === null) !== (turn.from === null))?.at;
    const laterRead = (): number | null => {
      const at = turn.at + rng.int(1, 25) * MIN;
      return at < now - MIN ? at : null;
    };
    if (turn.from) {
      const message = receiveMessage(world, org, chat, {
        from: turn.from.identifier,
        text: turn.text,
        attachments,
        at: turn.at,
        silent: true,
      });
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
