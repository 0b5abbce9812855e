// The supervisor's start / probe / health / restart cycle against a scripted tunnel.
import { describe, expect, it } from 'vitest';
import { type TunnelState, TunnelSupervisor } from '../../../../electron/core/realtime/tunnel-supervisor.ts';
import {
  type Tunnel,
  TunnelError,
  type TunnelUrlListener,
  UrlChangeListeners,
} from '../../../../electron/core/realtime/tunnels/tunnel.ts';

/** Each start takes the next scripted outcome: a URL, or an error to throw. */
class ScriptedTunnel implements Tunnel {
  readonly kind = 'scripted';
  readonly listeners = new UrlChangeListeners();
  running = false;
  starts = 0;
  stops = 0;
  healthy = true;
  readonly outcomes: Array<string | Error>;
  constructor(outcomes: Array<string | Error>) {
    this.outcomes = outcomes;
  }
  async start(): Promise<string> {
    const outcome = this.outcomes[Math.min(this.starts++, this.outcomes.length - 1)] as string | Error;
    if (outcome instanceof Error) throw outcome;
    this.running = true;
    return outcome;
  }
  async stop(): Promise<void> {
    this.stops++;
    this.running = false;
  }
  async checkHealth(): Promise<void> {
    if (!this.healthy) throw new TunnelError('scripted tunnel unhealthy');
  }
  onUrlChange(listener: TunnelUrlListener): () => void {
    return this.listeners.add(listener);
  }
}

function supervise(tunnel: Tunnel, probe: (url: string) => Promise<void> = async () => {}) {
  const states: TunnelState[] = [];
  const supervisor = new TunnelSupervisor({
    tunnel,
    localPort: 4000,
    probe,
    healthIntervalMs: 30,
    probeGraceMs: 100,
    backoff: { baseMs: 20, capMs: 80 },
  });
  supervisor.onChange((s) => states.push(s));
  const phases = () => states.map((s) => (s.phase === 'up' ? `up ${s.url}` : s.phase));
  return { supervisor, states, phases };
}

describe('TunnelSupervisor', () => {
  it('comes up, and when the provider reports the tunnel gone, restarts it with a new URL', async () => {
    const tunnel = new ScriptedTunnel(['https://one.example', 'https://two.example']);
    const { supervisor, phases } = supervise(tunnel);
    await supervisor.start();
    expect(supervisor.state).toEqual({ phase: 'up', url: 'https://one.example' });
    tunnel.listeners.emit(null, 'the process died');
    await expect.poll(() => supervisor.state).toEqual({ phase: 'up', url: 'https://two.example' });
    expect(phases()).toEqual([
      'connecting',
      'up https://one.example',
      'down',
      'connecting',
      'up https://two.example',
    ]);
    expect(tunnel.stops).toBeGreaterThanOrEqual(1);
    await supervisor.stop();
    expect(supervisor.state.phase).toBe('idle');
    expect(tunnel.running).toBe(false);
  });

  it('retries failed starts with growing delays; errors retrying cannot fix wait the cap', async () => {
    const tunnel = new ScriptedTunnel([new TunnelError('no authtoken', { retryable: false })]);
    const { supervisor } = supervise(tunnel);
    await supervisor.start();
    expect(supervisor.state).toMatchObject({ phase: 'down', reason: 'no authtoken', retryable: false });
    expect((supervisor.state as { retryInMs: number }).retryInMs).toBe(80);
    await supervisor.stop();

    const flaky = new ScriptedTunnel([
      new Error('boom'),
      new Error('boom'),
      new Error('boom'),
      'https://ok.example',
    ]);
    const second = supervise(flaky);
    await second.supervisor.start();
    await expect.poll(() => second.supervisor.state.phase).toBe('up');
    const delays = second.states.flatMap((s) => (s.phase === 'down' ? [s.retryInMs] : []));
    expect(delays).toHaveLength(3);
    // 20, 40, 80 ms with ±20 % jitter
    expect(delays[0]).toBeLessThan(delays[2] as number);
    await second.supervisor.stop();
  });

  it('does not call a tunnel up until its URL reaches the listener', async () => {
    const tunnel = new ScriptedTunnel(['https://unreachable.example']);
    const { supervisor } = supervise(tunnel, async () => {
      throw new Error('404 from someone else');
    });
    await supervisor.start();
    expect(supervisor.state).toMatchObject({ phase: 'down' });
    expect((supervisor.state as { reason: string }).reason).toMatch(
      /does not reach Parley: 404 from someone else/,
    );
    expect(tunnel.running).toBe(false);
    await supervisor.stop();
  });

  it('notices a failing health check and restarts', async () => {
    const tunnel = new ScriptedTunnel(['https://a.example']);
    const { supervisor, phases } = supervise(tunnel);
    await supervisor.start();
    tunnel.healthy = false;
    await expect.poll(() => phases().includes('down')).toBe(true);
    tunnel.healthy = true;
    await expect.poll(() => supervisor.state.phase).toBe('up');
    await supervisor.stop();
  });

  it('a stop during a slow start closes what the start opened', async () => {
    let release!: () => void;
    const tunnel = new ScriptedTunnel(['https://slow.example']);
    const start = tunnel.start.bind(tunnel);
    tunnel.start = () => new Promise<string>((resolve) => (release = () => void start().then(resolve)));
    const { supervisor } = supervise(tunnel);
    const starting = supervisor.start();
    await expect.poll(() => typeof release).toBe('function');
    await supervisor.stop();
    release();
    await starting;
    expect(tunnel.running).toBe(false);
    expect(supervisor.state.phase).toBe('idle');
  });
});
