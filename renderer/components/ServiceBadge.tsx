import type { Service } from '../../shared/domain.ts';

/** iMessage / SMS / RCS, coloured as agents expect (blue, green, purple). */
export function ServiceBadge({ service, compact = false }: { service: Service; compact?: boolean }) {
  const tone =
    service === 'iMessage' ? 'imessage' : service === 'SMS' ? 'sms' : service === 'RCS' ? 'rcs' : 'other';
  return (
    <span
      className={`service-badge service-${tone}${compact ? ' compact' : ''}`}
      title={`${service} conversation`}
    >
      {service}
    </span>
  );
}
