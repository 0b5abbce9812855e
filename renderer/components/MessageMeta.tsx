import { AlertCircle, RotateCw } from 'lucide-react';
import type { Message } from '../../shared/domain.ts';
import { formatTimeOfDay } from '../lib/format.ts';
import { deliveryWords, failurePresentation, isFailed, isInFlight } from '../lib/delivery.ts';
import { heldPresentation } from '../lib/team-compose.ts';
import type { MessageHandlers } from './message-handlers.ts';

/**
 * The line under a message: Edited, its time at the end of a run, the agent's own delivery status,
 * and a failed send's reason with what can be done (Retry, Send again, Discard).
 */
export function MessageMeta({
  message,
  endsRun,
  now,
  offline,
  handlers,
}: {
  message: Message;
  endsRun: boolean;
  now: number;
  offline: boolean;
  handlers: Pick<MessageHandlers, 'onSendAgain' | 'onDiscard' | 'onRetry'>;
}) {
  const outbound = message.fromMe;
  const failed = isFailed(message);
  const inFlight = isInFlight(message) || message.state === 'pending';
  const showStatus = outbound && (endsRun || failed || inFlight);
  // A send held by the team (a teammate answered first) is no failure to retry: the composer's banner offers Send anyway / Discard.
  const failure = heldPresentation(message) ?? failurePresentation(message);
  const status = deliveryWords(message, now, offline);
  if (!showStatus && message.editedAt === null && (outbound || !endsRun)) return null;
  return (
    <div className="message-meta">
      {message.editedAt !== null && <span className="message-edited">Edited</span>}
      {(endsRun || failed) && (
        <time dateTime={new Date(message.sentAt).toISOString()}>{formatTimeOfDay(message.sentAt)}</time>
      )}
      {showStatus && (
        <span className={`message-status state-${message.state}`}>
          {failed && <AlertCircle size={12} aria-hidden="true" />}
          {status}
        </span>
      )}
      {failure?.hint && <span className="message-failure-hint">{failure.hint}</span>}
      {failure?.code && <span className="message-failure-code">Code {failure.code}</span>}
      {failure?.action === 'send-again' && (
        <button type="button" className="link-button" onClick={() => handlers.onSendAgain(message)}>
          <RotateCw size={12} aria-hidden="true" /> Send again
        </button>
      )}
      {failure && failure.action !== 'retry' && failure.action !== 'held' && outbound && (
        <button type="button" className="link-button danger" onClick={() => handlers.onDiscard(message.key)}>
          Discard
        </button>
      )}
      {failure?.action === 'retry' && (
        <>
          <button type="button" className="link-button" onClick={() => handlers.onRetry(message.key)}>
            <RotateCw size={12} aria-hidden="true" /> Retry
          </button>
          <button
            type="button"
            className="link-button danger"
            onClick={() => handlers.onDiscard(message.key)}
          >
            Discard
          </button>
        </>
      )}
    </div>
  );
}
