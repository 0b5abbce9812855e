/**
 * One validated change from a desktop, made once through the relay's own messaging port (the
 * desktop's ids are the relay's, so they go to the port as they are). Files the desktop put into its
 * bucket are read into a temporary folder for the port and removed from the bucket afterwards.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  admitRelayedSend,
  getFile,
  openAgentFilesAsRelay,
  PartnerApiError,
  type ContactsPort,
  type LocalStore,
  type MessagingService,
  type OutgoingContent,
  type ParsedChange,
  type Reconciler,
  type RemoteIds,
} from '../core/relay-host.ts';
import type { NatsConnection } from '@nats-io/transport-node';
import { lineRecords, remoteIdsOf } from './port-records.ts';

export interface ChangeContext {
  nc: NatsConnection;
  messaging: MessagingService;
  contacts: ContactsPort;
  store: LocalStore;
  /** The relay's one writer of service facts. */
  reconciler: Reconciler;
  agentId: string;
  key: string;
}

export async function makeChange(
  change: ParsedChange,
  context: ChangeContext,
): Promise<{ result: unknown; ids?: RemoteIds | undefined }> {
  const { messaging, store } = context;
  const call = { priority: 'user' as const };
  switch (change.kind) {
    case 'send':
    case 'createChat':
      // The door's rules, on the relay: whatever the desktop checked, any client holding an agent's
      // key could have skipped it.
      if (change.kind === 'send')
        admitRelayedSend(store, {
          chatId: change.chatId,
          text: change.text,
          attachmentCount: change.files.length + change.attachmentUrls.length,
          replyTo: change.replyTo,
          effect: change.effect,
          preferredService: change.preferredService,
        });
      return withFiles(change, context, async (content) => {
        if (change.kind === 'send') {
          const message = await messaging.send(change.chatId, content, call);
          return { result: message, ids: remoteIdsOf(store, { messages: [message] }) };
        }
        const created = await messaging.createChat(
          {
            lineNumber: change.lineNumber,
            recipients: change.recipients,
            displayName: change.displayName,
            content,
          },
          call,
        );
        return {
          result: created,
          ids: remoteIdsOf(store, { chats: [created.chat], messages: [created.message] }),
        };
      });
    case 'react':
      return { result: await messaging.react(change.messageId, change.reaction, change.operation, call) };
    case 'edit': {
      const message = await messaging.edit(change.chatId, change.messageId, change.text, call);
      return { result: message, ids: remoteIdsOf(store, { messages: [message] }) };
    }
    case 'delete':
      await messaging.delete(change.chatId, change.messageId, call);
      return { result: null };
    case 'markRead':
      await messaging.markRead(change.chatId, call);
      return { result: null };
    case 'typing':
      await messaging.typing(change.chatId, change.typing, call);
      return { result: null };
    case 'shareContact':
      await messaging.shareContact(change.chatId, call);
      return { result: null };
    case 'setForwarding': {
      const line = await messaging.setForwarding(change.lineId, change.forwardingNumber, call);
      return { result: lineRecords(store, [line])[0] };
    }
    case 'createContact':
    case 'updateContact': {
      const contact =
        change.kind === 'createContact'
          ? await context.contacts.create(change.contact, call)
          : await context.contacts.update(change.contactId, change.contact, call);
      // The relay's store answers the desktops' contact reads: it has the change at once.
      context.reconciler.applyContacts([contact]);
      return { result: contact };
    }
    case 'deleteContact':
      await context.contacts.delete(change.contactId, call);
      context.reconciler.applyContactsDeleted([change.contactId]);
      return { result: null };
  }
}

type WithContent = Extract<ParsedChange, { kind: 'send' | 'createChat' }>;

/** The change's content for the port, its files fetched from the sender's own bucket first. */
async function withFiles<T>(
  change: WithContent,
  context: ChangeContext,
  run: (content: OutgoingContent) => Promise<T>,
): Promise<T> {
  const content: OutgoingContent = {
    text: change.text,
    files: [],
    attachmentUrls: change.attachmentUrls,
    idempotencyKey: context.key,
    ...(change.replyTo ? { replyTo: change.replyTo } : {}),
    ...(change.effect ? { effect: change.effect } : {}),
    ...(change.preferredService ? { preferredService: change.preferredService } : {}),
  };
  if (change.files.length === 0) return run(content);
  const dir = mkdtempSync(join(tmpdir(), 'parley-relay-files-'));
  try {
    const bucket = await openAgentFilesAsRelay(context.nc, context.agentId);
    const files = [];
    for (const [index, file] of change.files.entries()) {
      const path = join(dir, String(index));
      if (!(await getFile(bucket, file.object, path)))
        throw new PartnerApiError({
          kind: 'validation',
          code: 'file_missing',
          retryable: false,
          message: `The file "${file.filename}" did not reach the relay; attach it again`,
        });
      files.push({ path, filename: file.filename, mimeType: file.mimeType });
    }
    const result = await run({ ...content, files });
    for (const file of change.files) await bucket.delete(file.object).catch(() => undefined);
    return result;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
