/**
 * memory-breakdown.ts's options (--quick, --minutes, --every, --warm-up, --probe, --json), the
 * organization's size and the agent's pace that follow from them.
 */
import { parseArgs } from 'node:util';

export const { values: args } = parseArgs({
  options: {
    minutes: { type: 'string', default: '8' },
    every: { type: 'string', default: '0' },
    'warm-up': { type: 'string', default: '1' },
    quick: { type: 'boolean', default: false },
    probe: { type: 'boolean', default: false },
    json: { type: 'string' },
  },
  // Unknown arguments are ignored, as when image-decode-probe.ts (with arguments of its own) imported
  // this for smaps(), now in smaps.ts.
  strict: false,
});
const QUICK = args.quick === true;
export const MINUTES = Number(args.minutes);
export const EVERY = Number(args.every) || MINUTES;
export const WARM_UP_MIN = Number(args['warm-up']);
export const PROBE = args.probe === true;
export const ORG = QUICK
  ? { chats: 200, perChat: 10, longChat: 2_000 }
  : { chats: 2_000, perChat: 50, longChat: 20_000 };
// As bench-memory's full day (its quick run shortens the scroll and photo periods); customers write
// at bench-memory's rate.
export const SWITCH_EVERY_MS = 2_000;
export const SEND_EVERY = 5;
export const SCROLL_EVERY = QUICK ? 5 : 15;
export const ATTACHMENT_EVERY = QUICK ? 10 : 30;
