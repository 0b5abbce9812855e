/**
 * The bridge's methods: name → input schema (validated in the main process, whatever the host) and
 * output type. Grouped by domain; the renderer calls them as `parley.<domain>.<method>(input)`.
 * Every method rejects with a BridgeError ({code, message, retryable, field}).
 */
import type { z } from 'zod';
import { appMethods } from './app-methods.ts';
import { chatMethods } from './chat-methods.ts';
import { BUBBLE_EFFECTS, SCREEN_EFFECTS } from './effects.ts';
import { messageMethods } from './message-methods.ts';
import type { MethodSpec } from './method-fields.ts';
import { workbenchMethods } from './workbench-methods.ts';
import { teamMethods } from './team-methods.ts';
import { workspaceMethods } from './workspace-methods.ts';

export { BUBBLE_EFFECTS, SCREEN_EFFECTS };
export type { MethodSpec } from './method-fields.ts';

/** The one table, by area (each area's file says what its methods take, return and refuse). */
export const methods = {
  ...workspaceMethods,
  ...chatMethods,
  ...messageMethods,
  ...appMethods,
  ...workbenchMethods,
  // the team inbox (joined workspaces only)
  ...teamMethods,
} as const;

export type Methods = typeof methods;
export type MethodName = keyof Methods;
export type MethodInput<M extends MethodName> = z.input<Methods[M]['input']>;
export type MethodParsedInput<M extends MethodName> = z.output<Methods[M]['input']>;
export type MethodOutput<M extends MethodName> =
  Methods[M] extends MethodSpec<z.ZodType, infer O> ? O : never;

export const METHOD_NAMES = Object.keys(methods) as MethodName[];
