/**
 * The core's door for the relay host (electron/relay/): the same core run headless for one
 * organization (a workspace session, its store, sync and live events, a vault), and what the relay
 * and a desktop joined to it both speak (subjects, permissions, join codes, the change and outcome
 * schemas), and the team layer the relay runs. The relay host imports nothing else of the core but
 * its logger; `eslint/layers.js` refuses any other path, and the desktop hosts' door (`index.ts`)
 * carries none of this.
 */
export { KeyringVault } from './vault/index.ts';
export { isLoopbackHost } from './util.ts';
export { isPartnerApiError, PartnerApiError } from './api/errors.ts';
export { createTunnel, isV3Event, RealtimeService, type TunnelSettings } from './realtime/index.ts';
export { WorkspaceSession } from './session.ts';
export type { LocalStore } from './store/local-store.ts';
export type { MessageRecord } from './store/records.ts';
export type { SyncOptions } from './sync/engine.ts';
export type { Reconciler } from './sync/reconciler.ts';
export type { ContactsPort, ListedChat, MessagingService, OutgoingContent } from './sync/messaging.ts';
export { InMemoryVault } from './vault/memory-vault.ts';
export { FileVault } from './vault/file-vault.ts';
export { isVaultUnavailable } from './vault/vault.ts';
export type { Vault } from './vault/vault.ts';
// What the relay and a desktop joined to it both speak: subjects, permissions, join codes.
export { encodeJoinCode } from './relay/join-code.ts';
export { allocateEventIds, EVENT_IDS_HEADER } from './relay/event-ids.ts';
export { polledChangeId, type PolledChange } from './relay/polled-changes.ts';
export { ChangeRequestSchema, type ParsedChange } from './relay/changes.ts';
export { ensureAgentFiles, getFile, openAgentFilesAsRelay, putFile } from './relay/files.ts';
export {
  ChangeOutcomeSchema,
  MAX_NEWEST_CHATS,
  type ChangeOutcome,
  type RemoteIds,
} from './relay/protocol.ts';
export { RelayMessaging } from './relay/relay-messaging.ts';
export { admitRelayedSend } from './outbox/send-door.ts';
export { SendRefused } from './outbox/send-rules.ts';
export { askerOf, refusal, serveRequests, type Reply, type ReplyError } from './relay/responder.ts';
export { LIVE_PULL } from './relay/live-pull.ts';
export {
  agentAccount,
  agentFilesApi,
  agentFilesDeliveries,
  agentImports,
  ORG_ACCOUNT,
  ORG_API,
  orgExports,
} from './relay/grants.ts';
export {
  agentFilesBucket,
  EVENT_LOG_STREAM,
  EVENT_LOG_SUBJECTS,
  eventLogSubject,
  parseSendSubject,
  POLLED_CHANGES_SUBJECT,
  POLL_LEASE_BUCKET,
  READ_SUBJECTS,
  RELAY_INFO_SUBJECT,
  SEND_OUTCOMES_BUCKET,
  SENDS_STREAM,
  SENDS_SUBJECTS,
  sendOutcomeKey,
} from './relay/subjects.ts';
// The team layer (issue #19): presence, assignment, notes, team replies, audit; see team/README.md.
export {
  ASSIGNMENTS_BUCKET,
  assignmentKey,
  AUDIT_STREAM,
  AUDIT_SUBJECTS,
  CANNED_REPLIES_BUCKET,
  PRESENCE_BUCKET,
  TEAM_ACTION_SUBJECTS,
  TEAM_BUCKET,
  TEAM_STREAM,
  TEAM_SUBJECTS,
} from './relay/team-subjects.ts';
export {
  FOLLOW_REQUEST_SUBJECTS,
  FOLLOW_SLOTS,
  FollowRequest,
  followConsumerName,
  followDeliverySubject,
  isFollowSlot,
  type FollowSlot,
} from './relay/follow-slots.ts';
export { formatAuditEntry, readAudit, recordAudit } from './team/audit.ts';
export { composerState } from './team/assignment-rules.ts';
export { TeamRelay } from './team/team-relay.ts';
export { changeTeamSettings, readTeamSettings, SettingsChange } from './team/team-settings.ts';
export { Assignment, MAX_TEAM_MESSAGE_BYTES, TEAM_ROLES, TeamSettings, type TeamRole } from './team/wire.ts';
