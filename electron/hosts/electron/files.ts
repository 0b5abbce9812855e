/**
 * Opening and saving received attachments (the core's `openFile` port). Whatever a customer sends is
 * untrusted: only documents the system opens in a viewer (pictures, PDF, audio, video, plain text) are
 * handed to the default app; anything else (an .exe, a script, a .desktop file, a macro document) can
 * only be saved where the user chooses, never opened with one click.
 */
import { copyFile, mkdir } from 'node:fs/promises';
import { basename, extname, join } from 'node:path';
import type { App, BrowserWindow, Dialog, Shell } from 'electron';
import { UserFacingError } from '../../core/index.ts';

const VIEWABLE = new Set([
  ...['.jpg', '.jpeg', '.png', '.gif', '.webp', '.heic', '.heif', '.bmp', '.tif', '.tiff'],
  ...['.pdf', '.txt', '.csv'],
  ...['.mp3', '.m4a', '.aac', '.wav', '.ogg', '.mp4', '.m4v', '.mov', '.webm'],
]);

/** A file name safe on every platform: no folders, no reserved or control characters. */
export function safeFilename(name: string): string {
  const cleaned = [...basename(name.replace(/\\/g, '/'))]
    .map((char) => (char < ' ' || '<>:"/\\|?*'.includes(char) ? '_' : char))
    .join('')
    .trim();
  return cleaned.replace(/^\.+/, '') || 'attachment';
}

/** Whether the system may open this file in its viewer (judged by the name it will be opened under). */
export function isViewable(filename: string): boolean {
  return VIEWABLE.has(extname(filename).toLowerCase());
}

export interface FilePortOptions {
  app: Pick<App, 'getPath'>;
  shell: Pick<Shell, 'openPath'>;
  dialog: Pick<Dialog, 'showSaveDialog'>;
  window(): BrowserWindow | undefined;
}

export function createFilePort(options: FilePortOptions) {
  const saveAs = async (path: string, filename: string): Promise<void> => {
    const defaultPath = join(options.app.getPath('downloads'), filename);
    const window = options.window();
    const choice = window
      ? await options.dialog.showSaveDialog(window, { defaultPath })
      : await options.dialog.showSaveDialog({ defaultPath });
    if (!choice.canceled && choice.filePath) await copyFile(path, choice.filePath);
  };
  return async (path: string, { save, filename }: { save: boolean; filename: string }): Promise<void> => {
    const name = safeFilename(filename);
    if (save || !isViewable(name)) return saveAs(path, name);
    // The cache names files by id (no extension); the viewer needs the real name to know the type.
    const dir = join(options.app.getPath('temp'), 'parley-open');
    await mkdir(dir, { recursive: true });
    const copy = join(dir, name);
    await copyFile(path, copy);
    const problem = await options.shell.openPath(copy);
    if (problem) throw new UserFacingError('open_failed', `The file could not be opened: ${problem}`);
  };
}
