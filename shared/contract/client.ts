/**
 * The renderer's client, derived from the method table: `parley.chats.list({...})`,
 * `parley.on('messages.changed', cb)` → unsubscribe. It is the only module in the renderer that
 * touches the bridge; the transport (Electron preload or WebSocket) is plugged in underneath.
 */
import { BridgeError, isBridgeErrorShape } from './errors.ts';
import type { EventName, Events } from './events.ts';
import { METHOD_NAMES, type MethodInput, type MethodName, type MethodOutput } from './methods.ts';

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
  const api: Record<string, unknown> = {
    on(event: string, listener: (payload: unknown) => void) {
      let set = listeners.get(event);
      if (!set) listeners.set(event, (set = new Set()));
      set.add(listener);
      return () => set.delete(listener);
    },
  };
  for (const name of METHOD_NAMES) {
    const [domain, action] = name.split('.') as [string, string];
    const group = (api[domain] ??= {}) as Record<string, unknown>;
    group[action] = async (input: unknown = {}) => {
      try {
        return await transport.invoke(name, input);
      } catch (error) {
        throw isBridgeErrorShape(error) ? new BridgeError(error) : error;
      }
    };
  }
  return api as ParleyApi;
}
