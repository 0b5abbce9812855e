/**
 * Attachments the way agents add them: a photo dragged from the desktop onto the conversation, a
 * screenshot pasted into the composer. What the service would refuse (too large, wrong type) is
 * refused before anything is sent, with a reason that names the file. A received file the service
 * cannot hand over is said to be so on its card, with the reason and Try again, never opened as
 * the host's error.
 */
import { readFile } from 'node:fs/promises';
import { createServer } from 'node:http';
import type { Page } from '@playwright/test';
import sharp from 'sharp';
import { expect, openInbox, test, type Parley } from './support/parley.ts';
import { dropFiles, type FileSpec, pasteFiles, png } from './support/files.ts';
import {
  bubble,
  bubbles,
  composer,
  conversation,
  drawnPicture,
  openChat,
  timeline,
} from './support/screen.ts';
import { arrangeStore } from '../integration/store-inspector.ts';

/** This host takes uploads up to 1 MB (the service's own limit is 100 MB: too slow to exceed). */
test.use({ parleyOptions: { maxUploadBytes: 1024 * 1024 } });

async function openImessageChat(page: Page, parley: Parley) {
  const picked = await parley.pickChat((c) => c.service === 'iMessage' && !c.isGroup);
  await openInbox(page, parley);
  await openChat(page, picked.title);
  return picked;
}

/** A drawn picture's size and its middle's colour to the nearest 10 (a GIF's palette, a JPEG's noise). */
const roughly = (drawn: Awaited<ReturnType<typeof drawnPicture>>) =>
  drawn && { size: drawn.size, rgb: drawn.rgb.map((c) => Math.round(c / 10)) };

/** Requests for a service copy's thumbnail for this (1×) screen, never a staged file's. */
const serviceThumbnails = (requested: readonly string[]) =>
  requested.filter((path) => /^\/thumbnails\/(?!staged)[^/?]+\?scale=1$/.test(path));

/**
 * The agent drops `file` on an iMessage conversation and sends it with a caption while the service
 * takes 2 s to answer that send. Returns the bubble's picture and every path the page asked for.
 */
async function sendWhileServiceIsSlow(page: Page, parley: Parley, file: FileSpec, caption: string) {
  const requested: string[] = [];
  page.on('request', (request) =>
    requested.push(new URL(request.url()).pathname + new URL(request.url()).search),
  );
  const { chat, title } = await openImessageChat(page, parley);
  const area = conversation(page, title);
  await parley.control('POST', '/faults', {
    method: 'POST',
    path: `/chats/${chat.id}/chat_messages$`,
    kind: 'latency',
    latencyMs: 2_000,
    times: 1,
  });
  await dropFiles(area, [file]);
  await expect(area.getByRole('button', { name: `Remove ${file.name}` })).toBeVisible();
  const text = `${caption} (${Date.now()})`;
  await composer(page, title).fill(text);
  await composer(page, title).press('Enter');
  const picture = bubbles(page).filter({ hasText: text }).getByRole('img', { name: file.name });
  return { picture, requested };
}

test('a dropped photo and a pasted screenshot go out together and show inline', async ({ page, parley }) => {
  const { chat, title } = await openImessageChat(page, parley);
  const area = conversation(page, title);
  const attachments = area.getByRole('group', { name: 'Attachments' });

  // When the agent drags a photo from the desktop over the conversation, a drop target shows…
  const photo = { name: 'boiler-before.png', mimeType: 'image/png', bytes: png(160, 120, [220, 120, 40]) };
  await dropFiles(area, [photo], async () => {
    await expect(area.getByText(`Drop to attach to your message to ${title}`)).toBeVisible();
  });
  // …and dropping it attaches it to the draft
  await expect(attachments.getByRole('button', { name: 'Remove boiler-before.png' })).toBeVisible();
  await expect(area.getByText(`Drop to attach to your message to ${title}`)).toHaveCount(0);

  // When they paste a screenshot into the composer, it gets a dated name of its own
  const screenshot = { name: 'image.png', mimeType: 'image/png', bytes: png(120, 80, [40, 120, 220]) };
  await pasteFiles(composer(page, title), [screenshot]);
  await expect(attachments.getByRole('button', { name: /^Remove Pasted .*\.png$/ })).toBeVisible();

  // And they send it with a line of text
  const text = `Before and after photos (${Date.now()})`;
  await composer(page, title).fill(text);
  await composer(page, title).press('Enter');

  // Then the message shows both images inline, and the composer is empty again
  const sent = bubbles(page).filter({ hasText: text });
  await expect(attachments).toHaveCount(0);
  await expect(sent.getByRole('button', { name: 'Open image boiler-before.png' })).toBeVisible();
  await expect(sent.getByRole('button', { name: /^Open image Pasted .*\.png$/ })).toBeVisible();
  await expect(sent).toHaveAttribute('data-state', /^(pending|delivered)$/);
  // (drawn from the files Parley serves, not broken links)
  for (const image of await sent.getByRole('img').all())
    await expect.poll(async () => (await drawnPicture(image))?.size[0] ?? 0).toBeGreaterThan(0);

  // And the service received one message carrying both files
  await expect
    .poll(async () => {
      const onService = (await parley.messagesOnService(chat.id)).filter((m) => m.text === text);
      return onService.map((m) =>
        m.attachments.map((a) => a.filename.replace(/^Pasted .*\.png$/, 'Pasted.png')),
      );
    })
    .toEqual([['boiler-before.png', 'Pasted.png']]);
});

test('a file over the upload limit is refused by name, and nothing is sent', async ({ page, parley }) => {
  const { chat, title } = await openImessageChat(page, parley);
  const area = conversation(page, title);
  const before = (await parley.messagesOnService(chat.id)).length;

  // When the agent drops a photo larger than the limit
  const big = { name: 'site-survey.png', mimeType: 'image/png', bytes: Buffer.alloc(1536 * 1024, 7) };
  await dropFiles(area, [big]);

  // Then Parley says which file and why, and attaches nothing
  const notice = area.getByRole('alert');
  await expect(notice).toContainText('site-survey.png');
  await expect(notice).toContainText('at most 1 MB');
  await expect(area.getByRole('group', { name: 'Attachments' })).toHaveCount(0);
  await expect(area.getByRole('button', { name: 'Send' })).toBeDisabled();

  // And pressing Enter in the empty composer sends nothing
  await composer(page, title).press('Enter');
  await expect(timeline(page).getByText('site-survey.png')).toHaveCount(0);
  expect((await parley.messagesOnService(chat.id)).length).toBe(before);
});

test('a file of a type the service refuses is refused, and nothing is sent', async ({ page, parley }) => {
  const { chat, title } = await openImessageChat(page, parley);
  const area = conversation(page, title);
  const before = (await parley.messagesOnService(chat.id)).length;

  // When the agent drops a program
  await dropFiles(area, [
    {
      name: 'invoice-viewer.exe',
      mimeType: 'application/octet-stream',
      bytes: Buffer.from('MZ fake program'),
    },
  ]);

  // Then the program is refused, by name, with what can be sent instead
  const notice = area.getByRole('alert');
  await expect(notice).toContainText('invoice-viewer.exe');
  await expect(notice).toContainText('JPEG, PNG, GIF, HEIC, MP4, MOV, PDF, vCard or plain text');
  await expect(area.getByRole('group', { name: 'Attachments' })).toHaveCount(0);
  await expect(area.getByRole('button', { name: 'Send' })).toBeDisabled();

  // And the notice can be dismissed; nothing went to the service
  await notice.getByRole('button', { name: 'Dismiss' }).click();
  await expect(notice).toHaveCount(0);
  expect((await parley.messagesOnService(chat.id)).length).toBe(before);
});

/** A customer's files on the newest message of a chat, as the service stated them (arranged in the store). */
function attachToNewest(
  parley: Parley,
  chatId: number,
  files: Array<{ id: string; url: string; filename: string; mimeType: string; size: number }>,
): void {
  arrangeStore(parley.host.core.session.store, (db) => {
    const newest = db.get<{ key: string }>(
      'SELECT key FROM messages WHERE chat_id = ? ORDER BY sent_at DESC LIMIT 1',
      chatId,
    );
    for (const file of files)
      db.run(
        'INSERT INTO attachments (id, message_key, position, url, filename, mime_type, size) VALUES (?, ?, ?, ?, ?, ?, ?)',
        file.id,
        newest!.key,
        0,
        file.url,
        file.filename,
        file.mimeType,
        file.size,
      );
  });
}

test('a sent photo is never fetched from a URL that is not there: no 404, no console error', async ({
  page,
  parley,
}) => {
  const failed: string[] = [];
  const errors: string[] = [];
  page.on('response', (response) => {
    if (response.status() >= 400) failed.push(`${response.status()} ${new URL(response.url()).pathname}`);
  });
  page.on('console', (message) => {
    if (message.type() === 'error') errors.push(message.text());
  });
  page.on('pageerror', (error) => errors.push(error.message));

  // Given the service takes a moment to answer a send (the stored copy still holds the staged file),
  // when the agent drops a photo and sends it
  const photo = { name: 'meter-reading.png', mimeType: 'image/png', bytes: png(90, 60, [30, 160, 90]) };
  const { picture: image, requested } = await sendWhileServiceIsSlow(page, parley, photo, 'Meter reading');

  // Then the bubble draws the staged file while the send is pending (the photo's own 90 × 60)…
  await expect
    .poll(async () => roughly(await drawnPicture(image)))
    .toEqual({ size: [90, 60], rgb: [3, 16, 9] });
  expect(requested.filter((path) => /^\/staged\/[0-9a-f-]+$/.test(path))).not.toEqual([]);
  // …and the service's copy once it is accepted: its thumbnail for this (1×) screen, the same photo
  await expect.poll(() => serviceThumbnails(requested), { timeout: 15_000 }).toHaveLength(1);
  await expect.poll(async () => roughly(await drawnPicture(image))?.rgb).toEqual([3, 16, 9]);

  // And the staged file was only ever asked for under its staged URL, and nothing was missing
  expect(requested.filter((path) => path.startsWith('/attachments/staged'))).toEqual([]);
  expect(failed).toEqual([]);
  expect(errors).toEqual([]);
});

test('a sent GIF shows as an image while it is sent, then as its service copy’s thumbnail once accepted', async ({
  page,
  parley,
}) => {
  // Given the service takes a moment to answer a send, when the agent sends a GIF of one frame: the
  // page shows any GIF as an image (it may move), the core makes a still thumbnail of it (one frame),
  // drawn on a canvas
  const gif = await sharp({
    create: { width: 90, height: 60, channels: 3, background: { r: 30, g: 160, b: 90 } },
  })
    .gif()
    .toBuffer();
  const file = { name: 'waving.gif', mimeType: 'image/gif', bytes: gif };
  const { picture, requested } = await sendWhileServiceIsSlow(page, parley, file, 'Waving');

  // Then while it is sent the bubble shows the staged file as an image
  await expect
    .poll(async () => roughly(await drawnPicture(picture)))
    .toEqual({ size: [90, 60], rgb: [3, 16, 9] });
  expect(await picture.evaluate((element) => element.tagName)).toBe('IMG');
  // And once the service has it, its copy's thumbnail is fetched and drawn: never an empty canvas
  await expect.poll(() => serviceThumbnails(requested), { timeout: 15_000 }).toHaveLength(1);
  await expect.poll(async () => roughly(await drawnPicture(picture))?.rgb).toEqual([3, 16, 9]);
  expect(await picture.evaluate((element) => element.tagName)).toBe('CANVAS');
});

test('a customer’s SVG or script shows as a file card whose Open downloads it, never a page of the app', async ({
  page,
  parley,
}) => {
  // Given a customer sent an SVG with a script (typed with a charset, so not exactly image/svg+xml)
  // and a script, on the newest message of a chat (arranged in the store, as the service stated them)
  const svg = '<svg xmlns="http://www.w3.org/2000/svg"><script>document.title="pwned"</script></svg>';
  const files = createServer((request, response) =>
    response
      .writeHead(200, { 'content-type': 'application/octet-stream' })
      .end(request.url === '/logo.svg' ? svg : 'document.title="pwned"'),
  );
  await new Promise<void>((resolve) => files.listen(0, '127.0.0.1', resolve));
  const filesUrl = `http://127.0.0.1:${(files.address() as { port: number }).port}`;
  const { chat, title } = await parley.pickChat((c) => c.service === 'iMessage' && !c.isGroup);
  attachToNewest(parley, chat.id, [
    {
      id: 'hostile-svg',
      url: `${filesUrl}/logo.svg`,
      filename: 'logo.svg',
      mimeType: 'image/svg+xml; charset=utf-8',
      size: 100,
    },
    {
      id: 'hostile-js',
      url: `${filesUrl}/helper.js`,
      filename: 'helper.js',
      mimeType: 'text/javascript',
      size: 100,
    },
  ]);

  try {
    await openInbox(page, parley);
    await openChat(page, title);
    const log = timeline(page);

    // Then neither is drawn inline: each is a file card
    await expect(log.getByRole('button', { name: 'Open logo.svg' })).toBeVisible();
    await expect(log.getByRole('button', { name: 'Open helper.js' })).toBeVisible();
    await expect(log.getByRole('img', { name: 'logo.svg' })).toHaveCount(0);

    // When the agent presses Open on each, the file is downloaded, and no page of the app opens it
    for (const name of ['logo.svg', 'helper.js']) {
      const downloading = page.waitForEvent('download');
      await log.getByRole('button', { name: `Open ${name}` }).click();
      expect((await downloading).suggestedFilename()).toBe(name);
    }
    expect(page.context().pages()).toEqual([page]);
    expect(await page.title()).not.toBe('pwned');
  } finally {
    await new Promise((resolve) => files.close(resolve));
  }
});

test('a customer’s phone photo: the bubble draws its thumbnail, the viewer a copy for its box, Save the original', async ({
  page,
  parley,
}) => {
  // Given a customer sent a phone photo (1600 × 1200 as stored, taken upright: EXIF orientation 6),
  // on the newest message of a chat (arranged in the store, as the service stated it)
  const photo = await sharp({ create: { width: 1600, height: 1200, channels: 3, background: '#c85a28' } })
    .jpeg()
    .withMetadata({ orientation: 6 })
    .toBuffer();
  const files = createServer((_request, response) =>
    response.writeHead(200, { 'content-type': 'image/jpeg' }).end(photo),
  );
  await new Promise<void>((resolve) => files.listen(0, '127.0.0.1', resolve));
  const filesUrl = `http://127.0.0.1:${(files.address() as { port: number }).port}`;
  const { chat, title } = await parley.pickChat((c) => c.service === 'iMessage' && !c.isGroup);
  attachToNewest(parley, chat.id, [
    {
      id: 'phone-photo',
      url: `${filesUrl}/IMG_0042.JPG`,
      filename: 'IMG_0042.JPG',
      mimeType: 'image/jpeg',
      size: photo.length,
    },
  ]);
  try {
    await openInbox(page, parley);
    await openChat(page, title);

    // Then the bubble draws the core's thumbnail for this screen (1×): its 260 × 195 box exactly,
    // from the upright picture (a 2× screen would take the 520 × 390 one), and not the original
    const bubble = timeline(page).getByRole('img', { name: 'IMG_0042.JPG' });
    await expect
      .poll(async () => (await drawnPicture(bubble))?.size, { timeout: 15_000 })
      .toEqual([260, 195]);
    expect((await drawnPicture(bubble))?.rgb[0]).toBeGreaterThan(150); // the photo's colour
    const asked = () =>
      page.evaluate(() =>
        performance
          .getEntriesByType('resource')
          .map((entry) => new URL(entry.name).pathname + new URL(entry.name).search)
          .filter((path) => path.includes('phone-photo')),
      );
    expect(await asked()).toEqual(['/thumbnails/phone-photo?scale=1']);

    // When the agent opens it, the viewer draws the whole picture, upright, from the core's copy
    // for its box on this screen (1×, 900 px tall: the 920 × 690 box, so 518 × 690), not from the
    // original; Save still keeps the original
    await timeline(page).getByRole('button', { name: 'Open image IMG_0042.JPG' }).click();
    const viewer = page.getByRole('dialog');
    const picture = viewer.getByRole('img', { name: 'IMG_0042.JPG' });
    await expect(picture).toHaveAttribute('aria-busy', 'false', { timeout: 15_000 });
    const drawn = (canvas: HTMLCanvasElement) => {
      const pixel = canvas.getContext('2d')!.getImageData(canvas.width >> 1, canvas.height >> 1, 1, 1).data;
      return {
        size: [canvas.width, canvas.height],
        red: pixel[0],
        box: canvas.getBoundingClientRect().height,
      };
    };
    const shown = await picture.evaluate(drawn);
    expect(shown.size).toEqual([518, 690]);
    expect(shown.red).toBeGreaterThan(150); // the photo's colour, not an empty canvas
    expect(shown.box).toBeLessThanOrEqual(0.62 * 900 + 1); // drawn within the viewer's 62vh
    const fetched = await asked();
    expect(fetched).toContain('/thumbnails/phone-photo?size=viewer&scale=1');
    expect(fetched).not.toContain('/attachments/phone-photo');
    await expect(viewer.getByRole('link', { name: 'Save' })).toHaveAttribute(
      'href',
      '/attachments/phone-photo',
    );

    // And when it closes, nothing of the picture is kept: the canvas is emptied
    const canvas = await picture.elementHandle();
    await page.keyboard.press('Escape');
    await expect(viewer).toHaveCount(0);
    expect(await canvas!.evaluate((c: HTMLCanvasElement) => [c.width, c.height])).toEqual([0, 0]);

    // And when the agent opens another conversation, the bubble lets its picture go too
    const inBubble = await bubble.elementHandle();
    await page.keyboard.press('Alt+ArrowDown');
    await expect(timeline(page).getByRole('img', { name: 'IMG_0042.JPG' })).toHaveCount(0);
    expect(await inBubble!.evaluate((c: HTMLCanvasElement) => [c.width, c.height])).toEqual([0, 0]);
  } finally {
    await new Promise((resolve) => files.close(resolve));
  }
});

test('a file the service cannot hand over: Open says why in the app and offers to try again, and no error page opens', async ({
  page,
  parley,
}) => {
  test.slow(); // the core tries the service's copy for about 20 s before it gives up
  // Given a customer sends a PDF (the service keeps its copy under /files/…)
  const pdf = Buffer.from('%PDF-1.4\n1 0 obj <<>> endobj\ntrailer <<>>\n%%EOF\n');
  const files = createServer((_request, response) =>
    response.writeHead(200, { 'content-type': 'application/pdf' }).end(pdf),
  );
  await new Promise<void>((resolve) => files.listen(0, '127.0.0.1', resolve));
  const filesUrl = `http://127.0.0.1:${(files.address() as { port: number }).port}`;
  try {
    const { chat, title } = await openImessageChat(page, parley);
    const text = `The signed estimate (${Date.now()})`;
    await parley.control('POST', '/inbound/message', {
      chat_id: chat.id,
      text,
      attachment_urls: [`${filesUrl}/estimate-0142.pdf`],
    });
    const message = bubble(page, text);
    const open = message.getByRole('button', { name: 'Open estimate-0142.pdf' });
    await expect(open).toBeVisible();
    // And the service cannot hand its copy over (the core gives up after its retries, and the app's
    // attachment route answers 502)
    await parley.control('POST', '/faults', { path: '^/files/', kind: 'error', status: 500 });
    const downloads: string[] = [];
    page.on('download', (download) => downloads.push(download.suggestedFilename()));

    // When the agent presses Open, the card says it is fetching the file
    await open.click();
    await expect(message.getByRole('status')).toHaveText('Fetching “estimate-0142.pdf”…');

    // Then the card says, in the app, that the file could not be fetched and why
    const problem = message.getByRole('alert');
    await expect(problem).toContainText('“estimate-0142.pdf” could not be fetched.', { timeout: 60_000 });
    await expect(problem).toContainText('could not be downloaded (HTTP 500)');
    // And nothing else opened: no tab with the host's error, no download of it
    expect(page.context().pages()).toEqual([page]);
    expect(downloads).toEqual([]);
    await expect(conversation(page, title)).toBeVisible();

    // When the service can hand it over again and the agent presses Try again
    await parley.control('DELETE', '/faults');
    const downloading = page.waitForEvent('download');
    await problem.getByRole('button', { name: 'Try again' }).click();

    // Then the file is downloaded as itself, and the message is gone
    const download = await downloading;
    expect(download.suggestedFilename()).toBe('estimate-0142.pdf');
    expect((await readFile((await download.path())!)).equals(pdf)).toBe(true);
    await expect(problem).toHaveCount(0);
  } finally {
    await new Promise((resolve) => files.close(resolve));
  }
});
