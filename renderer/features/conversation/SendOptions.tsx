import { Sparkles } from 'lucide-react';
import { BUBBLE_EFFECTS, SCREEN_EFFECTS } from '../../../shared/contract/effects.ts';
import type { Chat } from '../../../shared/domain.ts';
import { chooseEffect, chooseService } from '../../actions/composer.ts';
import type { Capabilities } from '../../lib/capabilities.ts';
import { canUseEffects, effectName } from '../../lib/effects.ts';
import { denied } from '../../lib/permission.ts';
import { serviceOptions, type ServiceChoice } from '../../lib/service-choice.ts';
import { useStore } from '../../store/index.ts';

/**
 * Under the composer's box: the effect and the service of the next message, each shown only where
 * the workspace has it (`effects`, `serviceChoice`). A draft may still carry a choice the workspace
 * cannot send (its API version was changed since): the control then shows too, so the agent can take
 * it back, with every other option refused and the reason.
 */
export function SendOptions({ chat, capabilities }: { chat: Chat; capabilities: Capabilities }) {
  const effect = useStore((s) => s.drafts[chat.id]?.effect ?? null);
  const service = useStore((s) => s.drafts[chat.id]?.service ?? 'auto');
  const showEffects = capabilities.effects || effect !== null;
  const showService = capabilities.serviceChoice || service !== 'auto';
  if (!showEffects && !showService) return null;
  return (
    <div className="send-options">
      {showEffects && <EffectPicker chat={chat} capabilities={capabilities} />}
      {showService && <ServicePicker chat={chat} capabilities={capabilities} />}
    </div>
  );
}

function EffectPicker({ chat, capabilities }: { chat: Chat; capabilities: Capabilities }) {
  const effect = useStore((s) => s.drafts[chat.id]?.effect ?? null);
  const effects = capabilities.effects ? canUseEffects(chat) : denied('Effects: needs a V3 workspace');
  const chosen = effect ? `${effect.type}:${effect.name}` : '';
  // A chosen effect that cannot be sent stays changeable, to "No effect".
  const locked = !effects.allowed && effect === null;
  return (
    <label className="send-option" title={effects.allowed ? 'Send with an effect' : effects.reason}>
      <Sparkles size={13} aria-hidden="true" />
      <span className="visually-hidden">Effect</span>
      <select
        aria-label={effects.allowed ? 'Effect' : `Effect: ${effects.reason}`}
        value={chosen}
        disabled={locked}
        onChange={(e) => {
          const [type, name] = e.target.value.split(':');
          chooseEffect(chat.id, type && name ? { type, name } : null);
        }}
      >
        <option value="">{effects.allowed || effect !== null ? 'No effect' : effects.reason}</option>
        <optgroup label="Screen">
          {SCREEN_EFFECTS.map((name) => (
            <option
              key={name}
              value={`screen:${name}`}
              disabled={!effects.allowed && chosen !== `screen:${name}`}
            >
              {effectName(name)}
            </option>
          ))}
        </optgroup>
        <optgroup label="Bubble">
          {BUBBLE_EFFECTS.map((name) => (
            <option
              key={name}
              value={`bubble:${name}`}
              disabled={!effects.allowed && chosen !== `bubble:${name}`}
            >
              {effectName(name)}
            </option>
          ))}
        </optgroup>
      </select>
    </label>
  );
}

function ServicePicker({ chat, capabilities }: { chat: Chat; capabilities: Capabilities }) {
  const service = useStore((s) => s.drafts[chat.id]?.service ?? 'auto');
  const options = serviceOptions(chat, capabilities.serviceChoice);
  const refused = options.find((o) => o.value === service && !o.permission.allowed);
  return (
    <>
      <label className="send-option">
        <span>Send as</span>
        <select
          aria-label="Send as"
          value={service}
          onChange={(e) => chooseService(chat.id, e.target.value as ServiceChoice)}
        >
          {options.map((o) => (
            <option key={o.value} value={o.value} disabled={!o.permission.allowed}>
              {o.permission.allowed ? o.label : `${o.label} (${o.permission.reason})`}
            </option>
          ))}
        </select>
      </label>
      {refused && !refused.permission.allowed && (
        <span className="field-error">{refused.permission.reason}</span>
      )}
    </>
  );
}
