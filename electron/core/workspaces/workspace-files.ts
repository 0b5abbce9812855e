/**
 * The registry's files: workspaces.json (the list, written atomically; a corrupt one is kept aside)
 * and each workspace's data folder, `workspaces/<id>/` (cache database, downloaded attachments).
 */
import { readdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { createLogger } from '../log/logger.ts';
import { readJsonFile, writeJsonFileAtomic } from '../settings/json-file.ts';
import { workspacesFileSchema, type Workspace } from './workspace.ts';

const log = createLogger('workspaces');

export const WORKSPACES_FILE = 'workspaces.json';

/** The workspaces in the file; none when it is missing or corrupt (kept aside, and said in the log). */
export function loadWorkspaces(file: string, now: Date): readonly Workspace[] {
  const result = readJsonFile(file, (raw) => workspacesFileSchema.parse(raw), now);
  if (result.kind === 'corrupt') {
    log.error('workspaces file was invalid; kept aside, starting without workspaces', {
      keptAs: result.keptAs,
      reason: result.reason,
    });
  }
  if (result.kind !== 'ok') return [];
  const all = result.value.workspaces;
  // The demo only lives alongside nothing else (a crash in add() could have left both).
  return frozen(all.some((w) => w.kind !== 'demo') ? all.filter((w) => w.kind !== 'demo') : all);
}

/** Writes the list and returns it as the registry hands it out. */
export function saveWorkspaces(file: string, workspaces: Workspace[]): readonly Workspace[] {
  writeJsonFileAtomic(file, { version: 1, workspaces });
  return frozen(workspaces);
}

/** Where a workspace keeps its local data. */
export function workspaceDataDir(dataDir: string, id: string): string {
  return join(dataDir, 'workspaces', id);
}

/**
 * Deletes a removed workspace's data folder, after `release` let the host close what it holds open
 * there; a folder that cannot go now is swept at the next start.
 */
export async function deleteWorkspaceData(
  dataDir: string,
  id: string,
  release: ((workspaceId: string) => Promise<void>) | undefined,
): Promise<void> {
  try {
    await release?.(id);
    // Retries ride out brief locks (antivirus, a just-closed database on Windows).
    rmSync(workspaceDataDir(dataDir, id), { recursive: true, force: true, maxRetries: 3, retryDelay: 100 });
  } catch (error) {
    // The workspace is already gone from the list; sweepOrphanFolders() finishes this next start.
    log.warn('could not delete workspace data; will retry at next start', { id, error });
  }
}

/**
 * Deletes data folders that belong to no workspace: left behind when a removal could not delete
 * its folder (a file still open), or by a crash between the steps of remove().
 */
export function sweepOrphanFolders(dataDir: string, exists: (id: string) => boolean): void {
  const root = join(dataDir, 'workspaces');
  let names: string[];
  try {
    names = readdirSync(root);
  } catch {
    return; // no folder yet
  }
  for (const name of names) {
    if (exists(name)) continue;
    try {
      rmSync(join(root, name), { recursive: true, force: true });
      log.info('deleted data of a removed workspace', { id: name });
    } catch (error) {
      log.warn('could not delete data of a removed workspace', { id: name, error });
    }
  }
}

/** Workspaces handed out are frozen: changes go through the registry, which persists and announces them. */
function frozen(workspaces: readonly Workspace[]): readonly Workspace[] {
  return Object.freeze(workspaces.map((w) => Object.freeze({ ...w })));
}
