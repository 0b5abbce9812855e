import type { Chat, Handle } from '../domain/model.ts';
import type { World } from '../domain/world.ts';

/** The customer's handle if they are in the chat now (not departed), reachable and willing to answer. */
export function answeringCustomer(world: World, chat: Chat, identifier: string): Handle | undefined {
  const handle = chat.handles.find((h) => h.identifier === identifier && !h.isMe && h.departedAt === null);
  const persona = handle && world.persona(identifier);
  return persona?.reachable && persona.autoReply ? handle : undefined;
}
