/** Each V3 scenario's headline figures beside its V2 counterpart's, for bench:sync's `side_by_side`. */
import { round } from './numbers.ts';
import { SCENARIOS } from './scenarios.ts';

/**
 * Each V3 run beside its V2 counterpart of the same invocation: the headline figures only (the full
 * runs are in `runs`). A scenario whose counterpart was not run is left out.
 */
export function sideBySide(runs: Array<Record<string, unknown>>): Array<Record<string, unknown>> {
  const headline = (run: Record<string, unknown>) => {
    const requests = run.requests as Record<string, unknown>;
    return {
      scenario: run.name,
      error: run.error,
      first_50_with_previews_s: run.first_50_with_previews_s,
      finish_s: run.finish_s,
      requests: requests.total,
      per_second_steady: requests.per_second_steady,
      ratio_to_limit_steady: requests.ratio_to_limit_steady,
      status_429: requests.status_429,
      client_peak_rss_mb: (run.memory as Record<string, unknown>).peak_rss_mb_getrusage,
      client_cpu_s: sum((run.cpu as Record<string, unknown>) ?? {}, ['user_s', 'system_s']),
      database_mb: (run.memory as Record<string, unknown>).database_mb,
      stored: run.stored,
    };
  };
  return SCENARIOS.flatMap((scenario) => {
    const v3 = runs.find((r) => r.name === scenario.name);
    const v2 = runs.find((r) => r.name === scenario.v2);
    return scenario.v2 && v2 && v3 ? [{ v2: headline(v2), v3: headline(v3) }] : [];
  });
}

function sum(values: Record<string, unknown>, keys: string[]): number {
  return round(
    keys.reduce((total, key) => total + (typeof values[key] === 'number' ? values[key] : 0), 0),
    2,
  );
}
