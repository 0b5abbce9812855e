/**
 * What a V3 failure code means to the person who sent the message (spec, Errors → 2xxx, 3xxx, 4xxx,
 * 5xxx), in one table: the words the app shows, and whether sending again (a new send, with a new
 * idempotency key: reusing the old key returns the stored failure without sending) can help.
 * Unknown codes get a generic entry that still shows the code.
 */

export interface DeliveryFailureInfo {
  code: string;
  /** A short sentence for the message's status line. */
  title: string;
  /** What to do about it, when there is something to do. */
  hint: string | null;
  /** Whether offering "Send again" (a new attempt with a new key) makes sense. */
  retryWithNewKey: boolean;
}

type Entry = Omit<DeliveryFailureInfo, 'code'>;

const entry = (title: string, hint: string | null, retryWithNewKey: boolean): Entry => ({
  title,
  hint,
  retryWithNewKey,
});

const FAILURES: Readonly<Record<string, Entry>> = {
  // 2xxx: the send was refused for a lasting reason.
  '2006': entry('This line is not assigned to your account', 'Send from another line', false),
  '2008': entry(
    'This recipient has not messaged you yet',
    'In sandbox mode, recipients must message first',
    false,
  ),
  '2013': entry('This chat is no longer available', 'You left this chat', false),
  '2024': entry('The recipient asked you to stop messaging them', null, false),
  '2026': entry('The recipient is blocked', 'Unblock them to send again', false),
  '2027': entry(
    'This line is restricted from sending because of its reputation',
    'Send from a different line',
    false,
  ),
  // 3xxx: trouble on the service's side.
  '3001': entry('Delivery failed — send again', 'The service had a connection problem', true),
  '3002': entry('Delivery failed — send again', 'The service could not complete the send', true),
  '3003': entry('Delivery failed — send again', 'The messaging network could not be reached', true),
  '3004': entry('Delivery failed — send again', 'The messaging network could not complete the send', true),
  '3005': entry('Delivery timed out — send again', null, true),
  '3006': entry(
    'The service had an internal error',
    'Contact support with the trace id if it happens again',
    true,
  ),
  '3007': entry(
    'The recipient could not be reached after several attempts',
    'Check that the recipient can receive messages, then try later',
    true,
  ),
  // 4xxx: delivery.
  '4001': entry('Delivery failed — send again', null, true),
  '4002': entry('The sending line is not available', 'Check the line’s status', false),
  '4004': entry('The messaging service is unavailable', 'Send again in a minute', true),
  '4005': entry(
    'The recipient’s phone does not support this kind of message',
    'Send it as plain text',
    false,
  ),
  '4006': entry('Sending timed out', 'If it does not show as sent soon, send it again', true),
  '4007': entry('The messaging network reported a send failure — send again', null, true),
  '4008': entry('This line is not allowed to send this message', 'Check the line’s status', false),
  '4009': entry(
    'This line cannot send RCS',
    'Send from another line, or without choosing RCS so it can fall back to SMS',
    false,
  ),
  '4010': entry('RCS is unavailable right now', 'Send again in a minute', true),
  // 5xxx: attachments.
  '5001': entry('The attachment could not be uploaded — send again', null, true),
  '5002': entry(
    'The attachment could not be downloaded',
    'Its address must be public (https with a valid certificate)',
    false,
  ),
  '5003': entry('The attachment could not be prepared — send again', null, true),
  '5004': entry('This type of file cannot be sent', null, false),
  '5005': entry('The attachment is too large', 'Reduce or compress the file', false),
  '5006': entry('The attachment’s type does not match its address', null, false),
  '5007': entry('The image could not be downloaded from its address', null, false),
};

/** The failure's wording and retry advice; unknown codes keep their code and get a generic wording. */
export function deliveryFailureInfo(code: string | number): DeliveryFailureInfo {
  const key = String(code).trim();
  const known = FAILURES[key];
  if (known) return { code: key, ...known };
  // 3xxx is transient by definition (spec); anything else unknown is shown, not guessed at.
  const transient = /^3\d{3}$/.test(key);
  return {
    code: key,
    title: transient ? 'Delivery failed — send again' : `Not delivered (code ${key})`,
    hint: null,
    retryWithNewKey: transient,
  };
}
