/**
 * An agent on a V3 workspace (issue #10): the demo's service, added again speaking V3. They answer a
 * customer in the thread with an effect and a 20 MB video (quoted and labelled from the bubble's
 * first frame) and see it delivered; a send the service cannot deliver shows why, in words; they react
 * with an emoji of their choice; and the failed send, sent again, reaches the service once. What the
 * service received is checked on its V3 API.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Page } from '@playwright/test';
import { expect, openInbox, test } from './support/parley.ts';
import { bubble, composer, conversation, openChat, send } from './support/screen.ts';
import { serviceV3, useV3Workspace, type V3Message } from './support/v3.ts';

/**
 * The bubble showing `text` as it is first put on screen (a DOM observer runs before the next paint):
 * its state, its quote (the "Replying to" button's name) and whether it shows an effect. Call before
 * sending.
 */
function bubbleAsFirstShown(
  page: Page,
  text: string,
): Promise<{ state: string | null; quote: string | null; effect: boolean }> {
  return page.evaluate(
    (wanted) =>
      new Promise((resolve) => {
        const observer = new MutationObserver(() => {
          const shown = [...document.querySelectorAll('[data-testid="message"]')].find(
            (el) => el.querySelector('.message-text')?.textContent === wanted,
          );
          if (!shown) return;
          observer.disconnect();
          resolve({
            state: shown.getAttribute('data-state'),
            quote:
              [...shown.querySelectorAll('button')]
                .map((b) => b.getAttribute('aria-label') ?? '')
                .find((label) => label.startsWith('Replying to')) ?? null,
            effect: shown.querySelector('.effect-label') !== null,
          });
        });
        observer.observe(document.body, { childList: true, subtree: true, characterData: true });
      }),
    text,
  );
}

const TWENTY_MB = 20 * 1024 * 1024;

// Simulated delivery five times as fast: the test waits on states, and this spends less time waiting.
test.use({ parleyOptions: { speed: 5 } });

let video: string;
let videoDir: string;

test.beforeAll(() => {
  videoDir = mkdtempSync(join(tmpdir(), 'parley-v3-video-'));
  video = join(videoDir, 'repair.mp4');
  writeFileSync(video, Buffer.alloc(TWENTY_MB, 1));
});

test.afterAll(() => rmSync(videoDir, { recursive: true, force: true }));

test('on a V3 workspace the agent replies in a thread with an effect and a video, sees a failure in words, and reacts with any emoji', async ({
  page,
  parley,
}) => {
  test.setTimeout(120_000);
  await useV3Workspace(parley);
  const { chat, title } = await parley.pickChat((c) => c.service === 'iMessage' && !c.isGroup);
  expect(chat.apiVersion).toBe('v3');
  const customer = chat.handles.find((h) => !h.isMe)?.identifier as string;
  await openInbox(page, parley);
  await openChat(page, title);
  // (its composer offers what a V3 workspace can do: an effect, and the service to send over)
  await expect(page.getByRole('combobox', { name: 'Effect' })).toBeEnabled();
  await expect(page.getByRole('combobox', { name: 'Send as' })).toBeEnabled();

  // Given the customer asks something
  const question = `Can you look at the leak under the sink? (${Date.now()})`;
  const { v3_message_id: questionId } = await parley.control<{ v3_message_id: string }>(
    'POST',
    '/inbound/message',
    { chat_id: chat.v3ChatId, from: customer, text: question },
  );
  const asked = bubble(page, question);
  await expect(asked).toBeVisible();

  // When the agent replies to it in its thread, with confetti and a 20 MB video of the repair
  await asked.hover();
  await asked.getByRole('button', { name: 'Reply' }).click();
  await expect(page.getByRole('group', { name: 'Replying to' })).toContainText(question);
  await page.getByRole('combobox', { name: 'Effect' }).selectOption('screen:confetti');
  // (from a file on disk, as a picked file is: handing Chromium the bytes themselves is far slower)
  await conversation(page, title).locator('input[type="file"]').setInputFiles(video);
  const attachments = conversation(page, title).getByRole('group', { name: 'Attachments' });
  await expect(attachments.getByRole('button', { name: 'Remove repair.mp4' })).toBeVisible();
  const answer = `Fixed it — here is the video (${Date.now()})`;
  const firstFrame = bubbleAsFirstShown(page, answer);
  await send(page, title, answer);

  // Then its bubble quotes the question and shows the effect from its first frame, before the service has it
  const shown = await firstFrame;
  expect(shown).toMatchObject({ state: 'queued', effect: true });
  expect(shown.quote).toContain('leak under the sink');
  const reply = bubble(page, answer);
  // And it shows in the thread, quoting the question, and is delivered
  await expect(reply.getByRole('button', { name: /^Replying to / })).toContainText('leak under the sink');
  await expect(reply).toHaveAttribute('data-state', /^(delivered|read)$/, { timeout: 45_000 });
  // And the service has it as a reply with the effect and the whole video
  const replyOnService = (
    await serviceV3<{ messages: V3Message[] }>(parley, `/chats/${chat.v3ChatId}/messages?limit=10`)
  ).messages.find((m) => m.parts.some((p) => p.value === answer));
  expect(replyOnService?.reply_to).toEqual({ message_id: questionId, part_index: 0 });
  expect(replyOnService?.effect).toEqual({ type: 'screen', name: 'confetti' });
  expect(replyOnService?.parts.find((p) => p.type === 'media')).toMatchObject({
    mime_type: 'video/mp4',
    size_bytes: TWENTY_MB,
  });

  // When the service cannot reach the customer for the next message
  await parley.control('POST', '/send-failures', { code: 3007, times: 1 });
  const unreachable = `Are you free at 3pm tomorrow? (${Date.now()})`;
  await send(page, title, unreachable);
  // Then the bubble says why, in words
  const failed = bubble(page, unreachable);
  await expect(failed).toHaveAttribute('data-state', 'failed');
  await expect(failed).toContainText('The recipient could not be reached after several attempts');
  // When the customer thanks them, and the agent reacts with an emoji of their own
  const thanks = `That was quick, thank you! (${Date.now()})`;
  const { v3_message_id: thanksId } = await parley.control<{ v3_message_id: string }>(
    'POST',
    '/inbound/message',
    { chat_id: chat.v3ChatId, from: customer, text: thanks },
  );
  const thanked = bubble(page, thanks);
  await thanked.hover();
  await thanked.getByRole('button', { name: 'React' }).click();
  const anyEmoji = page.getByRole('textbox', { name: 'Any emoji as a reaction' });
  await anyEmoji.fill('🦄');
  await anyEmoji.press('Enter');
  // Then it shows on the message, as theirs, and the service has it
  await expect(thanked.getByRole('button', { name: /^Reacted 🦄 by You\./ })).toBeVisible();
  await expect
    .poll(async () => {
      const m = await serviceV3<V3Message>(parley, `/messages/${thanksId}`);
      return m.parts[0]?.reactions.map((r) => [r.type, r.custom_emoji, r.is_me]);
    })
    .toEqual([['custom', '🦄', true]]);
  await expect(composer(page, title)).toBeEnabled();

  // When they send the failed message again, it goes once, as a new message, and the failed one is gone
  await failed.getByRole('button', { name: 'Send again' }).click();
  await expect(bubble(page, unreachable)).toHaveCount(1);
  await expect(bubble(page, unreachable)).toHaveAttribute('data-state', /^(pending|sent|delivered|read)$/);
  await expect
    .poll(async () => {
      const { messages } = await serviceV3<{ messages: V3Message[] }>(
        parley,
        `/chats/${chat.v3ChatId}/messages?limit=20`,
      );
      return messages.filter((m) => m.parts.some((p) => p.value === unreachable)).length;
    })
    .toBe(1);
});
