/**
 * Replying where the notification is, in the Electron host, against stand-ins for Electron's
 * Notification and BrowserWindow: macOS gets an inline reply field, Windows a toast with an input,
 * Linux a Reply button that opens the always-on-top quick-reply window (Esc closes it); one
 * notification per conversation; no content when previews are off. The reply itself runs through
 * the real core against the sandbox: it goes out once through the outbox and the chat is read.
 */
import { EventEmitter } from 'node:events';
import type { BrowserWindow, Notification, NotificationConstructorOptions } from 'electron';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { IncomingNotice } from '../../../shared/contract/views.ts';
import type { RunningSandbox } from '../../../sandbox/index.ts';
import { WorkspaceSession } from '../../../electron/core/session.ts';
import { markChatRead, replyFromNotification } from '../../../electron/core/workbench/quick-reply.ts';
import { createNativeNotifier } from '../../../electron/hosts/electron/notifications.ts';
import { createQuickReplyOpener, quickReplyUrl } from '../../../electron/hosts/electron/quick-reply.ts';
import { control, eventually, sandboxFor, service, tempDir } from '../core/helpers.ts';

class FakeNotification extends EventEmitter {
  static shown: FakeNotification[] = [];
  static isSupported(): boolean {
    return true;
  }
  readonly options: NotificationConstructorOptions;
  closed = false;
  constructor(options: NotificationConstructorOptions) {
    super();
    this.options = options;
  }
  show(): void {
    FakeNotification.shown.push(this);
  }
  close(): void {
    this.closed = true;
    this.emit('close');
  }
}

class FakeWindow extends EventEmitter {
  static created: FakeWindow[] = [];
  readonly options: Electron.BrowserWindowConstructorOptions;
  readonly webContents = Object.assign(new EventEmitter(), { id: 900 + FakeWindow.created.length });
  readonly loaded: string[] = [];
  destroyed = false;
  constructor(options: Electron.BrowserWindowConstructorOptions) {
    super();
    this.options = options;
    FakeWindow.created.push(this);
  }
  async loadURL(url: string): Promise<void> {
    this.loaded.push(url);
  }
  isDestroyed(): boolean {
    return this.destroyed;
  }
  show(): void {}
  focus(): void {}
  close(): void {
    this.destroyed = true;
    this.emit('closed');
  }
}

const notice = (chatId: number, body = 'Is the store open on Sunday?'): IncomingNotice => ({
  chatId,
  messageKey: `k-${chatId}-${body.length}`,
  title: 'Dana Reyes',
  body,
});

function notifierFor(platform: NodeJS.Platform, showPreview = true) {
  const did: string[] = [];
  const notify = createNativeNotifier({
    Notification: FakeNotification as unknown as typeof Notification,
    platform,
    preferences: () => ({ enabled: true, showPreview, sound: false }),
    focusWindow: () => did.push('focus'),
    openChat: (chatId) => did.push(`open ${chatId}`),
    reply: (chatId, text) => did.push(`reply ${chatId} ${text}`),
    markRead: (chatId) => did.push(`read ${chatId}`),
    openQuickReply: (chatId) => did.push(`quick ${chatId}`),
  });
  return { notify, did, last: () => FakeNotification.shown.at(-1) as FakeNotification };
}

describe('notifications you can answer (Electron host)', () => {
  it('on macOS the notification has an inline reply field and Mark as read', () => {
    const { notify, did, last } = notifierFor('darwin');
    notify(notice(7));
    expect(last().options).toMatchObject({
      hasReply: true,
      actions: [{ type: 'button', text: 'Mark as read' }],
    });
    last().emit('reply', { reply: 'Yes, 10 to 4' });
    notify(notice(8));
    last().emit('action', { actionIndex: 0 });
    expect(did).toEqual(['reply 7 Yes, 10 to 4', 'read 8']);
  });

  it('on Windows the toast carries an input field with Reply and Mark as read, its text escaped', () => {
    const { notify, did, last } = notifierFor('win32');
    notify({ ...notice(7), title: 'Tom & <Jerry>' });
    const xml = last().options.toastXml ?? '';
    expect(xml).toContain('<input id="reply" type="text"');
    expect(xml).toContain('hint-inputId="reply"');
    expect(xml).toContain('content="Mark as read"');
    expect(xml).toContain('Tom &amp; &lt;Jerry&gt;');
    last().emit('reply', { reply: 'On my way' });
    expect(did).toEqual(['reply 7 On my way']);
  });

  it('on Linux Reply (or a click) opens the quick-reply window', () => {
    const { notify, did, last } = notifierFor('linux');
    notify(notice(7));
    expect(last().options.hasReply).toBeUndefined();
    last().emit('action', { actionIndex: 0 });
    notify(notice(9));
    last().emit('click');
    notify(notice(10));
    last().emit('action', { actionIndex: 1 });
    expect(did).toEqual(['quick 7', 'quick 9', 'read 10']);
  });

  it('keeps one notification per conversation, and shows no content when previews are off', () => {
    const { notify, last } = notifierFor('darwin', false);
    notify(notice(7, 'first'));
    const first = last();
    notify(notice(7, 'second'));
    expect(first.closed).toBe(true);
    expect(last().options.body).toBe('');
    notify(notice(8, 'other chat'));
    expect(last().closed).toBe(false);
  });

  it('the quick-reply window is small and on top, answers one chat at a time, and Esc closes it', () => {
    const adopted: number[] = [];
    const open = createQuickReplyOpener({
      BrowserWindow: FakeWindow as unknown as typeof BrowserWindow,
      preloadPath: '/app/preload.cjs',
      adopt: (w) => adopted.push(w.webContents.id),
    });
    const window = open(7) as unknown as FakeWindow;
    expect(window.options).toMatchObject({ alwaysOnTop: true, width: 380, resizable: false });
    expect(window.options.webPreferences).toMatchObject({ contextIsolation: true, sandbox: true });
    expect(window.loaded).toEqual([quickReplyUrl(7)]);
    expect(adopted).toEqual([window.webContents.id]);
    // Another reply reuses it for that chat
    expect(open(9)).toBe(window);
    expect(window.loaded.at(-1)).toBe(quickReplyUrl(9));
    // Esc closes it; the next one is a new window
    let prevented = false;
    window.webContents.emit(
      'before-input-event',
      { preventDefault: () => (prevented = true) },
      { type: 'keyDown', key: 'Escape' },
    );
    expect(prevented).toBe(true);
    expect(window.isDestroyed()).toBe(true);
    expect(open(7)).not.toBe(window);
  });
});

describe('a reply from a notification, through the real core', () => {
  let sandbox: RunningSandbox;
  let session: WorkspaceSession;
  const dir = tempDir('parley-quick-reply-');
  let chatId = 0;

  beforeAll(async () => {
    sandbox = await sandboxFor();
    session = new WorkspaceSession({
      dataDir: dir.path,
      connection: {
        baseUrl: sandbox.url,
        token: sandbox.tokens[0] as string,
        tokenHeader: 'X-PARTNER-INTEGRATION-TOKEN',
      },
      sync: { backgroundIntervalMs: 60_000, openChatIntervalMs: 60_000 },
    });
    await session.start();
    const chat = session.store.chats.list().find((c) => !c.isGroup && c.id > 0);
    if (!chat) throw new Error('the sandbox has no one-to-one chat');
    chatId = chat.id;
  });
  afterAll(async () => {
    await session.close();
    await sandbox.stop();
    dir.remove();
  });

  it('goes out once through the outbox and leaves the conversation read', async () => {
    // Given the customer wrote and the chat is unread
    await control(sandbox, 'POST', '/inbound/message', { chat_id: chatId, text: 'Are you open Sunday?' });
    session.sync.syncNow();
    await eventually(() => (session.store.chats.get(chatId)?.unreadCount ?? 0) > 0, 'the message to arrive');

    // When the agent answers from the notification
    const text = 'Yes — 10am to 4pm.';
    const key = await replyFromNotification(session, chatId, text);

    // Then it is sent once, and the conversation is read here and on the service
    await eventually(() => session.store.outbox.count() === 0, 'the outbox to empty');
    expect(session.store.messages.get(key)?.id).not.toBeNull();
    const { data } = await service<{ data: Array<{ text: string }> }>(
      sandbox,
      `/chats/${chatId}/chat_messages?sort=desc&per_page=20`,
    );
    expect(data.filter((m) => m.text === text)).toHaveLength(1);
    expect(session.store.chats.get(chatId)?.unreadCount).toBe(0);
    // An empty reply is refused as every empty message is, whichever way it was leaving (issue #20)
    await expect(replyFromNotification(session, chatId, '   ')).rejects.toThrow(
      'Type a message or add an attachment',
    );
    await expect(replyFromNotification(session, 999_999_999, 'x')).rejects.toThrow('No such chat');
    // Mark as read on a read chat asks nothing of the service
    await markChatRead(session, chatId);
  });
});
