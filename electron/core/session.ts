import { join } from 'node:path';
import type { ApiVersion } from '../../shared/domain.ts';
import { PartnerApiClient, type PartnerApiClientOptions } from './api/client.ts';
import { PartnerApiV3Client } from './api/v3/client.ts';
import { Outbox } from './outbox/outbox.ts';
import { openSendDoor, type SendDoor } from './outbox/send-door.ts';
import { Staging } from './outbox/staging.ts';
import { LocalStore } from './store/local-store.ts';
import { SyncEngine, type SyncOptions } from './sync/engine.ts';
import type { MessagingService } from './sync/messaging.ts';
import { V2Messaging } from './sync/messaging-v2.ts';
import { V3Messaging } from './sync/messaging-v3.ts';
import { type ReachabilityOptions, ServiceReachability } from './sync/reachability.ts';
import { WorkbenchScheduler } from './workbench/scheduler.ts';

export interface WorkspaceConnection {
  baseUrl: string;
  tokenHeader: string;
  token: string;
}

export interface SessionOptions {
  /** The workspace's own folder: its database and staged files live here. */
  dataDir: string;
  connection: WorkspaceConnection;
  /** Which API the workspace's messaging goes through (contacts always use V2). Default v2. */
  apiVersion?: ApiVersion;
  sync?: Partial<SyncOptions>;
  client?: Partial<PartnerApiClientOptions>;
  /** How often the service is probed when quiet or failing (tests shorten them). */
  reachability?: Omit<ReachabilityOptions, 'probe'>;
}

/**
 * One open workspace: its store, API client, reachability, sync engine and outbox, wired together.
 * The hosts hold one session for the active workspace and forward `store.events` to the renderer.
 */
export class WorkspaceSession {
  readonly store: LocalStore;
  readonly client: PartnerApiClient;
  /** The workspace's API version: chats, messages and lines go through it; contacts stay on V2. */
  readonly apiVersion: ApiVersion;
  /** The V3 client (same token, same budget); used for messaging when `apiVersion` is v3. */
  readonly v3: PartnerApiV3Client;
  /** Chats, messages and lines through the workspace's API version (the sync and the outbox use it). */
  readonly messaging: MessagingService;
  /** Whether the service can be reached, from every request's outcome and probes of its own. */
  readonly reachability: ServiceReachability;
  readonly sync: SyncEngine;
  readonly staging: Staging;
  readonly outbox: Outbox;
  /** The one way in for a message to leave: every rule checked once, then the outbox (send-door.ts). */
  readonly sendDoor: SendDoor;
  /** Send later, undo send and snooze: holds messages back and brings snoozed chats back. */
  readonly scheduler: WorkbenchScheduler;

  constructor(options: SessionOptions) {
    this.apiVersion = options.apiVersion ?? 'v2';
    this.store = new LocalStore(join(options.dataDir, 'workspace.db'), { apiVersion: this.apiVersion });
    this.client = new PartnerApiClient({ ...options.client, ...options.connection });
    this.v3 = new PartnerApiV3Client({
      ...options.client,
      baseUrl: options.connection.baseUrl,
      token: options.connection.token,
      budget: this.client.http.budget,
    });
    this.reachability = new ServiceReachability({
      ...options.reachability,
      probe: (signal) => this.client.ping({ signal }),
    });
    this.client.http.onOutcome((outcome) => this.reachability.observe(outcome));
    this.v3.http.onOutcome((outcome) => this.reachability.observe(outcome));
    this.messaging =
      this.apiVersion === 'v3'
        ? new V3Messaging(this.v3, this.client, this.store)
        : new V2Messaging(this.client, this.store);
    this.sync = new SyncEngine(this.store, this.client, this.messaging, options.sync, this.reachability);
    this.staging = new Staging(this.store, join(options.dataDir, 'staged'));
    this.outbox = new Outbox(this.store, this.messaging, this.sync.reconciler, this.staging, {
      accepted: (key) => this.sync.watchDelivery(key),
    });
    this.sendDoor = openSendDoor(this.store, this.staging, this.outbox);
    this.scheduler = new WorkbenchScheduler(this.store, this.sendDoor);
    // Inbound messages in the open chat are read as they arrive.
    this.store.events.on('messages.changed', ({ chatId }) => this.sync.noteIncoming(chatId));
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
