import { PhoneCall, PhoneIncoming, PhoneMissed, PhoneOutgoing, Voicemail } from 'lucide-react';
import type { Call } from '../../shared/domain.ts';
import { formatDuration, formatTimeOfDay } from '../lib/format.ts';

/** A call in the timeline: who called, how it ended, its summary and transcript. */
export function CallRecord({ call }: { call: Call }) {
  const missed = call.status === 'missed' || call.status === 'failed';
  const Icon = call.voicemail
    ? Voicemail
    : missed
      ? PhoneMissed
      : call.direction === 'inbound'
        ? PhoneIncoming
        : call.direction === 'outbound'
          ? PhoneOutgoing
          : PhoneCall;
  const what = call.voicemail
    ? 'Voicemail'
    : missed
      ? 'Missed call'
      : `${call.direction === 'outbound' ? 'Outgoing' : 'Incoming'} call`;
  const at = call.startedAt ?? call.endedAt;
  return (
    <div className={`call-record${missed ? ' is-missed' : ''}`}>
      <div className="call-record-head">
        <Icon size={15} aria-hidden="true" />
        <span className="call-record-title">{what}</span>
        {call.durationSeconds > 0 && (
          <span className="call-record-meta">{formatDuration(call.durationSeconds)}</span>
        )}
        {at !== null && <span className="call-record-meta">{formatTimeOfDay(at)}</span>}
        {call.forwardedFrom && <span className="call-record-meta">forwarded from {call.forwardedFrom}</span>}
      </div>
      {call.summary && <p className="call-record-summary">{call.summary}</p>}
      {call.transcript && (
        <details className="call-record-transcript">
          <summary>Transcript</summary>
          <p>{call.transcript}</p>
        </details>
      )}
    </div>
  );
}
