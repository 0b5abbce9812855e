/**
 * The team as one desktop last heard it (roster, settings, presence, assignments), and what each
 * watched change changes of it for the renderer (`team.changed`: only what differs).
 */
import type { TeamChanged, TeamCounts, TeamState } from '../../../shared/contract/team-views.ts';
import { countViews } from './assignment-rules.ts';
import { agentsView, assignmentView, changedEntries, presenceView } from './desk-views.ts';
import type { TeamPresence } from './presence-view.ts';
import { TeamSettings, type Assignment, type Availability, type TeamRole } from './wire.ts';

type Roster = ReadonlyArray<{ id: string; name: string; role?: TeamRole | undefined }>;

export class TeamPicture {
  readonly #me: string;
  /** This desktop's chats (the views' counts are over them). */
  readonly #chatIds: () => number[];
  #presence: TeamPresence = { agents: new Map(), chats: new Map() };
  #assignments = new Map<number, Assignment>();
  #settings: TeamSettings = TeamSettings.parse({});
  #roster: Roster = [];
  /** The chats the counts last told were counted over, and those counts (to tell only a change). */
  #counted = new Set<number>();
  #told: TeamCounts | undefined;

  constructor(me: string, chatIds: () => number[]) {
    this.#me = me;
    this.#chatIds = chatIds;
  }

  readonly nameOf = (agentId: string): string =>
    this.#roster.find((agent) => agent.id === agentId)?.name ?? agentId;

  ownerOf(chatId: number): string | null {
    return this.#assignments.get(chatId)?.assignee ?? null;
  }

  get settings(): TeamSettings {
    return this.#settings;
  }

  state(myAvailability: Availability): TeamState {
    return {
      me: { id: this.#me, name: this.nameOf(this.#me) },
      myAvailability,
      agents: this.#agents(this.#presence),
      presence: [...presenceView(this.#presence, this.nameOf).values()],
      assignments: [...this.#assignments.values()].map((a) => assignmentView(a, this.nameOf)),
      settings: { ...this.#settings },
      counts: this.#counts(),
    };
  }

  team(team: { settings: TeamSettings; roster: Roster }): TeamChanged {
    const change: TeamChanged = {};
    if (JSON.stringify(team.settings) !== JSON.stringify(this.#settings))
      change.settings = { ...team.settings };
    this.#settings = team.settings;
    if (JSON.stringify(team.roster) !== JSON.stringify(this.#roster)) {
      this.#roster = team.roster;
      change.agents = this.#agents(this.#presence);
      // Presence and assignments carry names: an agent named for the first time (or renamed) is
      // shown by name there too, not by the id it had until the roster came.
      const presence = [...presenceView(this.#presence, this.nameOf).values()];
      if (presence.length > 0) change.presence = presence;
      const assignments = [...this.#assignments.values()].map((a) => assignmentView(a, this.nameOf));
      if (assignments.length > 0) change.assignments = assignments;
    }
    return change;
  }

  presence(presence: TeamPresence): TeamChanged {
    const before = this.#presence;
    this.#presence = presence;
    const { changed, gone } = changedEntries(
      presenceView(before, this.nameOf),
      presenceView(presence, this.nameOf),
    );
    const agents = this.#agents(presence);
    return {
      ...(changed.length + gone.length > 0
        ? { presence: [...changed, ...gone.map((chatId) => ({ chatId, agents: [] }))] }
        : {}),
      ...(JSON.stringify(agents) !== JSON.stringify(this.#agents(before)) ? { agents } : {}),
    };
  }

  assignments(entries: ReadonlyMap<number, { value: Assignment }>): TeamChanged {
    const next = new Map([...entries].map(([chatId, entry]) => [chatId, entry.value]));
    const { changed, gone } = changedEntries(this.#assignments, next);
    this.#assignments = next;
    if (changed.length + gone.length === 0) return {};
    return {
      ...(changed.length > 0 ? { assignments: changed.map((a) => assignmentView(a, this.nameOf)) } : {}),
      ...(gone.length > 0 ? { unassigned: gone } : {}),
      counts: this.#counts(),
    };
  }

  /**
   * The desktop's chats changed (`chatIds`, with their summaries when known: an id without one is
   * gone): the counts again when a chat is new, gone or got its real id (a workspace's first sync, a
   * customer's new conversation, a removed one), and only when they differ from those last told.
   */
  chatsChanged(change?: {
    chatIds: readonly number[];
    chats?: ReadonlyArray<{ id: number }> | undefined;
  }): TeamChanged {
    const summarized = change?.chats ? new Set(change.chats.map((chat) => chat.id)) : undefined;
    const same =
      change !== undefined &&
      summarized !== undefined &&
      change.chatIds.every((id) => this.#counted.has(id) && summarized.has(id));
    if (same) return {};
    const before = this.#told;
    const counts = this.#counts();
    return JSON.stringify(counts) === JSON.stringify(before) ? {} : { counts };
  }

  #agents(presence: TeamPresence) {
    return agentsView(this.#roster, presence, this.#me, this.nameOf);
  }

  #counts(): TeamCounts {
    this.#counted = new Set(this.#chatIds().filter((id) => id > 0));
    this.#told = countViews(this.#counted, this.#assignments, this.#me);
    return this.#told;
  }
}
