/** memory-breakdown.ts's day: the agent's steps on bench-memory.ts's clock, counted. */
import type { Page } from '@playwright/test';
import { openNewestPhoto, scrollBackLongChat, sendReply, switchConversation } from './agent.ts';
import { ATTACHMENT_EVERY, SCROLL_EVERY, SEND_EVERY, SWITCH_EVERY_MS } from './breakdown-options.ts';

export const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
export const wallNow = (): number => performance.timeOrigin + performance.now();

export interface Counts {
  inbound: number;
  inbound_failed: number;
  switches: number;
  sends: number;
  scrolls: number;
  photos: number;
  photos_not_found: number;
}
export const counts: Counts = {
  inbound: 0,
  inbound_failed: 0,
  switches: 0,
  sends: 0,
  scrolls: 0,
  photos: 0,
  photos_not_found: 0,
};

export async function switchOnce(page: Page): Promise<void> {
  await switchConversation(page);
  counts.switches++;
}

export async function openPhoto(page: Page, longTitle: string): Promise<void> {
  if (await openNewestPhoto(page, longTitle)) counts.photos++;
  else counts.photos_not_found++;
}

export async function scrollBack(page: Page, longTitle: string): Promise<void> {
  await scrollBackLongChat(page, longTitle);
  counts.scrolls++;
}

async function send(page: Page): Promise<void> {
  await sendReply(page);
  counts.sends++;
}

export async function agent(page: Page, longTitle: string, until: () => boolean): Promise<void> {
  for (let tick = 1, next = wallNow(); !until(); tick++) {
    next += SWITCH_EVERY_MS;
    await switchOnce(page);
    if (tick % ATTACHMENT_EVERY === 0) await openPhoto(page, longTitle);
    if (tick % SCROLL_EVERY === 0) await scrollBack(page, longTitle);
    if (tick % SEND_EVERY === 0) await send(page);
    await sleep(Math.max(0, next - wallNow()));
  }
}
