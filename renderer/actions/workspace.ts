/** Workspaces, settings and the live connection. */
import type {
  ApiVersionCheck,
  PublicSettings,
  TunnelProvider,
  WorkspaceList,
} from '../../shared/contract/views.ts';
import type { ApiVersion } from '../../shared/domain.ts';
import { parley } from '../bridge/parley.ts';
import { errorText } from '../lib/errors.ts';
import { getState, resetWorkspaceData } from '../store/index.ts';
import { loadChats, selectChat } from './chats.ts';
import { loadContacts } from './contacts.ts';
import { loadLines } from './lines.ts';
import { restorePlace } from './place.ts';
import { loadWorkbench } from './workbench.ts';

export async function loadWorkspaceData(): Promise<void> {
  await Promise.all([
    parley.app.info().then((info) => getState().setAppInfo(info)),
    parley.settings.get().then((settings) => {
      getState().setSettings(settings);
      void restorePlace(settings.place);
    }),
    loadLines(),
    // The inbox first: the workbench's lists (Waiting on you carries whole chats) are asked for once
    // its rows are in, so their answers do not stand between the rows and the first frame.
    loadChats().then(() => loadWorkbench()),
    refreshLiveStatus(),
    // The team layer (a joined workspace's) loads off the boot path; elsewhere it finds no team.
    import('./team.ts').then((team) => team.loadTeam()),
  ]).catch((error: unknown) => getState().pushToast(errorText(error), 'error'));
}

/**
 * The core switched workspaces (or the list changed): a new active one means a new inbox. Between
 * two workspaces there may be none active (connecting an organization removes the demo first):
 * everything is cleared then too, and loaded once one is active again. Before the first list
 * (start-up loads it itself) there is nothing to clear.
 */
export function onWorkspacesChanged(list: WorkspaceList): void {
  const s = getState();
  const known = s.workspaces.length > 0 || s.activeWorkspaceId !== null;
  const switched = known && s.activeWorkspaceId !== list.activeId;
  s.setWorkspaces(list.workspaces, list.activeId);
  if (!switched) return;
  selectChat(null);
  resetWorkspaceData();
  if (list.activeId === null) return;
  void loadWorkspaceData();
  if (s.view === 'contacts') void loadContacts();
}

export async function loadWorkspaces(): Promise<void> {
  const list = await parley.workspaces.list();
  getState().setWorkspaces(list.workspaces, list.activeId);
}

export async function switchWorkspace(id: string): Promise<void> {
  try {
    onWorkspacesChanged(await parley.workspaces.switch({ id }));
  } catch (error) {
    getState().pushToast(errorText(error), 'error');
  }
}

export async function renameWorkspace(id: string, name: string): Promise<void> {
  await parley.workspaces.rename({ id, name });
  await loadWorkspaces();
}

export async function removeWorkspace(id: string): Promise<void> {
  onWorkspacesChanged(await parley.workspaces.remove({ id }));
}

/** Which API versions the token works with, before connecting; rejects like `connectWorkspace`. */
export async function probeWorkspace(input: {
  baseUrl: string;
  token: string;
  tokenHeader?: string;
}): Promise<ApiVersionCheck> {
  return parley.workspaces.probe(input);
}

/** Connects a workspace; rejects with the core's BridgeError for the form to show. */
export async function connectWorkspace(input: {
  name: string;
  baseUrl: string;
  token: string;
  tokenHeader?: string;
  apiVersion?: ApiVersion;
}): Promise<void> {
  await parley.workspaces.add(input);
  const list = await parley.workspaces.list();
  onWorkspacesChanged(list);
}

/** Joins the team's relay with a join code; rejects with the core's BridgeError for the form to show. */
export async function joinTeam(input: { joinCode: string; relayUrl?: string; name?: string }): Promise<void> {
  await parley.workspaces.join(input);
  const list = await parley.workspaces.list();
  onWorkspacesChanged(list);
}

/**
 * Moves a workspace to another API version; rejects with the core's BridgeError for the row to show.
 * The core answers once the session has reopened, so the active inbox is read again from it.
 */
export async function changeApiVersion(id: string, apiVersion: ApiVersion): Promise<void> {
  await parley.workspaces.setApiVersion({ id, apiVersion });
  await loadWorkspaces();
  if (getState().activeWorkspaceId !== id) return;
  await Promise.all([
    parley.app.info().then((info) => getState().setAppInfo(info)),
    loadLines(),
    loadChats(),
  ]).catch((error: unknown) => getState().pushToast(errorText(error), 'error'));
}

export async function updateSettings(patch: {
  theme?: PublicSettings['theme'];
  typingMode?: PublicSettings['typingMode'];
  notifications?: Partial<PublicSettings['notifications']>;
}): Promise<void> {
  try {
    getState().setSettings(await parley.settings.update(patch));
  } catch (error) {
    getState().pushToast(errorText(error), 'error');
  }
}

/** Reads the live status once (start-up, a new workspace, the panel's counters); changes arrive as 'live.status'. */
export async function refreshLiveStatus(): Promise<void> {
  const live = await parley.webhooks.status().catch(() => null);
  if (live) getState().setLive(live);
}

export async function configureLive(input: {
  enabled: boolean;
  provider: TunnelProvider;
  customPublicUrl?: string;
  ngrokAuthtoken?: string;
}): Promise<void> {
  getState().setLive(await parley.webhooks.configure(input));
  getState().setSettings(await parley.settings.get());
}

export async function syncNow(): Promise<void> {
  await parley.app.syncNow().catch((error: unknown) => getState().pushToast(errorText(error), 'error'));
}

/** Opens a link in the agent's browser (the core checks it against the allow-list first). */
export async function openLink(url: string): Promise<void> {
  await parley.app.openExternal({ url });
}
