import { describe, expect, it } from 'vitest';
import { laneOf, SendLanes } from '../../../electron/relay/send-lanes.ts';

/** A piece of work that finishes when the test says so, recording when it started and ended. */
function gate(name: string, log: string[]) {
  let open!: () => void;
  const opened = new Promise<void>((resolve) => (open = resolve));
  return {
    open,
    work: async () => {
      log.push(`${name} started`);
      await opened;
      log.push(`${name} done`);
    },
  };
}

const turn = () => new Promise((resolve) => setImmediate(resolve));

describe("the relay's lanes of changes", () => {
  it('make changes to different conversations side by side, and one conversation’s in order', async () => {
    const log: string[] = [];
    const lanes = new SendLanes();
    const slow = gate('chat 1 first', log);
    const next = gate('chat 1 second', log);
    const other = gate('chat 2', log);

    lanes.run('chat:1', slow.work);
    lanes.run('chat:1', next.work);
    lanes.run('chat:2', other.work);
    await turn();
    other.open();
    await turn();
    expect(log).toEqual(['chat 1 first started', 'chat 2 started', 'chat 2 done']);

    next.open();
    await turn();
    expect(log).not.toContain('chat 1 second started');
    slow.open();
    await lanes.idle();
    expect(log.slice(3)).toEqual(['chat 1 first done', 'chat 1 second started', 'chat 1 second done']);
  });

  it('take no more than their limit at once', async () => {
    const log: string[] = [];
    const lanes = new SendLanes(2);
    const gates = [1, 2, 3].map((n) => gate(`chat ${n}`, log));
    let admitted = 0;
    const taking = (async () => {
      for (const [n, g] of gates.entries()) {
        await lanes.room();
        admitted += 1;
        lanes.run(`chat:${n}`, g.work);
      }
    })();
    await turn();
    expect(admitted).toBe(2);
    gates[0]!.open();
    await taking;
    expect(admitted).toBe(3);
    gates[1]!.open();
    gates[2]!.open();
    await lanes.idle();
    expect(log.filter((line) => line.endsWith('done'))).toHaveLength(3);
  });

  it('put what changes one conversation, message, line or contact in that one’s lane', () => {
    expect(laneOf({ kind: 'send', chatId: 7, text: 'hi' } as never)).toBe('chat:7');
    expect(laneOf({ kind: 'edit', chatId: 7, messageId: 3, text: 'x' } as never)).toBe('chat:7');
    expect(laneOf({ kind: 'react', messageId: 3 } as never)).toBe('message:3');
    expect(laneOf({ kind: 'updateContact', contactId: 4 } as never)).toBe('contact:4');
    expect(laneOf(undefined)).toBe('unreadable');
  });
});
