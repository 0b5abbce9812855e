/**
 * The team inbox and the core (a workspace joined to its team's relay): the team picture loaded
 * once and kept live from `team.changed`, mentions from `team.mention`, assignment, team notes,
 * the team's replies, held sends, and what this agent is doing reported as it does it (a chat
 * opened: viewing; a reply typed: typing; a team note written: noting; input at all: not idle).
 * On any other workspace `team.state` is refused (`not_available`) and the team stays null.
 */
import type {
  TeamAvailability,
  TeamChatActivity,
  TeamMentionNotice,
  TeamNote,
  TeamSettingsView,
} from '../../shared/contract/team-views.ts';
import { isBridgeErrorShape } from '../../shared/contract/errors.ts';
import { parley } from '../bridge/parley.ts';
import { errorText } from '../lib/errors.ts';
import { applyTeamChanged, pictureOf } from '../lib/team-state.ts';
import { forgetOnWorkspaceReset, getState, useStore, workspaceEpoch } from '../store/index.ts';
import { selectChat } from './chats.ts';
import { notificationsSupported } from './notifications.ts';

/** A relay that did not answer is asked again after this long. */
const RETRY_MS = 5_000;
/** A pause this long in typing ends "typing a reply" (and the customer's typing indicator). */
const TYPING_PAUSE_MS = 6_000;
/** Input is reported at most this often (the core turns an agent away after idling). */
const INPUT_REPORT_MS = 20_000;

let listening = false;
let retry: ReturnType<typeof setTimeout> | undefined;

/** Loads the team of the active workspace (after start-up and after a workspace switch). */
export async function loadTeam(): Promise<void> {
  listen();
  clearTimeout(retry);
  const epoch = workspaceEpoch();
  try {
    const state = await parley.team.state();
    if (epoch !== workspaceEpoch()) return;
    getState().setTeam(pictureOf(state));
    void loadTeamReplies();
    reportOpenChat();
  } catch (error) {
    if (epoch !== workspaceEpoch()) return;
    getState().setTeam(null);
    // Not joined to a relay: no team, and nothing to retry. A relay away: try again shortly.
    if (isBridgeErrorShape(error) && error.code !== 'not_available' && error.retryable)
      retry = setTimeout(() => void loadTeam(), RETRY_MS);
  }
}

function listen(): void {
  if (listening) return;
  listening = true;
  parley.on('team.changed', (change) => {
    const team = getState().team;
    if (!team) return void loadTeam();
    getState().setTeam(applyTeamChanged(team, change));
    if (change.replies) getState().setTeamReplies(change.replies);
    for (const note of change.notes ?? []) putTeamNote(note);
  });
  parley.on('team.mention', onMention);
  // What is on screen is what the agent is viewing.
  useStore.subscribe((state, previous) => {
    if (state.selectedChatId !== previous.selectedChatId || state.view !== previous.view) reportOpenChat();
  });
  for (const input of ['keydown', 'pointerdown'] as const)
    window.addEventListener(input, reportInput, { passive: true, capture: true });
}

forgetOnWorkspaceReset(() => {
  clearTimeout(retry);
  clearTimeout(typingTimer);
  reported = null;
});

// ── mentions ─────────────────────────────────────────────────────────────────────────────────

function onMention(mention: TeamMentionNotice): void {
  const s = getState();
  s.announce(`${mention.title}: ${mention.body}`);
  s.pushToast(`${mention.title}: ${mention.body}`, 'info');
  if (!notificationsSupported() || Notification.permission !== 'granted') return;
  const notification = new Notification(mention.title, {
    body: mention.body,
    tag: `mention-${mention.noteSeq}`,
  });
  notification.onclick = () => {
    window.focus();
    selectChat(mention.chatId);
    notification.close();
  };
}

// ── what this agent is doing ─────────────────────────────────────────────────────────────────

/** The last activity reported, so each is sent once. */
let reported: { chatId: number; activity: TeamChatActivity } | null = null;
let typingTimer: ReturnType<typeof setTimeout> | undefined;
let lastInputReport = 0;

function report(chatId: number | null, activity: TeamChatActivity | null): void {
  if (!getState().team) return;
  const next = chatId === null || activity === null ? null : { chatId, activity };
  if (next?.chatId === reported?.chatId && next?.activity === reported?.activity) return;
  const left = reported;
  reported = next;
  lastInputReport = Date.now();
  // Leaving a conversation says so first: nobody is left shown in a chat the agent closed.
  if (left && left.chatId !== next?.chatId)
    void parley.team.activity({ chatId: left.chatId, activity: null }).catch(() => undefined);
  if (next) void parley.team.activity(next).catch(() => undefined);
}

/** The chat on screen (in the inbox), viewed; none when the agent is elsewhere. */
function reportOpenChat(): void {
  const s = getState();
  const chatId = s.view === 'inbox' ? s.selectedChatId : null;
  clearTimeout(typingTimer);
  report(chatId !== null && chatId > 0 ? chatId : null, 'viewing');
}

function writing(chatId: number, activity: 'typing' | 'noting', active: boolean): void {
  if (chatId <= 0) return;
  clearTimeout(typingTimer);
  if (!active) return report(chatId, 'viewing');
  report(chatId, activity);
  typingTimer = setTimeout(() => report(chatId, 'viewing'), TYPING_PAUSE_MS);
}

/** The composer's text changed: typing a reply while there is text, else only viewing. */
export function reportComposing(chatId: number, hasText: boolean): void {
  writing(chatId, 'typing', hasText);
}

/** A team note is being written (or was closed). */
export function reportNoting(chatId: number, active: boolean): void {
  writing(chatId, 'noting', active);
}

function reportInput(): void {
  if (!getState().team || Date.now() - lastInputReport < INPUT_REPORT_MS) return;
  lastInputReport = Date.now();
  void parley.team.activity({}).catch(() => undefined);
}

export async function setMyAvailability(availability: TeamAvailability): Promise<void> {
  const team = getState().team;
  if (!team) return;
  getState().setTeam({ ...team, myAvailability: availability });
  try {
    await parley.team.setAvailability({ availability });
  } catch (error) {
    getState().setTeam({ ...(getState().team ?? team), myAvailability: team.myAvailability });
    getState().pushToast(errorText(error), 'error');
  }
}

/**
 * An admin's change to the team's settings, shown at once (every desktop hears the relay's copy);
 * a refusal puts them back and says why.
 */
export async function updateTeamSettings(change: Partial<TeamSettingsView>): Promise<void> {
  const team = getState().team;
  if (!team) return;
  getState().setTeam({ ...team, settings: { ...team.settings, ...change } });
  try {
    const settings = await parley.team.updateSettings(change);
    const now = getState().team;
    if (now) getState().setTeam(applyTeamChanged(now, { settings }));
    getState().announce('Team settings saved for everyone');
  } catch (error) {
    const now = getState().team;
    if (now) getState().setTeam({ ...now, settings: team.settings });
    getState().pushToast(errorText(error), 'error');
  }
}

// ── assignment ───────────────────────────────────────────────────────────────────────────────

function assigned(result: Awaited<ReturnType<typeof parley.team.assign>>, words: string): void {
  const team = getState().team;
  if (team) getState().setTeam(applyTeamChanged(team, { assignments: [result] }));
  getState().announce(words);
}

/** Gives a conversation to an agent (this one: a claim), with a hand-off note, or to nobody. */
export async function assignChat(chatId: number, to: string | null, note?: string): Promise<void> {
  try {
    const result = await parley.team.assign({ chatId, to, ...(note ? { note } : {}) });
    assigned(result, result.assigneeName ? `Assigned to ${result.assigneeName}` : 'Unassigned');
  } catch (error) {
    getState().pushToast(errorText(error), 'error');
  }
}

export async function takeOver(chatId: number): Promise<void> {
  try {
    assigned(await parley.team.takeOver({ chatId }), 'You took over this conversation');
  } catch (error) {
    getState().pushToast(errorText(error), 'error');
  }
}

// ── held sends ───────────────────────────────────────────────────────────────────────────────

/** "Send anyway" (now having seen what was new) or "Discard" a send the relay held. */
export async function answerHeld(key: string, answer: 'sendAnyway' | 'discard'): Promise<void> {
  try {
    await parley.team.answerHeld({ key, answer });
  } catch (error) {
    getState().pushToast(errorText(error), 'error');
  }
}

// ── team notes ───────────────────────────────────────────────────────────────────────────────

/** A new note into its conversation's timeline, once, in order (opening it loads them all). */
function putTeamNote(note: TeamNote): void {
  const notes = getState().teamNotes[note.chatId] ?? [];
  if (notes.some((n) => n.seq === note.seq)) return;
  getState().setTeamNotes(
    note.chatId,
    [...notes, note].sort((a, b) => a.seq - b.seq),
  );
}

export async function loadTeamNotes(chatId: number): Promise<void> {
  if (!getState().team || chatId <= 0) return;
  const epoch = workspaceEpoch();
  try {
    const notes = await parley.team.listNotes({ chatId });
    if (epoch === workspaceEpoch()) getState().setTeamNotes(chatId, notes);
  } catch {
    // The relay away: the timeline keeps the notes it showed; the next open asks again.
  }
}

/** Adds a team note; false (with the reason shown) when it was refused. */
export async function addTeamNote(chatId: number, text: string): Promise<boolean> {
  try {
    putTeamNote(await parley.team.addNote({ chatId, text }));
    getState().announce('Team note saved. Your team sees it; the customer never does.');
    reportNoting(chatId, false);
    return true;
  } catch (error) {
    getState().pushToast(errorText(error), 'error');
    return false;
  }
}

// ── the team's replies ───────────────────────────────────────────────────────────────────────

export async function loadTeamReplies(): Promise<void> {
  try {
    getState().setTeamReplies(await parley.team.listReplies());
  } catch {
    // Kept as they were; the next look at canned replies asks again.
  }
}

/** Saves a team reply for everyone; the problem in words, or null once saved. */
export async function saveTeamReply(reply: {
  id?: string;
  title: string;
  body: string;
}): Promise<string | null> {
  try {
    await parley.team.saveReply(reply);
    await loadTeamReplies();
    getState().announce(`Saved “${reply.title}” for the team`);
    return null;
  } catch (error) {
    return errorText(error);
  }
}

export async function deleteTeamReply(id: string): Promise<void> {
  try {
    await parley.team.removeReply({ id });
    await loadTeamReplies();
  } catch (error) {
    getState().pushToast(errorText(error), 'error');
  }
}
