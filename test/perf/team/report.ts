/**
 * bench:team's report: one run's full figures (`Run`), its line in `runs` (`summarize`, the shape
 * issue #18 asks for), and the targets checked within the run (`targets`).
 */
import type { DesktopFigures } from './desktops.ts';

interface Latency {
  p50: number | null;
  p99: number | null;
  max: number | null;
}

interface ViaLog {
  posted_to_log_ms: Latency;
  log_to_all_ms: Latency;
}

interface ProcessFigures {
  cpu_s: number | null;
  peak_rss_mb: number | null;
}

interface Counts {
  requests: number;
  status_429: number;
  deliveries: number;
  chats: number;
}

export interface Run {
  mode: 'relay' | 'direct';
  desktops: number;
  load_average_1_5_15: { before: number[]; after: number[] };
  joined_s: number;
  /** From every desktop synced until they were quiet, when the customer messages started (s). */
  settled_s: number;
  per_desktop: DesktopFigures[];
  desktops_process: Record<string, number>;
  service: { before_desktops: Counts; after_join: Counts; end: Counts };
  event_to_all_ms: Latency;
  event_to_each_ms: Latency;
  /** Relay runs: posted → in the event log (stream timestamp), and the log → stored on all. */
  event_via_log: ViaLog | null;
  /** All desktops' CPU over the customer messages, per message. */
  desktops_cpu_s_per_message: number;
  events_missing: number;
  relay: {
    first_sync_s: number;
    process_while_joining: ProcessFigures | null;
    process_whole_run: ProcessFigures;
    nats_while_joining: ProcessFigures | null;
    nats_whole_run: ProcessFigures;
  } | null;
  followers: {
    followers: number;
    agents: number;
    messages: number;
    event_to_all_ms: Latency;
    event_to_each_ms: Latency;
    event_via_log: ViaLog;
    missing: number;
    /** Follows of the log that were lost on the way (each would have been replaced on a desktop). */
    lost_follows: number;
  } | null;
}

const max = (values: Array<number | null>): number | null =>
  values.some((v) => v === null) || values.length === 0 ? null : Math.max(...(values as number[]));

const latencyPair = (latency?: Latency): [number | null, number | null] | null =>
  latency ? [latency.p50, latency.p99] : null;

export function summarize(run: Run) {
  return {
    mode: run.mode,
    desktops: run.desktops,
    desktops_full: run.per_desktop.filter((d) => d.error === null).length,
    full_inbox_s_max: max(run.per_desktop.map((d) => d.full_inbox_s)),
    first_50_s_max: max(run.per_desktop.map((d) => d.first_50_s)),
    desktop_429: run.per_desktop.reduce((sum, d) => sum + d.status_429, 0),
    service_requests: run.service.end.requests,
    service_requests_while_joining: run.service.after_join.requests - run.service.before_desktops.requests,
    service_429: run.service.end.status_429,
    service_deliveries: run.service.end.deliveries,
    event_to_all_p50_ms: run.event_to_all_ms.p50,
    event_to_all_p99_ms: run.event_to_all_ms.p99,
    posted_to_log_p50_p99_ms: latencyPair(run.event_via_log?.posted_to_log_ms),
    log_to_all_p50_p99_ms: latencyPair(run.event_via_log?.log_to_all_ms),
    desktops_cpu_ms_per_message: Math.round(run.desktops_cpu_s_per_message * 1000 * 10) / 10,
    events_missing: run.events_missing,
    relay_cpu_s: run.relay?.process_whole_run.cpu_s ?? null,
    relay_peak_rss_mb: run.relay?.process_whole_run.peak_rss_mb ?? null,
    nats_cpu_s: run.relay?.nats_whole_run.cpu_s ?? null,
    nats_peak_rss_mb: run.relay?.nats_whole_run.peak_rss_mb ?? null,
    followers: run.followers?.followers ?? null,
    followers_event_to_all_p50_ms: run.followers?.event_to_all_ms.p50 ?? null,
    followers_event_to_all_p99_ms: run.followers?.event_to_all_ms.p99 ?? null,
    followers_log_to_all_p50_p99_ms: latencyPair(run.followers?.event_via_log.log_to_all_ms),
    load_before: run.load_average_1_5_15.before,
    errors: [...new Set(run.per_desktop.map((d) => d.error).filter((e) => e !== null))],
  };
}

/** The targets, each compared within this run; `null` where the run lacks the figure. */
export function targets(runs: Run[]) {
  const pick = (mode: Run['mode'], desktops: number) =>
    runs.find((r) => r.mode === mode && r.desktops === desktops);
  const largest = Math.max(...runs.map((r) => r.desktops));
  const one = pick('relay', 1);
  const many = pick('relay', largest);
  const direct = pick('direct', largest);
  const ratio = (a?: number | null, b?: number | null) =>
    a == null || b == null || b === 0 ? null : Math.round((a / b) * 1000) / 1000;
  const s = (run?: Run) => (run ? summarize(run) : undefined);
  const requestsRatio = ratio(s(many)?.service_requests, s(one)?.service_requests);
  const deliveriesRatio = ratio(s(many)?.service_deliveries, s(one)?.service_deliveries);
  const speedUp = ratio(s(direct)?.full_inbox_s_max, s(many)?.full_inbox_s_max);
  const relayRuns = runs.filter((r) => r.mode === 'relay').map(summarize);
  const followers = runs.find((r) => r.followers)?.followers;
  const check = (value: number | null | undefined, ok: (v: number) => boolean) =>
    value == null ? null : ok(value);
  return {
    desktops_compared: largest,
    relay_service_requests_n_over_1: requestsRatio,
    relay_service_deliveries_n_over_1: deliveriesRatio,
    within_5_percent: check(
      Math.max(requestsRatio ?? Infinity, deliveriesRatio ?? Infinity),
      (v) => v <= 1.05,
    ),
    relay_desktop_429: relayRuns.reduce((sum, r) => sum + r.desktop_429, 0),
    no_429_on_desktops: relayRuns.every((r) => r.desktop_429 === 0),
    full_inbox_direct_over_relay: speedUp,
    ten_times_sooner: check(speedUp, (v) => v >= 10),
    first_50_s_max: s(many)?.first_50_s_max ?? null,
    first_50_within_2_s: check(s(many)?.first_50_s_max, (v) => v <= 2),
    event_to_all_p99_ms: s(many)?.event_to_all_p99_ms ?? null,
    event_to_all_within_50_ms: check(s(many)?.event_to_all_p99_ms, (v) => v <= 50),
    followers: followers?.followers ?? null,
    followers_event_to_all_p99_ms: followers?.event_to_all_ms.p99 ?? null,
    followers_within_100_ms: check(followers?.event_to_all_ms.p99, (v) => v <= 100),
  };
}
