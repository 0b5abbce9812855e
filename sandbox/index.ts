import { randomBytes } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import { createClock } from './clock.ts';
import {
  createOrg,
  createWorld,
  cloneConfig,
  DEFAULT_CONFIG,
  randomToken,
  type SandboxConfig,
  type World,
} from './domain/world.ts';
import { buildApp } from './http/app.ts';
import { createFaultBook } from './http/faults.ts';
import { createRateLimiter } from './http/rate-limit.ts';
import { createRandom } from './random.ts';
import { parseSeed, seedOrg, type SeedSpec } from './seed/index.ts';
import { startSimulation } from './simulation/index.ts';
import { createWebhookDispatcher } from './webhooks/dispatcher.ts';

export interface SandboxOptions {
  /** 0 (default) picks a free port. */
  port?: number;
  /** Loopback only by default. */
  host?: string;
  /** One organization per token; the first gets the seed, the others start empty. Default: one random token. */
  tokens?: string[];
  seed?: string | SeedSpec;
  adminSecret?: string;
  /** Scales every simulated delay (delivery, typing, replies, webhook retries). */
  speed?: number;
  /** No unprompted customer activity. */
  quiet?: boolean;
  config?: Partial<SandboxConfig>;
  /** Seed for the sandbox's random choices (simulated customers, ids of uploads). */
  randomSeed?: string;
}

export interface RunningSandbox {
  /** Base URL of the service, e.g. http://127.0.0.1:4010 (the API is under /api/partner/v2). */
  url: string;
  tokens: string[];
  adminSecret: string;
  stop(): Promise<void>;
}

export const DEMO_TOKEN = 'sbx_demo_parley_local';

function populate(world: World, tokens: readonly string[], seed: SeedSpec): void {
  tokens.forEach((token, index) => {
    const org = createOrg(world, {
      name: index === 0 ? 'Demo organization' : `Organization ${index + 1}`,
      token,
    });
    seedOrg(world, org, index === 0 ? seed : { kind: 'empty' }, { orgIndex: index });
  });
}

/** Starts the sandbox in-process on 127.0.0.1 (an ephemeral port unless one is given). */
export async function startSandbox(options: SandboxOptions = {}): Promise<RunningSandbox> {
  const tokens = options.tokens?.length ? [...options.tokens] : [randomToken()];
  if (new Set(tokens).size !== tokens.length) throw new Error('tokens must be distinct');
  const seed =
    typeof options.seed === 'string' ? parseSeed(options.seed) : (options.seed ?? { kind: 'demo' });
  const adminSecret = options.adminSecret ?? `adm_${randomBytes(18).toString('base64url')}`;
  const config: SandboxConfig = { ...cloneConfig(DEFAULT_CONFIG), ...options.config };
  config.quiet = options.quiet ?? config.quiet;
  const randomSeed = options.randomSeed ?? 'parley-sandbox';
  const clock = createClock({ speed: options.speed ?? 1 });
  const world = createWorld(clock, createRandom(randomSeed), config);
  const initialConfig = cloneConfig(config);

  const limiter = createRateLimiter(config.rateLimit);
  const faults = createFaultBook(world.random);
  const webhooks = createWebhookDispatcher(world);
  const served = { total: 0, status_429: 0 };
  let simulation = { stop() {} };

  const app = buildApp({
    world,
    limiter,
    faults,
    webhooks,
    adminSecret,
    served,
    async reset() {
      simulation.stop();
      Object.assign(served, { total: 0, status_429: 0 });
      world.clear(createRandom(randomSeed));
      Object.assign(world.config, cloneConfig(initialConfig));
      clock.setSpeed(options.speed ?? 1);
      limiter.configure(world.config.rateLimit);
      faults.clear();
      webhooks.faults.clear();
      webhooks.clearLog();
      populate(world, tokens, seed);
      simulation = startSimulation(world, { quiet: world.config.quiet });
    },
  });
  await app.listen({ port: options.port ?? 0, host: options.host ?? '127.0.0.1' });
  const address = app.server.address() as AddressInfo;
  world.baseUrl = `http://${address.address.includes(':') ? `[${address.address}]` : address.address}:${address.port}`;
  populate(world, tokens, seed);
  simulation = startSimulation(world, { quiet: world.config.quiet });

  return {
    url: world.baseUrl,
    tokens,
    adminSecret,
    async stop() {
      simulation.stop();
      clock.clear();
      await webhooks.stop();
      await app.close();
    },
  };
}
