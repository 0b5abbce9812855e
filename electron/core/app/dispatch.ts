import {
  methods,
  type MethodName,
  type MethodOutput,
  type MethodParsedInput,
} from '../../../shared/contract/methods.ts';
import { createLogger } from '../log/logger.ts';
import { refusedInput, toBridgeError, UserFacingError } from './errors.ts';
import { inputErrorMap } from './input-in-words.ts';

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
      // Refusals are worded for the agent, each field by its label in the contract.
      const parsed = methods[name].input.safeParse(input ?? {}, { error: inputErrorMap(name) });
      if (!parsed.success) throw refusedInput(parsed.error);
      const handler = handlers[name] as (input: unknown) => unknown;
      const value = await handler(parsed.data);
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
