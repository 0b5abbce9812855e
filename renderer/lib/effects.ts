/**
 * iMessage effects: their names as agents know them, the label a bubble wears for one, and whether
 * the next message of a chat can carry one. Whether the workspace sends effects at all is a
 * capability (capabilities.ts `effects`).
 */
import type { Chat, MessageEffect } from '../../shared/domain.ts';
import { ALLOWED, denied, type Permission } from './permission.ts';

const EFFECT_NAMES: Readonly<Record<string, string>> = {
  confetti: 'Confetti',
  fireworks: 'Fireworks',
  lasers: 'Lasers',
  sparkles: 'Sparkles',
  celebration: 'Sparkles',
  hearts: 'Hearts',
  love: 'Hearts',
  balloons: 'Balloons',
  happy_birthday: 'Balloons',
  echo: 'Echo',
  spotlight: 'Spotlight',
  slam: 'Slam',
  loud: 'Loud',
  gentle: 'Gentle',
  invisible: 'Invisible ink',
};

export function effectName(name: string): string {
  return EFFECT_NAMES[name] ?? name.replace(/_/g, ' ');
}

/** The label a bubble wears for its effect: "Sent with Confetti". */
export function effectLabel(effect: MessageEffect | null | undefined): string | null {
  if (!effect?.name) return null;
  return `Sent with ${effectName(effect.name)}`;
}

/** Effects exist on iMessage only. */
export function canUseEffects(chat: Pick<Chat, 'service'>): Permission {
  if (chat.service !== 'iMessage') return denied('Effects are shown on iMessage only');
  return ALLOWED;
}
