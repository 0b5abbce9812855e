import {
  methods,
  type MethodName,
  type MethodOutput,
  type MethodParsedInput,
} from '../../../shared/contract/methods.ts';
import { createLogger } from '../log/logger.ts';
import { toBridgeError, UserFacingError } from './errors.ts';

const log = createLogger('bridge');

export type Handlers = {
  [M in MethodName]: (input: MethodParsedInput<M>) => Promise<MethodOutput<M>> | MethodOutput<M>;
};

export type DispatchResult =
  { ok: true; value: unknown } | { ok: false; error: ReturnType<typeof toBridgeError> };

/**
 * The single entry of every bridge call, whatever the transport: the method must exist, its input
 * must pass its schema (else nothing runs), and any failure comes back in the bridge error shape.
 */
export function createDispatcher(
  handlers: Handlers,
): (method: string, input: unknown) => Promise<DispatchResult> {
  return async (method, input) => {
    try {
      if (!Object.hasOwn(methods, method))
        throw new UserFacingError('unknown_method', `No such method: ${method.slice(0, 80)}`);
      const name = method as MethodName;
      const parsed = methods[name].input.parse(input ?? {});
      const handler = handlers[name] as (input: unknown) => unknown;
      const value = await handler(parsed);
      return { ok: true, value: value ?? null };
    } catch (error) {
      const shape = toBridgeError(error);
      if (shape.code === 'internal')
        log.error('bridge call failed', {
          method,
          error: error instanceof Error ? error.message : String(error),
        });
      return { ok: false, error: shape };
    }
  };
}
