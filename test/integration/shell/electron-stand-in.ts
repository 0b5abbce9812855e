/**
 * A recording stand-in for the `electron` module of the main process, for running the built
 * dist/electron/main.js in plain Node (register-electron-stand-in.ts maps `electron` here). It keeps
 * Electron's rules that a composition can break (nothing window-, tray-, screen- or session-related
 * before `ready`; schemes registered before it; one handler per invoke channel; `before-quit` can be
 * deferred; quitting closes the windows) and reports what the app did to the test over the IPC
 * channel of `child_process.fork`. The test drives it back: invoke a channel as the window's page
 * would, or quit as the menu would.
 * The app, windows and IPC are in electron-stand-in-app.ts, the other modules in
 * electron-stand-in-services.ts; this file is the `electron` module and takes the test's commands.
 * Runs in Node directly (type stripping): erasable TypeScript only, and no imports from the app.
 */
import { app, BrowserWindow, invokeHandlers, ipcMain, tell, windows } from './electron-stand-in-app.ts';
import type { ShellCommand } from './electron-stand-in-messages.ts';
import {
  dialog,
  Menu,
  nativeImage,
  Notification,
  protocol,
  screen,
  session,
  shell,
  Tray,
} from './electron-stand-in-services.ts';

export {
  app,
  BrowserWindow,
  dialog,
  ipcMain,
  Menu,
  nativeImage,
  Notification,
  protocol,
  screen,
  session,
  shell,
  Tray,
};

/** The test's side: a call from the window's page, or a quit. */
process.on('message', (command: ShellCommand) => {
  if (command.type === 'quit') {
    app.quit();
    return;
  }
  const [window] = windows;
  const handler = invokeHandlers.get(command.channel);
  const reply = async (): Promise<unknown> => {
    if (!window) throw new Error('no window to call from');
    if (!handler) throw new Error(`No handler registered for '${command.channel}'`);
    const event = {
      sender: window.webContents,
      senderFrame: { url: window.webContents.getURL(), parent: null },
      processId: 1,
      frameId: 1,
    };
    return structuredClone(await handler(event, ...structuredClone(command.args)));
  };
  reply().then(
    (value) => tell({ type: 'invoked', id: command.id, ok: true, value }),
    (error: unknown) => tell({ type: 'invoked', id: command.id, ok: false, error: String(error) }),
  );
});

export default {
  app,
  BrowserWindow,
  dialog,
  ipcMain,
  Menu,
  nativeImage,
  Notification,
  protocol,
  screen,
  session,
  shell,
  Tray,
};
