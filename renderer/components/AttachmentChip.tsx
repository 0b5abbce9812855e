import { FileText, Link as LinkIcon, X } from 'lucide-react';
import type { StagedAttachment } from '../../shared/contract/views.ts';
import { isInlineImage } from '../lib/attachment-rules.ts';
import { formatBytes } from '../lib/format.ts';

/** A file waiting in the composer: preview, name, size, remove. */
export function AttachmentChip({
  attachment,
  previewSrc,
  onRemove,
}: {
  attachment: StagedAttachment;
  previewSrc: string;
  onRemove(): void;
}) {
  return (
    <div className="attachment-chip" data-testid="attachment-chip">
      {isInlineImage(attachment.mimeType) ? (
        <img className="attachment-chip-thumb" src={previewSrc} alt="" />
      ) : (
        <span className="attachment-chip-thumb is-icon" aria-hidden="true">
          <FileText size={16} />
        </span>
      )}
      <span className="attachment-chip-text">
        <span className="attachment-chip-name" title={attachment.filename}>
          {attachment.filename}
        </span>
        <span className="attachment-chip-size">{formatBytes(attachment.size)}</span>
      </span>
      <button
        type="button"
        className="icon-button small"
        aria-label={`Remove ${attachment.filename}`}
        onClick={onRemove}
      >
        <X size={13} />
      </button>
    </div>
  );
}

export function UrlChip({ url, onRemove }: { url: string; onRemove(): void }) {
  return (
    <div className="attachment-chip">
      <span className="attachment-chip-thumb is-icon" aria-hidden="true">
        <LinkIcon size={15} />
      </span>
      <span className="attachment-chip-text">
        <span className="attachment-chip-name" title={url}>
          {url.replace(/^https?:\/\//, '')}
        </span>
        <span className="attachment-chip-size">Link, fetched by the service</span>
      </span>
      <button
        type="button"
        className="icon-button small"
        aria-label={`Remove link ${url}`}
        onClick={onRemove}
      >
        <X size={13} />
      </button>
    </div>
  );
}
