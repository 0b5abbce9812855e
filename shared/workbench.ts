/**
 * The agent's workbench, shared by both sides: canned-reply templates and their variables, the
 * limits of a canned-reply set file (its schema is in canned-file.ts, off the renderer's boot
 * bundle; the lengths of its fields and of the file are in contract/limits.ts), and what "waiting
 * on you" means.
 */
/** The variables a canned reply can use: `{first_name}` or `{first_name|fallback}`. */
export const TEMPLATE_VARIABLES = [
  'first_name',
  'last_name',
  'company',
  'line_name',
  'line_number',
  'agent_name',
  'date',
] as const;
export type TemplateVariable = (typeof TEMPLATE_VARIABLES)[number];

export type TemplateValues = Partial<Record<TemplateVariable, string | null>>;

export interface RenderOptions {
  /** When the reply is inserted; `{date}` is this day in `timeZone`. */
  now: number;
  /** IANA time zone of the agent (the renderer passes its own). */
  timeZone: string;
  locale?: string;
}

export interface RenderedTemplate {
  text: string;
  /** Variables with no value and no fallback: left in the text as `{name}` for the agent to fill. */
  missing: TemplateVariable[];
}

const KNOWN = new Set<string>(TEMPLATE_VARIABLES);
// `{{` and `}}` are literal braces; `{name}` / `{name|fallback}` is a variable when `name` is known.
const TOKEN = /\{\{|\}\}|\{([a-z_]+)(?:\|([^{}]*))?\}/g;

/** Today's date as the agent reads it, in their time zone. */
function formatTemplateDate(now: number, timeZone: string, locale = 'en-US'): string {
  return new Intl.DateTimeFormat(locale, { dateStyle: 'long', timeZone }).format(new Date(now));
}

/**
 * Fills a template: known variables take their value, else their fallback, else stay as `{name}`
 * (reported in `missing`); braces that are not variables are kept as written.
 */
export function renderTemplate(
  template: string,
  values: TemplateValues,
  options: RenderOptions,
): RenderedTemplate {
  const missing = new Set<TemplateVariable>();
  const text = template.replace(TOKEN, (token, name: string | undefined, fallback: string | undefined) => {
    if (token === '{{') return '{';
    if (token === '}}') return '}';
    if (!name || !KNOWN.has(name)) return token;
    const variable = name as TemplateVariable;
    const value =
      variable === 'date'
        ? formatTemplateDate(options.now, options.timeZone, options.locale)
        : (values[variable] ?? '').trim();
    if (value !== '') return value;
    if (fallback !== undefined && fallback.trim() !== '') return fallback.trim();
    missing.add(variable);
    return `{${variable}}`;
  });
  return { text, missing: [...missing] };
}

/** The `{variable}` placeholders still in a message: it must not be sent while there are any. */
export function unfilledVariables(text: string): TemplateVariable[] {
  const found = new Set<TemplateVariable>();
  for (const match of text.matchAll(/\{([a-z_]+)\}/g)) {
    if (KNOWN.has(match[1] as string)) found.add(match[1] as TemplateVariable);
  }
  return [...found];
}

/** Why a message with placeholders left cannot be sent yet. */
export function unfilledNotice(variables: readonly TemplateVariable[]): string {
  const list = variables.map((v) => `{${v}}`).join(', ');
  return `Fill in or remove ${list} before sending: ${variables.length === 1 ? 'it has' : 'they have'} no value for this conversation.`;
}

// ── canned-reply set files (export / import) ─────────────────────────────────────────────────

export const CANNED_FILE_FORMAT = 'parley.canned-replies';
/** One attachment of a canned reply (kept in the store, so small). */
export const MAX_CANNED_ATTACHMENT_BYTES = 1024 * 1024;
export const MAX_CANNED_ATTACHMENTS = 3;

// ── waiting on you ───────────────────────────────────────────────────────────────────────────

export interface WaitingEntry {
  chatId: number;
  /** When the customer's unanswered message arrived. */
  since: number;
}

/** Oldest wait first; ties by chat id so the order is stable. */
export function byLongestWait(a: WaitingEntry, b: WaitingEntry): number {
  return a.since - b.since || a.chatId - b.chatId;
}

/** Whether a wait has passed the agent's threshold (0 turns overdue marking off). */
export function isOverdue(since: number, now: number, thresholdMinutes: number): boolean {
  return thresholdMinutes > 0 && now - since >= thresholdMinutes * 60_000;
}
