import { join } from 'node:path';
import type { ApiVersion } from '../../shared/domain.ts';
import { PartnerApiClient, type PartnerApiClientOptions } from './api/client.ts';
import type { AttemptOutcome } from './api/http.ts';
import { PartnerApiV3Client } from './api/v3/client.ts';
import { Outbox } from './outbox/outbox.ts';
import { openSendDoor, type SendDoor } from './outbox/send-door.ts';
import { Staging } from './outbox/staging.ts';
import { LocalStore } from './store/local-store.ts';
import { SyncEngine, type SyncOptions } from './sync/engine.ts';
import type { ContactsPort, MessagingService } from './sync/messaging.ts';
import { V2Messaging } from './sync/messaging-v2.ts';
import { V3Messaging } from './sync/messaging-v3.ts';
import { type ReachabilityOptions, ServiceReachability } from './sync/reachability.ts';
import { WorkbenchScheduler } from './workbench/scheduler.ts';

export interface WorkspaceConnection {
  baseUrl: string;
  tokenHeader: string;
  token: string;
}

/**
 * How a session reaches its organization: directly with a token (WorkspaceSession builds these from
 * its API clients), or through the team's relay (JoinedSession, core/team/joined-session.ts, with
 * the ports of core/relay/relay-ports.ts), which holds no token.
 */
export interface ServicePorts {
  /** Chats, messages and lines through the workspace's API version (the sync and the outbox use it). */
  messaging: MessagingService;
  contacts: ContactsPort;
  /** One cheap call, whose outcome reaches `onOutcome`'s listeners: reachability's probe. */
  probe(signal: AbortSignal): Promise<unknown>;
  /** Every call's outcome (reachability follows them); returns an unsubscribe. */
  onOutcome(listener: (outcome: AttemptOutcome) => void): () => void;
}

export interface ServiceSessionOptions {
  /** The workspace's own folder: its database and staged files live here. */
  dataDir: string;
  /** Which API the workspace's messaging goes through. Default v2. */
  apiVersion?: ApiVersion;
  /** The service's ports, given the workspace's store (the messaging adapters keep ids in it). */
  service: (store: LocalStore) => ServicePorts;
  sync?: Partial<SyncOptions>;
  /** How often the service is probed when quiet or failing (tests shorten them). */
  reachability?: Omit<ReachabilityOptions, 'probe'>;
}

export interface SessionOptions extends Omit<ServiceSessionOptions, 'service'> {
  connection: WorkspaceConnection;
  client?: Partial<PartnerApiClientOptions>;
}

/**
 * One open workspace: its store, reachability, sync engine and outbox, wired to the service's ports.
 * The hosts hold one session for the active workspace and forward `store.events` to the renderer.
 */
export class ServiceSession {
  readonly store: LocalStore;
  /** The workspace's API version: chats, messages and lines go through it. */
  readonly apiVersion: ApiVersion;
  /** Chats, messages and lines through the workspace's API version (the sync and the outbox use it). */
  readonly messaging: MessagingService;
  readonly contacts: ContactsPort;
  /** Whether the service can be reached, from every call's outcome and probes of its own. */
  readonly reachability: ServiceReachability;
  readonly sync: SyncEngine;
  readonly staging: Staging;
  readonly outbox: Outbox;
  /** The one way in for a message to leave: every rule checked once, then the outbox (send-door.ts). */
  readonly sendDoor: SendDoor;
  /** Send later, undo send and snooze: holds messages back and brings snoozed chats back. */
  readonly scheduler: WorkbenchScheduler;

  constructor(options: ServiceSessionOptions) {
    this.apiVersion = options.apiVersion ?? 'v2';
    this.store = new LocalStore(join(options.dataDir, 'workspace.db'), { apiVersion: this.apiVersion });
    const service = options.service(this.store);
    this.messaging = service.messaging;
    this.contacts = service.contacts;
    this.reachability = new ServiceReachability({ ...options.reachability, probe: service.probe });
    service.onOutcome((outcome) => this.reachability.observe(outcome));
    this.sync = new SyncEngine(this.store, this.contacts, this.messaging, options.sync, this.reachability);
    this.staging = new Staging(this.store, join(options.dataDir, 'staged'));
    this.outbox = new Outbox(this.store, this.messaging, this.sync.reconciler, this.staging, {
      accepted: (key) => this.sync.watchDelivery(key),
    });
    this.sendDoor = openSendDoor(this.store, this.staging, this.outbox);
    this.scheduler = new WorkbenchScheduler(this.store, this.sendDoor);
    // Inbound messages in the open chat are read as they arrive.
    this.store.events.on('messages.changed', ({ chatId }) => this.sync.noteIncoming(chatId), { rows: false });
  }

  /**
   * Starts the outbox and the sync; resolves when the first sync (or resume) has finished. With a
   * cached inbox, catching up with the service waits for `resumeAfter`.
   */
  start(options: { resumeAfter?: Promise<unknown> } = {}): Promise<void> {
    this.reachability.start();
    this.outbox.start();
    this.scheduler.start();
    return this.sync.start(options);
  }

  async close(): Promise<void> {
    this.reachability.stop();
    this.scheduler.stop();
    await this.outbox.stop();
    await this.sync.stop();
    this.store.close();
  }
}

/** A session that reaches the service itself, with the workspace's token: its API clients are its ports. */
export class WorkspaceSession extends ServiceSession {
  readonly client: PartnerApiClient;
  /** The V3 client (same token, same budget); used for messaging when `apiVersion` is v3. */
  readonly v3: PartnerApiV3Client;

  constructor(options: SessionOptions) {
    const client = new PartnerApiClient({ ...options.client, ...options.connection });
    const v3 = new PartnerApiV3Client({
      ...options.client,
      baseUrl: options.connection.baseUrl,
      token: options.connection.token,
      budget: client.http.budget,
    });
    super({
      ...options,
      service: (store) => ({
        messaging:
          options.apiVersion === 'v3' ? new V3Messaging(v3, client, store) : new V2Messaging(client, store),
        contacts: client.contacts,
        probe: (signal) => client.ping({ signal }),
        onOutcome: (listener) => {
          const fromV2 = client.http.onOutcome(listener);
          const fromV3 = v3.http.onOutcome(listener);
          return () => (fromV2(), fromV3());
        },
      }),
    });
    this.client = client;
    this.v3 = v3;
  }
}
