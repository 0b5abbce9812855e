/**
 * The application menu: the platform's standard roles (so Cut/Copy/Paste, Undo, Hide, Quit, zoom and
 * window management have their usual shortcuts) plus Parley's own commands, which the renderer
 * receives as 'app.command' events.
 */
import type { MenuItemConstructorOptions } from 'electron';
import type { Events } from '../../../shared/contract/events.ts';

export type AppCommand = Events['app.command']['command'];

export interface MenuOptions {
  platform: NodeJS.Platform;
  appName: string;
  /** Development builds get reload and DevTools. */
  developer: boolean;
  command(command: AppCommand): void;
}

export function menuTemplate(options: MenuOptions): MenuItemConstructorOptions[] {
  const mac = options.platform === 'darwin';
  const run = (command: AppCommand) => () => options.command(command);
  const settings: MenuItemConstructorOptions = {
    label: mac ? 'Settings…' : 'Settings',
    accelerator: 'CmdOrCtrl+,',
    click: run('settings'),
  };
  const appMenu: MenuItemConstructorOptions[] = mac
    ? [
        {
          label: options.appName,
          submenu: [
            { role: 'about' },
            { type: 'separator' },
            settings,
            { type: 'separator' },
            { role: 'services' },
            { type: 'separator' },
            { role: 'hide' },
            { role: 'hideOthers' },
            { role: 'unhide' },
            { type: 'separator' },
            { role: 'quit' },
          ],
        },
      ]
    : [];
  const file: MenuItemConstructorOptions = {
    label: '&File',
    submenu: [
      { label: 'New Conversation', accelerator: 'CmdOrCtrl+N', click: run('newChat') },
      { label: 'Quick Switcher…', accelerator: 'CmdOrCtrl+K', click: run('quickSwitcher') },
      { label: 'Search Messages…', accelerator: 'CmdOrCtrl+Shift+F', click: run('search') },
      { type: 'separator' },
      ...(mac
        ? [{ role: 'close' } as const]
        : [settings, { type: 'separator' } as const, { role: 'quit' } as const]),
    ],
  };
  const view: MenuItemConstructorOptions = {
    label: '&View',
    submenu: [
      ...(options.developer
        ? [{ role: 'reload' } as const, { role: 'toggleDevTools' } as const, { type: 'separator' } as const]
        : []),
      { role: 'resetZoom' },
      { role: 'zoomIn' },
      { role: 'zoomOut' },
      { type: 'separator' },
      { role: 'togglefullscreen' },
    ],
  };
  const help: MenuItemConstructorOptions = {
    role: 'help',
    submenu: [{ label: 'Keyboard Shortcuts', accelerator: 'CmdOrCtrl+/', click: run('shortcuts') }],
  };
  return [...appMenu, file, { role: 'editMenu' }, view, { role: 'windowMenu' }, help];
}
