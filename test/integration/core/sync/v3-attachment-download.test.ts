/**
 * Opening a V3 message's attachment: its bytes are fetched through the workspace's messaging port
 * from the address the V3 message gives, and, when that address has expired, from a fresh one the
 * attachment's V3 record gives (GET /attachments/{id}). Real sandbox over HTTP, real SQLite.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningSandbox } from '../../../../sandbox/index.ts';
import type { WorkspaceSession } from '../../../../electron/core/session.ts';
import type { Attachment, Chat } from '../../../../shared/domain.ts';
import { eventually, sandboxFor, tempDir } from '../helpers.ts';
import { serviceV3, sessionOn } from './v3-helpers.ts';

/** A small PDF-looking file: its bytes are what the test compares. */
const INVOICE = Buffer.from(`%PDF-1.4\n% invoice ${Date.now()}\n%%EOF\n`);

describe('a V3 attachment opened from its message', () => {
  let sandbox: RunningSandbox;
  let dir: ReturnType<typeof tempDir>;
  let session: WorkspaceSession;
  let sent: Attachment;

  beforeAll(async () => {
    sandbox = await sandboxFor();
    dir = tempDir();
    session = sessionOn(sandbox, dir.path, 'v3');
    await session.start();
    // Given the agent sent an invoice through V3 (uploaded, then referenced by its attachment id)
    const chat = session.store.chats.list().find((c) => c.service === 'iMessage' && !c.isGroup) as Chat;
    const staged = await session.staging.stageBytes(INVOICE, 'invoice.pdf');
    const key = session.outbox.send({ chatId: chat.id, text: 'Your invoice', stagedIds: [staged.id] });
    sent = await eventually(() => {
      const attachment = session.store.messages.get(key)?.attachments[0];
      return attachment?.url.startsWith('http') ? attachment : undefined;
    }, 'the service’s copy of the attachment');
  });

  afterAll(async () => {
    await session.close();
    await sandbox.stop();
    dir.remove();
  });

  it('is the V3 media part the service lists, and downloads whole from its address', async () => {
    const onService = await serviceV3<{ id: string; download_url: string | null }>(
      sandbox,
      `/attachments/${sent.id}`,
    );
    expect(onService.id).toBe(sent.id);
    const to = join(dir.path, 'opened.pdf');
    await session.messaging.downloadAttachment(sent, to, {});
    expect(readFileSync(to).equals(INVOICE)).toBe(true);
  });

  it('whose address has expired is fetched from the fresh address its V3 record gives', async () => {
    const expired = { ...sent, url: `${sandbox.url}/files/expired-link/invoice.pdf` };
    const to = join(dir.path, 'reopened.pdf');
    await session.messaging.downloadAttachment(expired, to, {});
    expect(readFileSync(to).equals(INVOICE)).toBe(true);
  });

  it('that the service does not know is refused and saves nothing', async () => {
    const unknown = {
      id: '00000000-0000-4000-8000-000000000000',
      url: `${sandbox.url}/files/expired-link/x.pdf`,
    };
    const to = join(dir.path, 'nothing.pdf');
    await expect(session.messaging.downloadAttachment(unknown, to, {})).rejects.toMatchObject({
      status: 404,
    });
    expect(() => readFileSync(to)).toThrow();
  });
});
