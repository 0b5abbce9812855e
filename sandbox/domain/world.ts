import { randomBytes } from 'node:crypto';
import type { Clock } from '../clock.ts';
import type { Random } from '../random.ts';
import { hashSeed } from '../random.ts';
import type { DomainEvent, EventListener } from './events.ts';
import type {
  Message,
  Org,
  OrgFeatures,
  Persona,
  Service,
  V3WebhookEventType,
  WebhookEventType,
} from './model.ts';

export interface SandboxConfig {
  /** Time from `pending` to `delivered` per service, in simulated milliseconds. */
  deliveryDelayMs: Record<Service, number>;
  typingTimeoutMs: number;
  rateLimit: { perSecond: number; burst: number };
  /** iMessage availability checks allowed per token: one per this interval. */
  availabilityIntervalMs: number;
  attachmentMaxBytes: number;
  attachmentDownloadTimeoutMs: number;
  webhook: { receiptTimeoutMs: number; maxRetries: number; retryBaseMs: number };
  dailyNewChatQuota: number;
  /** No unprompted customer activity (replies to sends still happen). */
  quiet: boolean;
}

export const DEFAULT_CONFIG: SandboxConfig = {
  deliveryDelayMs: { iMessage: 1000, RCS: 1000, SMS: 2000 },
  typingTimeoutMs: 60_000,
  rateLimit: { perSecond: 50, burst: 100 },
  availabilityIntervalMs: 10_000,
  attachmentMaxBytes: 100 * 1024 * 1024,
  attachmentDownloadTimeoutMs: 30_000,
  webhook: { receiptTimeoutMs: 10_000, maxRetries: 10, retryBaseMs: 1_500 },
  dailyNewChatQuota: 1000,
  quiet: false,
};

export function cloneConfig(config: SandboxConfig): SandboxConfig {
  return structuredClone(config);
}

export interface StoredFile {
  data: Buffer;
  mimeType: string;
  filename: string;
}

/** Hooks the simulation registers to react to what the organization does. */
export interface WorldObserver {
  outboundMessage?(org: Org, chatId: number, message: Message): void;
}

export interface World {
  readonly clock: Clock;
  random: Random;
  readonly config: SandboxConfig;
  /** Public base URL of the running server (attachment URLs are built from it). */
  baseUrl: string;
  orgs: Org[];
  orgByToken: Map<string, Org>;
  personas: Map<string, Persona>;
  files: Map<string, StoredFile>;
  nextId(kind: IdKind): number;
  newUuid(): string;
  emit(org: Org, type: WebhookEventType, data: Record<string, unknown>, traceId?: string | null): void;
  emitV3(
    org: Org,
    type: V3WebhookEventType,
    data: Record<string, unknown>,
    context?: { traceId?: string | null; lineNumber?: string | null },
  ): void;
  onEvent(listener: EventListener): () => void;
  observers: WorldObserver[];
  persona(identifier: string): Persona;
  orgById(id: number): Org | undefined;
  /** Forgets every organization, person, file and pending timer; ids start over. */
  clear(random: Random): void;
}

export type IdKind =
  'org' | 'user' | 'line' | 'contact' | 'chat' | 'handle' | 'message' | 'reaction' | 'subscription';

const ID_START: Record<IdKind, number> = {
  org: 1,
  user: 100,
  line: 10,
  contact: 5000,
  chat: 1000,
  handle: 20000,
  message: 100000,
  reaction: 700000,
  subscription: 1,
};

export function createWorld(
  clock: Clock,
  random: Random,
  config: SandboxConfig = cloneConfig(DEFAULT_CONFIG),
): World {
  const counters = new Map<IdKind, number>();
  const listeners = new Set<EventListener>();
  const personas = new Map<string, Persona>();
  const world: World = {
    clock,
    random,
    config,
    baseUrl: 'http://127.0.0.1',
    orgs: [],
    orgByToken: new Map(),
    personas,
    files: new Map(),
    observers: [],
    nextId(kind) {
      const id = counters.get(kind) ?? ID_START[kind];
      counters.set(kind, id + 1);
      return id;
    },
    newUuid: () => world.random.uuid(),
    emit(org, type, data, traceId = null) {
      const event: DomainEvent = { org, family: 'v2', type, data, traceId, lineNumber: null };
      for (const listener of listeners) listener(event);
    },
    emitV3(org, type, data, context = {}) {
      const event: DomainEvent = {
        org,
        family: 'v3',
        type,
        data,
        traceId: context.traceId ?? null,
        lineNumber: context.lineNumber ?? null,
      };
      for (const listener of listeners) listener(event);
    },
    onEvent(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    persona(identifier) {
      const known = personas.get(identifier);
      if (known) return known;
      // Unknown numbers get stable capabilities derived from the number itself.
      const h = hashSeed(identifier) % 10;
      const created: Persona = {
        identifier,
        firstName: '',
        lastName: '',
        imessage: identifier.includes('@') || h < 6,
        rcs: h >= 6 && h < 8,
        reachable: true,
        autoReply: true,
        failCode: null,
      };
      personas.set(identifier, created);
      return created;
    },
    orgById: (id) => world.orgs.find((o) => o.id === id),
    clear(nextRandom) {
      clock.clear();
      counters.clear();
      personas.clear();
      world.files.clear();
      world.orgs = [];
      world.orgByToken.clear();
      world.random = nextRandom;
    },
  };
  return world;
}

export function createOrg(
  world: World,
  init: { name: string; token: string; features?: Partial<OrgFeatures> },
): Org {
  const org: Org = {
    id: world.nextId('org'),
    name: init.name,
    token: init.token,
    users: [],
    lines: [],
    contacts: new Map(),
    contactIndex: new Map(),
    chats: new Map(),
    messageIndex: new Map(),
    deletedMessages: new Map(),
    idempotency: new Map(),
    subscriptions: new Map(),
    calls: [],
    features: { shareContact: true, manualTyping: true, ...init.features },
    lastAvailabilityCheckAt: null,
    nextSendFailures: [],
    uploads: new Map(),
    v3Index: new Map(),
  };
  world.orgs.push(org);
  world.orgByToken.set(org.token, org);
  return org;
}

export function randomToken(): string {
  return `sbx_${randomBytes(18).toString('base64url')}`;
}
