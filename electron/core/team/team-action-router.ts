/**
 * An agent's team action on the relay, from its subject to its answer: which agent and which action
 * the subject names (only that agent may publish there), the agent still on the team, the request
 * read, the role allowed (team-roles.ts, refused in words and audited), then the action itself
 * (team-actions.ts, team-settings.ts). Apart from team-relay.ts, which serves the subjects and owns
 * the relay's state; this is the one path every action takes.
 */
import type { Msg, NatsConnection } from '@nats-io/transport-node';
import { parseTeamActionSubject } from '../relay/team-subjects.ts';
import { AssignRequest } from './assignment-rules.ts';
import { recordAudit } from './audit.ts';
import {
  assign,
  CannedRequest,
  editTeamReply,
  NoteRequest,
  parseRequest,
  refuse,
  writeNote,
  type ActionReply,
  type TeamActionContext,
} from './team-actions.ts';
import { roleRefusal, type GuardedAction } from './team-roles.ts';
import { chatNotes, latestActivity, LatestRequest, NotesRequest } from './team-history.ts';
import { SettingsChange } from './team-settings.ts';
import type { TeamRole, TeamSettings } from './wire.ts';

/** What an action may need of the relay's team layer (TeamRelay). */
export interface TeamActionRoute {
  ctx: TeamActionContext;
  /** The relay's engine connection (the team stream's reads). */
  engine: NatsConnection;
  /** The relay's directory, read on every action (TeamRelayOptions.agents). */
  agents: () => ReadonlyArray<{ id: string; name: string; role?: TeamRole | undefined }>;
  /** Names an agent new since the last look at once. */
  publishRoster: () => Promise<void>;
  settings: () => Promise<TeamSettings>;
  updateSettings: (change: Partial<TeamSettings>, by: string) => Promise<TeamSettings>;
}

/**
 * The answer to one action request; `asker` is the agent the server vouches asked (the subject must
 * name the same one: it is what the audit log says).
 */
export async function routeTeamAction(msg: Msg, asker: string, route: TeamActionRoute): Promise<ActionReply> {
  const { ctx } = route;
  const address = parseTeamActionSubject(msg.subject);
  if (!address) return refuse('unknown_action', 'There is no such team action');
  if (address.agentId !== asker)
    return refuse('not_yours', 'A team action is asked in its own agent’s name only');
  // Reads of a chat's history: the server vouches the asker has an account on the team's server,
  // which is all a read needs (a relay on a server run elsewhere may not list every agent).
  if (address.action === 'notes') {
    const parsed = parseRequest(NotesRequest, msg.data);
    return 'reply' in parsed ? parsed.reply : chatNotes(route.engine, parsed.value);
  }
  if (address.action === 'latest') {
    const parsed = parseRequest(LatestRequest, msg.data);
    return 'reply' in parsed ? parsed.reply : latestActivity(route.engine, parsed.value);
  }
  if (!ctx.agents().has(address.agentId)) return refuse('unknown_agent', 'This agent is not on the team');
  await route.publishRoster(); // an agent new since the last look is named at once
  switch (address.action) {
    case 'assign': {
      const parsed = parseRequest(AssignRequest, msg.data);
      return 'reply' in parsed ? parsed.reply : assign(ctx, address.agentId, parsed.value);
    }
    case 'note': {
      const parsed = parseRequest(NoteRequest, msg.data);
      return 'reply' in parsed ? parsed.reply : writeNote(ctx, address.agentId, parsed.value);
    }
    case 'canned': {
      const parsed = parseRequest(CannedRequest, msg.data);
      if ('reply' in parsed) return parsed.reply;
      return (
        (await refusedByRole(route, 'canned', address.agentId)) ??
        editTeamReply(ctx, address.agentId, parsed.value)
      );
    }
    case 'settings': {
      const parsed = parseRequest(SettingsChange, msg.data);
      if ('reply' in parsed) return parsed.reply;
      return (
        (await refusedByRole(route, 'settings', address.agentId)) ?? {
          ok: true,
          settings: await route.updateSettings(parsed.value, address.agentId),
        }
      );
    }
  }
}

/** A refusal in words (and in the audit log) when the agent's role does not allow `action`. */
async function refusedByRole(
  route: TeamActionRoute,
  action: GuardedAction,
  agentId: string,
): Promise<ActionReply | undefined> {
  const team = route.agents();
  const refusal = roleRefusal(
    action,
    team.find((agent) => agent.id === agentId)?.role ?? 'agent',
    await route.settings(),
    team.filter((agent) => agent.role === 'admin').map((agent) => agent.name),
  );
  if (!refusal) return undefined;
  await recordAudit(route.ctx.js, {
    action: 'refused',
    by: agentId,
    detail: refusal.refused,
    at: route.ctx.now(),
  });
  return refuse(refusal.code, refusal.message);
}
