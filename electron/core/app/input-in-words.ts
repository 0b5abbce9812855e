/**
 * A schema's refusal of a bridge call in the agent's words: what is wrong, with the limit (and what
 * was given, when zod still holds the input). The dispatcher passes `inputErrorMap` to every parse;
 * a message a schema wrote itself (a refine, a pattern's explanation) outranks it in zod, so only
 * zod's own wording ("Too big: expected string to have <=10000 characters") is replaced.
 */
import type { z } from 'zod';
import {
  emptyText,
  fieldLabel,
  formatCount,
  sentenceStart,
  tooLongText,
} from '../../../shared/contract/input-words.ts';

type Issue = z.core.$ZodIssue | z.core.$ZodRawIssue;

/** zod's error map for one method's input: each issue worded with its field's label. */
export function inputErrorMap(method: string): z.core.$ZodErrorMap {
  return (issue) => issueInWords(issue, fieldLabel(method, issue.path ?? []));
}

/** The field a refusal is about: the issue's path, or for an unknown key the key itself. */
export function issueField(issue: z.core.$ZodIssue): string | undefined {
  const path = issue.path.map(String);
  // zod reports an unknown key on the object that holds it; name the key itself as the field.
  if (issue.code === 'unrecognized_keys' && issue.keys[0] !== undefined) path.push(issue.keys[0]);
  return path.join('.') || undefined;
}

const KINDS: Readonly<Record<string, string>> = {
  string: 'text',
  number: 'a number',
  int: 'a whole number',
  boolean: 'yes or no (true or false)',
  array: 'a list',
  object: 'a set of fields',
  null: 'empty (null)',
};

const FORMATS: Readonly<Record<string, string>> = {
  url: 'a web address',
  uuid: 'an id Parley made',
  guid: 'an id Parley made',
  email: 'an email address',
};

/** One issue as a sentence about `label` ("the note", "a recipient"). */
export function issueInWords(issue: Issue, label: string): string {
  const subject = sentenceStart(label);
  switch (issue.code) {
    case 'too_big':
      return tooBig(issue, label);
    case 'too_small':
      return tooSmall(issue, label);
    case 'invalid_type':
      if (issue.input === undefined) return `${subject} is missing.`;
      return `${subject} must be ${KINDS[issue.expected] ?? issue.expected}.`;
    case 'invalid_format':
      if (issue.format === 'regex' || !FORMATS[issue.format])
        return `${subject} is not in the expected form.`;
      return `${subject} must be ${FORMATS[issue.format]}.`;
    case 'invalid_value': {
      const values = issue.values.map(String);
      if (values.length === 1) return `${subject} must be “${values[0]}”.`;
      return `${subject} must be one of: ${values.slice(0, 12).join(', ')}${values.length > 12 ? ', …' : ''}.`;
    }
    case 'unrecognized_keys': {
      const keys = issue.keys.slice(0, 5).map((key) => `“${key.slice(0, 80)}”`);
      const where = issue.path?.length ? `in ${label}` : 'here';
      return `Parley does not know ${keys.length === 1 ? 'the field' : 'the fields'} ${keys.join(', ')} ${where}.`;
    }
    case 'not_multiple_of':
      return `${subject} must be a multiple of ${formatCount(issue.divisor)}.`;
    case 'custom':
      return issue.message || `${subject} is not valid.`;
    default:
      return `${subject} is not valid.`;
  }
}

function tooBig(issue: Extract<Issue, { code: 'too_big' }>, label: string): string {
  const max = issue.maximum;
  const input = issue.input;
  switch (issue.origin) {
    case 'string':
      return tooLongText(label, Number(max), typeof input === 'string' ? input.length : undefined);
    case 'array':
    case 'set': {
      const count = Array.isArray(input) ? ` ${formatCount(input.length)},` : '';
      return `Too many ${label.replace(/^the /, '')}:${count} the limit is ${formatCount(max)}.`;
    }
    case 'number':
    case 'int':
    case 'bigint':
      return outOfRange(
        label,
        'large',
        input,
        issue.inclusive === false ? `it must be below` : `the limit is`,
        max,
      );
    default:
      return outOfRange(label, 'large', undefined, 'the limit is', max);
  }
}

function tooSmall(issue: Extract<Issue, { code: 'too_small' }>, label: string): string {
  const min = issue.minimum;
  const input = issue.input;
  switch (issue.origin) {
    case 'string': {
      if (Number(min) <= 1) return emptyText(label);
      const given = typeof input === 'string' ? ` ${formatCount(input.length)} characters,` : '';
      return `${sentenceStart(label)} is too short:${given} it needs at least ${formatCount(min)}.`;
    }
    case 'array':
    case 'set':
      return `${sentenceStart(label)}: give at least ${formatCount(min)}.`;
    case 'number':
    case 'int':
    case 'bigint':
      return outOfRange(
        label,
        'small',
        input,
        issue.inclusive === false ? 'it must be above' : 'it must be at least',
        min,
      );
    default:
      return outOfRange(label, 'small', undefined, 'it must be at least', min);
  }
}

/** "The overdue threshold is too large: 5,000, the limit is 1,440." (the value when it is a number) */
function outOfRange(
  label: string,
  size: 'large' | 'small',
  input: unknown,
  bound: string,
  limit: number | bigint,
): string {
  const given = typeof input === 'number' || typeof input === 'bigint' ? ` ${formatCount(input)},` : '';
  return `${sentenceStart(label)} is too ${size}:${given} ${bound} ${formatCount(limit)}.`;
}
