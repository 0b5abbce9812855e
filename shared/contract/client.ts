/**
 * The renderer's client, derived from the method table: `parley.chats.list({...})`,
 * `parley.on('messages.changed', cb)` → unsubscribe. It is the only module in the renderer that
 * touches the bridge; the transport (Electron preload or WebSocket) is plugged in underneath.
 * It takes only the table's types: the schemas (and zod) stay out of the renderer's boot bundle,
 * and the core validates every input whatever the client sends.
 */
import { BridgeError, isBridgeErrorShape } from './errors.ts';
import type { EventName, Events } from './events.ts';
import type { MethodInput, MethodName, MethodOutput } from './methods.ts';

export interface Transport {
  invoke(method: string, input: unknown): Promise<unknown>;
  subscribe(listener: (event: string, payload: unknown) => void): () => void;
}

type DomainOf<M extends string> = M extends `${infer D}.${string}` ? D : never;
type ActionOf<M extends string, D extends string> = M extends `${D}.${infer A}` ? A : never;

export type ParleyApi = {
  [D in DomainOf<MethodName>]: {
    [A in ActionOf<MethodName, D>]: `${D}.${A}` extends infer M extends MethodName
      ? // An input whose fields are all optional may be omitted.
        // eslint-disable-next-line @typescript-eslint/no-empty-object-type
        {} extends MethodInput<M>
        ? (input?: MethodInput<M>) => Promise<MethodOutput<M>>
        : (input: MethodInput<M>) => Promise<MethodOutput<M>>
      : never;
  };
} & {
  on<E extends EventName>(event: E, listener: (payload: Events[E]) => void): () => void;
};

export function createParleyClient(transport: Transport): ParleyApi {
  const listeners = new Map<string, Set<(payload: unknown) => void>>();
  transport.subscribe((event, payload) => {
    for (const listener of listeners.get(event) ?? []) {
      try {
        listener(payload);
      } catch (error) {
        // One listener's failure must not starve the others; surface it as an unhandled rejection.
        void Promise.reject(error);
      }
    }
  });
  const on = (event: string, listener: (payload: unknown) => void) => {
    let set = listeners.get(event);
    if (!set) listeners.set(event, (set = new Set()));
    set.add(listener);
    return () => set.delete(listener);
  };
  const call =
    (name: string) =>
    async (input: unknown = {}) => {
      try {
        return await transport.invoke(name, input);
      } catch (error) {
        throw isBridgeErrorShape(error) ? new BridgeError(error) : error;
      }
    };
  // `parley.<domain>.<action>` is built on first use from the property names, typed by ParleyApi.
  const domains = new Map<string, Record<string, unknown>>();
  const domainOf = (domain: string): Record<string, unknown> => {
    let group = domains.get(domain);
    if (!group) {
      const actions = new Map<string, unknown>();
      group = new Proxy({} as Record<string, unknown>, {
        get(_target, action) {
          if (typeof action !== 'string' || action === 'then') return undefined;
          let fn = actions.get(action);
          if (!fn) actions.set(action, (fn = call(`${domain}.${action}`)));
          return fn;
        },
      });
      domains.set(domain, group);
    }
    return group;
  };
  return new Proxy({ on } as Record<string, unknown>, {
    get(target, domain) {
      if (domain === 'on') return target.on;
      // Not thenable, not a symbol-keyed protocol: only string names are domains.
      if (typeof domain !== 'string' || domain === 'then') return undefined;
      return domainOf(domain);
    },
  }) as ParleyApi;
}
