/**
 * The draft owns everything about the next message (issues #17, #20): on a V3 workspace, a reply
 * with an effect and a chosen service, held back by Undo send or scheduled, comes back to the
 * composer whole when the agent presses Undo or Edit — text, the reply's quote, the effect and the
 * service — survives a reload, and when sent the service receives the reply target and the effect.
 * Edit never replaces a message the agent is writing.
 */
import type { Page } from '@playwright/test';
import type { Chat } from '../../shared/domain.ts';
import { expect, openInbox, test, type Parley } from './support/parley.ts';
import { bubble, composer, conversation, openChat } from './support/screen.ts';
import { useV3Workspace, v3MessageOnService } from './support/v3.ts';

test.use({ parleyOptions: { speed: 5 } });

function held(page: Page) {
  return page.getByRole('list', { name: 'Messages not sent yet' }).getByTestId('held-message');
}

/** The composer's V3 options as the agent sees them. */
function options(page: Page) {
  return {
    reply: page.getByRole('group', { name: 'Replying to' }),
    effect: page.getByRole('combobox', { name: 'Effect' }),
    service: page.getByRole('combobox', { name: 'Send as' }),
  };
}

/**
 * Given a V3 conversation (undo send on for `undoSeconds`) whose customer just asked something,
 * open on screen; when the agent replies to it with confetti, sent as iMessage, and types their answer.
 */
async function replyWithOptions(
  page: Page,
  parley: Parley,
  { undoSeconds = 0 } = {},
): Promise<{ chat: Chat; title: string; question: string; questionId: string; answer: string }> {
  await useV3Workspace(parley);
  // (the workbench settings are the workspace's own)
  await parley.call('workbench.updateSettings', { undoSeconds });
  const { chat, title } = await parley.pickChat((c) => c.service === 'iMessage' && !c.isGroup);
  const customer = chat.handles.find((h) => !h.isMe)?.identifier as string;
  await openInbox(page, parley);
  await openChat(page, title);
  const question = `Is the crown ready to fit? (${Date.now()})`;
  const { v3_message_id: questionId } = await parley.control<{ v3_message_id: string }>(
    'POST',
    '/inbound/message',
    { chat_id: chat.v3ChatId, from: customer, text: question },
  );
  const asked = bubble(page, question);
  await asked.hover();
  await asked.getByRole('button', { name: 'Reply' }).click();
  await options(page).effect.selectOption('screen:confetti');
  await options(page).service.selectOption('iMessage');
  const answer = `Yes — come in on Thursday (${Date.now()})`;
  await composer(page, title).fill(answer);
  return { chat, title, question, questionId, answer };
}

/** The composer holds the whole draft: the text, the reply's quote, the effect and the service. */
async function expectWholeDraft(page: Page, title: string, answer: string, question: string) {
  await expect(composer(page, title)).toHaveValue(answer);
  await expect(options(page).reply).toContainText(question);
  await expect(options(page).effect).toHaveValue('screen:confetti');
  await expect(options(page).service).toHaveValue('iMessage');
}

/** The service received it once, as a reply to the question, with the effect and the service. */
async function expectSentWithOptions(parley: Parley, chat: Chat, answer: string, questionId: string) {
  await expect
    .poll(async () => {
      const sent = await v3MessageOnService(parley, chat.v3ChatId as string, answer);
      return sent && { replyTo: sent.reply_to, effect: sent.effect, service: sent.preferred_service };
    })
    .toEqual({
      replyTo: { message_id: questionId, part_index: 0 },
      effect: { type: 'screen', name: 'confetti' },
      service: 'iMessage',
    });
}

test('Undo send gives back the whole draft — reply, effect and service — which survives a reload and goes out with them', async ({
  page,
  parley,
}) => {
  test.setTimeout(120_000);
  // Given undo send is on
  const { chat, title, question, questionId, answer } = await replyWithOptions(page, parley, {
    undoSeconds: 10,
  });

  // When the agent sends the reply and presses Undo during the grace period
  await composer(page, title).press('Enter');
  const grace = held(page).filter({ hasText: answer });
  await expect(grace).toContainText(/Sending in \d+ s/);
  await expect(options(page).reply).toHaveCount(0);
  await grace.getByRole('button', { name: 'Undo' }).click();

  // Then the composer has the text, the reply's quote, the effect and the service again
  await expect(grace).toHaveCount(0);
  await expectWholeDraft(page, title, answer, question);

  // And after a reload, all of it is still there
  await page.reload();
  await openChat(page, title);
  await expectWholeDraft(page, title, answer, question);

  // When they send it and let the grace period pass, the service receives it with its options
  await composer(page, title).press('Enter');
  await expect(bubble(page, answer)).toBeVisible({ timeout: 30_000 });
  await expectSentWithOptions(parley, chat, answer, questionId);
});

test('Edit on a scheduled reply puts it back into the composer with its reply, effect and service', async ({
  page,
  parley,
}) => {
  test.setTimeout(120_000);
  const { chat, title, question, questionId, answer } = await replyWithOptions(page, parley);

  // When the agent schedules the reply for tomorrow morning
  await page.getByRole('button', { name: 'Schedule message' }).click();
  await page
    .getByRole('group', { name: 'Send later' })
    .getByRole('button', { name: /^Tomorrow morning/ })
    .click();
  const scheduled = held(page).filter({ hasText: answer });
  await expect(scheduled).toContainText('Scheduled for');
  await expect(composer(page, title)).toHaveValue('');
  await expect(options(page).reply).toHaveCount(0);

  // When they start another message and press Edit on the scheduled one
  const other = 'One more thing:';
  await composer(page, title).fill(other);
  await scheduled.getByRole('button', { name: 'Edit' }).click();
  // Then what they are writing is not replaced: they are asked to send or clear it first
  await expect(conversation(page, title)).toContainText('Send or clear the message you are writing first');
  await expect(composer(page, title)).toHaveValue(other);
  await expect(scheduled).toHaveCount(1);

  // When they clear it and press Edit again
  await composer(page, title).fill('');
  await scheduled.getByRole('button', { name: 'Edit' }).click();

  // Then it is no longer scheduled, and the composer holds all of it
  await expect(scheduled).toHaveCount(0);
  await expectWholeDraft(page, title, answer, question);

  // When they send it now, the service receives the reply target, the effect and the service
  await composer(page, title).press('Enter');
  await expect(bubble(page, answer)).toBeVisible();
  await expectSentWithOptions(parley, chat, answer, questionId);
  expect(await parley.call('scheduled.list', { chatId: chat.id })).toEqual([]);
});
