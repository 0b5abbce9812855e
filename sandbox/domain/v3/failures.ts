/** Send failures a message can end in (the spec's 3xxx and 4xxx tables; 4003 is about webhooks). */
export const SEND_FAILURES: Record<number, string> = {
  3001: 'Server connection error',
  3002: 'Server operation failed',
  3003: 'Service connection error',
  3004: 'Service operation failed',
  3005: 'Network timeout',
  3006: 'Internal server error',
  3007: 'Maximum delivery attempts exceeded',
  4001: 'Delivery failed',
  4002: 'Phone not available',
  4004: 'Service unavailable',
  4005: 'Recipient does not support this message type',
  4006: 'Message send timed out',
  4007: 'Messaging service reported a send failure',
  4008: 'Sender is not eligible to send this message',
  4009: 'Sender line has no RCS account',
  4010: 'RCS capability check unavailable',
};

export const SEND_FAILURE_CODES = Object.keys(SEND_FAILURES).map(Number);

/** An unreachable recipient: the service gave up after its attempts. */
export const UNREACHABLE_CODE = 3007;
