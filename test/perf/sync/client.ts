/**
 * The client process of npm run bench:sync (`bench-sync.ts --client <config>`): one cold first sync
 * through the real core, measured.
 */
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { monitorEventLoopDelay, performance } from 'node:perf_hooks';
import type { AttemptRecord } from '../../../electron/core/api/http.ts';
import { closeSharedDispatcher } from '../../../electron/core/api/http.ts';
import { setLogSink } from '../../../electron/core/log/logger.ts';
import { WorkspaceSession } from '../../../electron/core/session.ts';
import { inspectStore } from '../../integration/store-inspector.ts';
import { percentile } from '../lib.ts';
import { mb, round } from './numbers.ts';
import { CLIENT_CAP_MS, FIRST_N } from './scenarios.ts';

export interface ClientConfig {
  url: string;
  token: string;
  client: { rate: number; burst: number } | null;
  limit: { rate: number; burst: number };
  apiVersion: 'v2' | 'v3';
}

type Kind = 'lines' | 'chat_list' | 'messages' | 'contacts' | 'other';

function kindOf(path: string): Kind {
  if (path === '/phone_numbers') return 'lines';
  if (path === '/chats') return 'chat_list';
  if (/^\/chats\/\d+\/chat_messages$/.test(path) || /^\/chats\/[0-9a-f-]{36}\/messages$/.test(path))
    return 'messages';
  if (path === '/contacts') return 'contacts';
  return 'other';
}

export async function runClient(config: ClientConfig): Promise<Record<string, unknown>> {
  const dataDir = mkdtempSync(join(tmpdir(), 'parley-bench-sync-'));
  const logCounts: Record<string, number> = {};
  const logSamples: string[] = [];
  const restoreSink = setLogSink((line, level) => {
    logCounts[level] = (logCounts[level] ?? 0) + 1;
    if (level !== 'debug' && logSamples.length < 5) logSamples.push(line.slice(0, 300));
  });

  const attempts: Array<{ t: number; kind: Kind; status: number; ms: number }> = [];
  let t0 = 0;
  let finishedAt: number | null = null;
  const session = new WorkspaceSession({
    dataDir,
    connection: { baseUrl: config.url, tokenHeader: 'X-PARTNER-INTEGRATION-TOKEN', token: config.token },
    apiVersion: config.apiVersion,
    client: {
      onAttempt: (a: AttemptRecord) => {
        if (finishedAt !== null) return; // incremental polling after the first sync is not counted
        attempts.push({
          t: performance.now() - t0,
          kind: kindOf(a.path),
          status: a.status,
          ms: a.durationMs,
        });
      },
    },
  });
  const budget = session.client.http.budget;
  if (config.client) budget.configure({ ratePerSecond: config.client.rate, burst: config.client.burst });
  const budgetSetting = { rate: budget.stats().ceilingPerSecond, burst: budget.stats().burst };

  // Peak RSS: sampled every 100 ms (and getrusage's maxRSS, which is exact, at the end).
  let peakRss = process.memoryUsage().rss;
  let peakHeap = process.memoryUsage().heapUsed;
  const timeline: Array<Record<string, number>> = [];
  let lastStatus = { chatsKnown: 0, chatsWithMessages: 0 };
  let minBudgetRate = budget.stats().ratePerSecond;
  // Who holds the sync back, per 100 ms sample: requests queued at the budget (the limit binds), the
  // budget paused after a 429, or neither (the client itself is slower than the limit).
  const samples = { total: 0, queued: 0, paused: 0 };
  const sampler = setInterval(() => {
    const m = process.memoryUsage();
    peakRss = Math.max(peakRss, m.rss);
    peakHeap = Math.max(peakHeap, m.heapUsed);
    const s = budget.stats();
    minBudgetRate = Math.min(minBudgetRate, s.ratePerSecond);
    samples.total++;
    if (s.pausedForMs > 0) samples.paused++;
    else if (s.waiting.background + s.waiting.user > 0) samples.queued++;
  }, 100);
  const secondly = setInterval(() => {
    const s = budget.stats();
    timeline.push({
      t_s: round((performance.now() - t0) / 1000, 1),
      requests: attempts.length,
      chats_known: lastStatus.chatsKnown,
      chats_with_messages: lastStatus.chatsWithMessages,
      budget_rate: round(s.ratePerSecond, 1),
      waiting: s.waiting.background + s.waiting.user,
      rss_mb: mb(process.memoryUsage().rss),
    });
  }, 5_000);

  // Time to the first chats, and to the first 50 chats with previews, watched through store events.
  let firstChatsAt: number | null = null;
  let firstNAt: number | null = null;
  let firstNIds: number[] = [];
  let firstNRequests = 0;
  // … and until they also show contact names (the bulk seed has contacts for its 500 newest chats).
  let firstNNamedAt: number | null = null;
  let namedAtFirstN = 0;
  let checks = 0;
  const named = (chat: { handles: Array<{ isMe: boolean; contactName: string | null }> }): boolean =>
    chat.handles.some((h) => !h.isMe && h.contactName !== null);
  const checkFirstN = (): void => {
    if (firstNNamedAt !== null) return;
    checks++;
    const top = session.store.chats.list({ limit: FIRST_N });
    if (top.length > 0 && firstChatsAt === null) firstChatsAt = performance.now() - t0;
    const complete = top.length === FIRST_N && top.every((c) => c.lastMessage !== null);
    if (complete && firstNAt === null) {
      firstNAt = performance.now() - t0;
      firstNIds = top.map((c) => c.id);
      firstNRequests = attempts.length;
      namedAtFirstN = top.filter(named).length;
    }
    if (complete && top.every(named)) firstNNamedAt = performance.now() - t0;
  };
  // Until the first 50 are complete every chat change may complete them; after that only contacts
  // can change their names (and checking on each of the 5,000 chat changes would cost the client CPU).
  const offChats = session.store.events.on('chats.changed', () => {
    if (firstNAt === null) checkFirstN();
  });
  const offContacts = session.store.events.on('contacts.changed', () => {
    if (firstNAt !== null) checkFirstN();
  });
  const offStatus = session.sync.onStatus((s) => {
    lastStatus = { chatsKnown: s.chatsKnown, chatsWithMessages: s.chatsWithMessages };
  });

  const loopDelay = monitorEventLoopDelay({ resolution: 10 });
  loopDelay.enable();
  const elu0 = performance.eventLoopUtilization();
  const cpu0 = process.cpuUsage();
  t0 = performance.now();
  let error: string | null = null;
  const cap = new Promise<never>((_, reject) =>
    setTimeout(
      () => reject(new Error(`client cap of ${CLIENT_CAP_MS / 1000} s reached`)),
      CLIENT_CAP_MS,
    ).unref(),
  );
  try {
    await Promise.race([session.start(), cap]);
  } catch (e) {
    error = e instanceof Error ? e.message : String(e);
  }
  finishedAt = performance.now() - t0;
  const cpu = process.cpuUsage(cpu0);
  const elu = performance.eventLoopUtilization(elu0);
  loopDelay.disable();
  clearInterval(sampler);
  clearInterval(secondly);
  offChats();
  offContacts();
  offStatus();
  const status = session.sync.status;
  if (status.error) error ??= status.error;

  // What the store holds at the end: the sync is complete only if every chat and message arrived.
  const count = (sql: string): number =>
    inspectStore(session.store, (db) => db.get<{ n: number }>(sql)?.n ?? 0);
  const stored = {
    chats: count('SELECT COUNT(*) AS n FROM chats'),
    messages: count('SELECT COUNT(*) AS n FROM messages'),
    contacts: count('SELECT COUNT(*) AS n FROM contacts'),
    chats_with_preview: count('SELECT COUNT(*) AS n FROM chats WHERE last_message_key IS NOT NULL'),
  };
  const finalTop = session.store.chats.list({ limit: FIRST_N }).map((c) => c.id);
  // What one inbox read costs once everything is stored (the hosts re-read it on chat changes).
  const inboxMs: number[] = [];
  for (let i = 0; i < 21; i++) {
    const q0 = performance.now();
    session.store.chats.list({ limit: FIRST_N });
    inboxMs.push(performance.now() - q0);
  }
  inboxMs.sort((a, b) => a - b);
  const stats = budget.stats();
  await session.close();
  await closeSharedDispatcher();
  restoreSink();
  const dbBytes = ['workspace.db', 'workspace.db-wal']
    .map((f) => {
      try {
        return statSync(join(dataDir, f)).size;
      } catch {
        return 0;
      }
    })
    .reduce((a, b) => a + b, 0);
  rmSync(dataDir, { recursive: true, force: true });

  // Requests: totals, per kind, and the rate while the limit binds (the burst spent, the tail excluded).
  const total = attempts.length;
  const rateLimited = attempts.filter((a) => a.status === 429).length;
  const byKind: Record<string, Record<string, number | null>> = {};
  for (const kind of ['lines', 'chat_list', 'messages', 'contacts', 'other'] as const) {
    const of = attempts.filter((a) => a.kind === kind);
    if (of.length === 0) continue;
    const ms = of.map((a) => a.ms).sort((a, b) => a - b);
    byKind[kind] = {
      requests: of.length,
      status_429: of.filter((a) => a.status === 429).length,
      first_s: round((of[0]?.t ?? 0) / 1000, 2),
      last_s: round((of.at(-1)?.t ?? 0) / 1000, 2),
      latency_ms_p50: percentile(ms, 50),
      latency_ms_p99: percentile(ms, 99),
    };
  }
  // What the first 50 waited for: requests of each kind done by then, and how long messages took.
  const beforeFirstN = attempts.slice(0, firstNRequests);
  const firstNMessageMs = beforeFirstN
    .filter((a) => a.kind === 'messages')
    .map((a) => a.ms)
    .sort((a, b) => a - b);
  const seconds = finishedAt / 1000;
  // Steady state: from the moment the initial burst is used up to one second before the end.
  const burst = config.limit.burst;
  const steadyFrom = attempts[Math.min(burst, total - 1)]?.t ?? 0;
  const steadyTo = Math.max(steadyFrom, finishedAt - 1_000);
  const steadyCount = attempts.filter((a) => a.t > steadyFrom && a.t <= steadyTo).length;
  // An effectively unlimited service (the `unlimited` scenario) has no limit to compare with.
  const binding = config.limit.rate < 1_000_000;
  const steadyRate = binding && steadyTo > steadyFrom ? steadyCount / ((steadyTo - steadyFrom) / 1000) : null;
  // The least time the service's bucket allows for this many requests: burst at once, then `rate`/s.
  const minSeconds = Math.max(0, total - burst) / config.limit.rate;
  const usage = process.resourceUsage();

  return {
    error,
    budget_setting: budgetSetting,
    first_chats_s: firstChatsAt === null ? null : round(firstChatsAt / 1000, 2),
    first_50_with_previews_s: firstNAt === null ? null : round(firstNAt / 1000, 2),
    first_50_requests_before: firstNRequests,
    first_50_with_contact_names_at_that_moment: namedAtFirstN,
    first_50_with_previews_and_names_s: firstNNamedAt === null ? null : round(firstNNamedAt / 1000, 2),
    before_first_50: {
      chat_list_pages: beforeFirstN.filter((a) => a.kind === 'chat_list').length,
      message_pages: beforeFirstN.filter((a) => a.kind === 'messages').length,
      message_latency_ms_p50: percentile(firstNMessageMs, 50),
      message_latency_ms_max: firstNMessageMs.at(-1) ?? null,
    },
    first_50_are_final_top_50: firstNIds.length === FIRST_N && firstNIds.every((id, i) => finalTop[i] === id),
    finish_s: round(seconds, 2),
    requests: {
      total,
      status_429: rateLimited,
      status_429_at_s: attempts.filter((a) => a.status === 429).map((a) => round(a.t / 1000, 2)),
      other_failures: attempts.filter((a) => a.status !== 429 && (a.status < 200 || a.status >= 300)).length,
      per_second_overall: round(total / seconds, 1),
      per_second_steady: steadyRate === null ? null : round(steadyRate, 1),
      steady_window_s: [round(steadyFrom / 1000, 2), round(steadyTo / 1000, 2)],
      ratio_to_limit_steady: steadyRate === null ? null : round(steadyRate / config.limit.rate, 3),
      least_possible_s: binding ? round(minSeconds, 2) : null,
      ratio_least_possible_to_actual_time: binding ? round(minSeconds / seconds, 3) : null,
      by_kind: byKind,
    },
    budget_end: {
      granted: stats.granted,
      rate_limited: stats.rateLimited,
      rate_per_second: round(stats.ratePerSecond, 1),
      lowest_rate_per_second: round(minBudgetRate, 1),
      share_of_time_requests_queued: round(samples.queued / Math.max(1, samples.total), 3),
      share_of_time_paused_after_429: round(samples.paused / Math.max(1, samples.total), 3),
      share_of_time_client_bound: round(
        (samples.total - samples.queued - samples.paused) / Math.max(1, samples.total),
        3,
      ),
      ceiling_per_second: stats.ceilingPerSecond,
    },
    stored,
    memory: {
      peak_rss_mb_sampled: mb(peakRss),
      peak_rss_mb_getrusage: round(usage.maxRSS / 1024, 1),
      peak_heap_used_mb: mb(peakHeap),
      database_mb: mb(dbBytes),
    },
    cpu: {
      user_s: round(cpu.user / 1e6, 2),
      system_s: round(cpu.system / 1e6, 2),
      share_of_one_core: round((cpu.user + cpu.system) / 1e6 / seconds, 3),
      event_loop_utilization: round(elu.utilization, 3),
      event_loop_delay_ms_p50: round(loopDelay.percentile(50) / 1e6, 1),
      event_loop_delay_ms_p99: round(loopDelay.percentile(99) / 1e6, 1),
      event_loop_delay_ms_max: round(loopDelay.max / 1e6, 1),
    },
    first_50_store_queries: checks,
    inbox_query_50_ms_median: round(inboxMs[10] ?? 0, 2),
    log_lines: logCounts,
    log_samples: logSamples,
    timeline_every_5s: timeline,
  };
}
