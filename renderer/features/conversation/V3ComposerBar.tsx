import { AlertTriangle, Reply, Sparkles, X } from 'lucide-react';
import { BUBBLE_EFFECTS, SCREEN_EFFECTS } from '../../../shared/contract/effects.ts';
import type { ApiVersion, Chat, Line } from '../../../shared/domain.ts';
import { openLink } from '../../actions/workspace.ts';
import { cancelReply, chooseEffect, chooseService } from '../../actions/v3.ts';
import {
  canUseEffects,
  effectName,
  sendingWarning,
  serviceOptions,
  type ServiceChoice,
} from '../../lib/v3-presentation.ts';
import { useStore } from '../../store/index.ts';

/** Above the composer's box: the line's or chat's standing, and the message being replied to. */
export function ComposerNotices({ chat, line }: { chat: Chat; line: Line | null }) {
  const reply = useStore((s) => s.drafts[chat.id]?.replyTo ?? null);
  const warning = sendingWarning(chat, line);
  return (
    <>
      {warning && (
        <div className={`composer-standing is-${warning.level}`} role="note">
          <AlertTriangle size={14} aria-hidden="true" />
          <span>{warning.text}</span>
          {warning.docUrl && (
            <button
              type="button"
              className="link-button"
              onClick={() => void openLink(warning.docUrl as string).catch(() => undefined)}
            >
              Learn more
            </button>
          )}
        </div>
      )}
      {reply && (
        <div className="composer-reply" role="group" aria-label="Replying to">
          <Reply size={14} aria-hidden="true" />
          <span className="composer-reply-text">
            <span className="composer-reply-author">Replying to {reply.author}</span>
            <span className="composer-reply-quote">{reply.quote}</span>
          </span>
          <button
            type="button"
            className="icon-button small"
            aria-label="Cancel the reply"
            title="Cancel the reply"
            onClick={() => cancelReply(chat.id)}
          >
            <X size={13} />
          </button>
        </div>
      )}
    </>
  );
}

/** The effect and service for the next message: disabled with the reason where they do not apply. */
export function SendOptions({ chat, version }: { chat: Chat; version: ApiVersion }) {
  const effect = useStore((s) => s.drafts[chat.id]?.effect ?? null);
  const service = useStore((s) => s.drafts[chat.id]?.service ?? 'auto');
  const effects = canUseEffects(chat, version);
  const services = serviceOptions(chat, version);
  const chosenEffect = effect ? `${effect.type}:${effect.name}` : '';
  const serviceRefused = services.find((o) => o.value === service && !o.permission.allowed);
  return (
    <div className="send-options">
      <label className="send-option" title={effects.allowed ? 'Send with an effect' : effects.reason}>
        <Sparkles size={13} aria-hidden="true" />
        <span className="visually-hidden">Effect</span>
        <select
          aria-label={effects.allowed ? 'Effect' : `Effect: ${effects.reason}`}
          value={chosenEffect}
          disabled={!effects.allowed}
          onChange={(e) => {
            const [type, name] = e.target.value.split(':');
            chooseEffect(chat.id, type && name ? { type, name } : null);
          }}
        >
          <option value="">{effects.allowed ? 'No effect' : effects.reason}</option>
          <optgroup label="Screen">
            {SCREEN_EFFECTS.map((name) => (
              <option key={name} value={`screen:${name}`}>
                {effectName(name)}
              </option>
            ))}
          </optgroup>
          <optgroup label="Bubble">
            {BUBBLE_EFFECTS.map((name) => (
              <option key={name} value={`bubble:${name}`}>
                {effectName(name)}
              </option>
            ))}
          </optgroup>
        </select>
      </label>
      <label className="send-option">
        <span>Send as</span>
        <select
          aria-label="Send as"
          value={service}
          onChange={(e) => chooseService(chat.id, e.target.value as ServiceChoice)}
        >
          {services.map((o) => (
            <option key={o.value} value={o.value} disabled={!o.permission.allowed}>
              {o.permission.allowed ? o.label : `${o.label} (${o.permission.reason})`}
            </option>
          ))}
        </select>
      </label>
      {serviceRefused && !serviceRefused.permission.allowed && (
        <span className="field-error">{serviceRefused.permission.reason}</span>
      )}
    </div>
  );
}
