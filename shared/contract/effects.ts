/**
 * The V3 send options' names, apart from the method schemas so the renderer can list them without
 * loading zod (the boot bundle); methods.ts builds its enums from these and re-exports them.
 */
/** V3 message effects (iMessage only), as the service names them (V3-DECISIONS.md → Effects). */
export const SCREEN_EFFECTS = [
  'confetti',
  'fireworks',
  'lasers',
  'sparkles',
  'hearts',
  'balloons',
  'echo',
  'spotlight',
] as const;
export const BUBBLE_EFFECTS = ['slam', 'loud', 'gentle', 'invisible'] as const;
/** The services an agent may ask a message to go over (V3 `preferred_service`). */
export const PREFERRED_SERVICES = ['iMessage', 'RCS', 'SMS'] as const;
