/**
 * A customer's files on a desktop joined to the team's relay, the way the agent meets them: the
 * customer texts a photo and a PDF; the joined desktop (no token of its own: the relay fetches the
 * bytes into the agent's bucket) draws the photo in the bubble and in the viewer, saves the
 * original, and opens the PDF as itself — with no console error on the page.
 */
import { readFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { Page } from '@playwright/test';
import { chatTitle } from '../../renderer/lib/chat-presentation.ts';
import type { Chat } from '../../shared/domain.ts';
import { png } from './support/files.ts';
import { expect, test } from './support/parley.ts';
import { bubble, drawnPicture, openChat, timeline } from './support/screen.ts';
import { startTeam, type Team } from './support/team.ts';

test.describe.configure({ timeout: 180_000 });

let team: Team | undefined;
let files: Server | undefined;

test.afterEach(async () => {
  await team?.stop();
  if (files) await new Promise((resolve) => files?.close(resolve));
  team = undefined;
  files = undefined;
});

/** Where the customer's phone keeps the files it sends (the service copies them under /files/). */
async function customersFiles(served: Record<string, { type: string; bytes: Buffer }>): Promise<string> {
  files = createServer((request, response) => {
    const file = served[request.url ?? ''];
    if (!file) return void response.writeHead(404).end();
    response.writeHead(200, { 'content-type': file.type }).end(file.bytes);
  });
  await new Promise<void>((resolve) => files?.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(files.address() as { port: number }).port}`;
}

function recordConsoleErrors(page: Page): string[] {
  const errors: string[] = [];
  page.on('console', (message) => {
    if (message.type() === 'error') errors.push(message.text());
  });
  page.on('pageerror', (error) => errors.push(error.message));
  return errors;
}

test("a joined desktop shows a customer's photo, saves it, and opens a PDF, all fetched through the relay", async ({
  page,
}) => {
  test.slow(); // a relay with its own nats-server and first sync, then the desktop's through it
  // Given Dana's desktop is joined to the team's relay
  team = await startTeam(['Dana']);
  const [dana] = team.desktops;
  const chat = (await dana!.call('chats.list', { limit: 20 })).find(
    (c) => c.service === 'iMessage' && !c.isGroup,
  ) as Chat;
  const title = chatTitle(chat);
  const errors = recordConsoleErrors(page);
  await dana!.open(page);
  await openChat(page, title);

  // When the customer texts a photo of the boiler and the signed estimate as a PDF
  const photo = png(240, 180, [200, 90, 40]);
  const pdf = Buffer.from('%PDF-1.4\n1 0 obj <<>> endobj\ntrailer <<>>\n%%EOF\n');
  const phone = await customersFiles({
    '/boiler.png': { type: 'image/png', bytes: photo },
    '/estimate-0142.pdf': { type: 'application/pdf', bytes: pdf },
  });
  const text = `The boiler and the estimate (${Date.now()})`;
  await team.control('POST', '/inbound/message', {
    chat_id: chat.id,
    text,
    attachment_urls: [`${phone}/boiler.png`, `${phone}/estimate-0142.pdf`],
  });

  // Then the bubble draws the photo, in its colour, from the thumbnail the core made of the relay's copy
  const message = bubble(page, text);
  const picture = message.getByRole('img', { name: 'boiler.png' });
  await expect.poll(async () => (await drawnPicture(picture))?.size, { timeout: 30_000 }).toEqual([240, 180]);
  expect((await drawnPicture(picture))?.rgb[0]).toBeGreaterThan(150);

  // When Dana opens the photo, the viewer draws it, and Save keeps the original, byte for byte
  await timeline(page).getByRole('button', { name: 'Open image boiler.png' }).click();
  const viewer = page.getByRole('dialog');
  await expect(viewer.getByRole('img', { name: 'boiler.png' })).toHaveAttribute('aria-busy', 'false');
  const saving = page.waitForEvent('download');
  await viewer.getByRole('link', { name: 'Save' }).click();
  const saved = await saving;
  expect(saved.suggestedFilename()).toBe('boiler.png');
  expect((await readFile((await saved.path())!)).equals(photo)).toBe(true);
  await page.keyboard.press('Escape');
  await expect(viewer).toHaveCount(0);

  // When she opens the PDF, it is downloaded as itself
  const opening = page.waitForEvent('download');
  await message.getByRole('button', { name: 'Open estimate-0142.pdf' }).click();
  const opened = await opening;
  expect(opened.suggestedFilename()).toBe('estimate-0142.pdf');
  expect((await readFile((await opened.path())!)).equals(pdf)).toBe(true);

  // And the page logged no error on the way (every thumbnail answered)
  expect(errors).toEqual([]);
});
