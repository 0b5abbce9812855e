/**
 * Simulated customers. They answer what organizations send (read receipt, typing, reply or
 * tapback, with human delays) and, in demo organizations, also start things on their own. Every
 * delay goes through the world's clock, so `--speed` and `clock.advance()` scale it, and every
 * choice comes from `world.random`, so a run is reproducible.
 */
import { markRead, receiveMessage, setCustomerTyping } from '../domain/chats.ts';
import { customerHandles } from '../domain/handles.ts';
import type { Chat, Message, Org } from '../domain/model.ts';
import { addReaction } from '../domain/reactions.ts';
import type { World, WorldObserver } from '../domain/world.ts';
import { isDemoOrg } from '../seed/index.ts';
import { startAmbient } from './ambient.ts';
import { answeringCustomer } from './customers.ts';
import { reactionFor, replyTo } from './replies.ts';
import { createScheduler, shuffle, type Scheduler } from './scheduler.ts';

export interface SimulationOptions {
  /** No unprompted activity; customers still answer what is sent to them. */
  quiet: boolean;
  /**
   * Which organizations get unprompted activity. Default: those seeded with the demo seed
   * (`isDemoOrg` from ../seed), so bulk and empty organizations stay still for tests.
   */
  ambientOrgs?: (org: Org) => boolean;
}

export interface Simulation {
  /** Detaches from the world and cancels everything the simulation scheduled. */
  stop(): void;
}

/** One customer's pending answer to a send; a newer send supersedes it (people answer the latest). */
interface Flow {
  cancelled: boolean;
}

export function startSimulation(world: World, options: SimulationOptions): Simulation {
  const scheduler = createScheduler(world);
  const flows = new Map<string, Flow>();
  const observer: WorldObserver = {
    outboundMessage(org, chatId, message) {
      answer(world, scheduler, flows, org, chatId, message);
    },
  };
  world.observers.push(observer);
  if (!options.quiet) startAmbient(world, scheduler, options.ambientOrgs ?? isDemoOrg);
  return {
    stop() {
      const index = world.observers.indexOf(observer);
      if (index >= 0) world.observers.splice(index, 1);
      for (const flow of flows.values()) flow.cancelled = true;
      flows.clear();
      scheduler.cancelAll();
    },
  };
}

function answer(
  world: World,
  scheduler: Scheduler,
  flows: Map<string, Flow>,
  org: Org,
  chatId: number,
  message: Message,
): void {
  // Paused or over-quota messages never reach anyone; unreachable customers never see theirs.
  if (message.deliveryStatus !== 'pending' && message.deliveryStatus !== 'delivered') return;
  const chat = org.chats.get(chatId);
  if (!chat) return;
  const eligible = customerHandles(chat).filter((h) => answeringCustomer(world, chat, h.identifier));
  if (eligible.length === 0) return;
  // In a group, one or two people answer, not everyone.
  const responders = chat.group
    ? shuffle(world.random, eligible).slice(0, world.random.int(1, Math.min(2, eligible.length)))
    : eligible;
  responders.forEach((handle, i) => {
    const stagger = i === 0 ? 0 : world.random.int(2_000, 6_000);
    startFlow(world, scheduler, flows, org, chat, message, handle.identifier, stagger);
  });
}

function startFlow(
  world: World,
  scheduler: Scheduler,
  flows: Map<string, Flow>,
  org: Org,
  chat: Chat,
  message: Message,
  identifier: string,
  stagger: number,
): void {
  const random = world.random;
  const key = `${org.id}:${chat.id}:${identifier}`;
  const previous = flows.get(key);
  if (previous) previous.cancelled = true;
  const flow: Flow = { cancelled: false };
  flows.set(key, flow);
  const chatId = chat.id;
  const end = (): void => {
    if (flows.get(key) === flow) flows.delete(key);
  };
  /** Runs `fn` later against the chat as it is then (it may be gone, or the customer may have left). */
  const step = (delay: number, fn: (current: Chat) => void): void => {
    scheduler.after(delay, () => {
      if (flow.cancelled) return;
      // A message the service failed to deliver never reached them: nothing to answer.
      if (message.failure) return end();
      const current = org.chats.get(chatId);
      if (!current || !world.orgs.includes(org) || !answeringCustomer(world, current, identifier))
        return end();
      fn(current);
    });
  };
  const stillThere = (): boolean => org.messageIndex.get(message.id) === chatId;

  // SMS has no read receipts, typing indicators or tapbacks: just a reply, a little later.
  const rich = chat.service !== 'SMS';
  const roll = random.next();
  const mode = !rich ? 'text' : roll < 0.1 ? 'react' : roll < 0.2 ? 'both' : 'text';
  let t = world.config.deliveryDelayMs[chat.service] + stagger + random.int(1_000, 4_000);
  if (rich && random.chance(0.7)) {
    step(t, (current) => {
      if (stillThere() && message.deliveryStatus === 'delivered') markRead(world, org, current, [message]);
    });
  }
  if (mode !== 'text') {
    t += random.int(1_000, 3_000);
    const type = reactionFor(random, message.text);
    step(t, (current) => {
      if (stillThere()) addReaction(world, org, current, message, type, identifier);
      if (mode === 'react') {
        // A superseded answer may have left this customer "typing"; they decided to just react.
        setCustomerTyping(world, org, current, identifier, false);
        end();
      }
    });
    if (mode === 'react') return;
  }
  const text = replyTo(random, message.text, message.attachments.length > 0);
  if (rich) {
    t += random.int(1_000, 3_000);
    step(t, (current) => setCustomerTyping(world, org, current, identifier, true));
  } else {
    t += random.int(3_000, 10_000);
  }
  // Typing time grows with the reply's length, within a human 3–8 s.
  t += Math.min(8_000, Math.max(3_000, 2_000 + text.length * 90)) + random.int(0, 1_500);
  step(t, (current) => {
    end();
    receiveMessage(world, org, current, { from: identifier, text });
  });
}
