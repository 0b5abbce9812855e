import {
  Download,
  ExternalLink,
  FileText,
  File as FileIcon,
  Contact as ContactIcon,
  Play,
  RotateCw,
} from 'lucide-react';
import { useState } from 'react';
import { inlineMediaType } from '../../shared/contract/media.ts';
import type { Attachment } from '../../shared/domain.ts';
import { attachmentKind, isInlineImage, isInlineVideo } from '../lib/attachment-rules.ts';
import { formatBytes } from '../lib/format.ts';
import { BitmapPicture, type CoverBox } from './BitmapPicture.tsx';

export interface AttachmentActions {
  /** The URL the app serves this attachment from. */
  srcOf(attachment: Attachment): string;
  /**
   * What the bubble draws of a photo: its display-size thumbnail for this screen, and the bubble's
   * box in device pixels (a staged file, which has none, is drawn down to it). The viewer opens srcOf.
   */
  thumbnailOf(attachment: Attachment): { src: string; cover: CoverBox };
  onView(attachment: Attachment, kind: 'image' | 'video'): void;
  /** Rejects with the reason (in words) when the file cannot be had. */
  onOpen(attachment: Attachment, save: boolean): Promise<void>;
}

/**
 * An attachment inside a bubble. Images and videos get a fixed box before they load, so the
 * timeline never jumps when they arrive; other files are a card with icon, name, size, open/save.
 */
export function AttachmentView({
  attachment,
  actions,
}: {
  attachment: Attachment;
  actions: AttachmentActions;
}) {
  const [broken, setBroken] = useState(false);
  // Judged by the base type the hosts serve inline (an SVG or a typed-up document is a file card).
  const media = inlineMediaType(attachment.mimeType);
  if (media && isInlineImage(media) && !broken) {
    // The box is fixed (260 × 195, cropped to cover), so nothing moves when the thumbnail arrives.
    // Drawn from a bitmap the page lets go (BitmapPicture says why; an animation plays as an <img>).
    const { src, cover } = actions.thumbnailOf(attachment);
    return (
      <button
        type="button"
        className="attachment-media"
        aria-label={`Open image ${attachment.filename}`}
        onClick={() => actions.onView(attachment, 'image')}
      >
        <BitmapPicture src={src} alt={attachment.filename} cover={cover} onError={() => setBroken(true)} />
      </button>
    );
  }
  if (media && isInlineVideo(media) && !broken) {
    const src = actions.srcOf(attachment);
    return (
      <div className="attachment-media is-video">
        <video
          src={src}
          preload="metadata"
          controls
          onError={() => setBroken(true)}
          aria-label={`Video ${attachment.filename}`}
        />
        <button
          type="button"
          className="attachment-expand"
          aria-label={`Open video ${attachment.filename} in the viewer`}
          onClick={() => actions.onView(attachment, 'video')}
        >
          <Play size={12} />
        </button>
      </div>
    );
  }
  return <AttachmentFileCard attachment={attachment} onOpen={actions.onOpen} />;
}

/** A file card's buttons: Open (a picture or video in a tab, anything else downloaded) and Save. */
const FILE_ACTIONS = [
  { verb: 'Open', save: false, Icon: ExternalLink },
  { verb: 'Save', save: true, Icon: Download },
] as const;

/**
 * A file as a card: icon, name, size, Open and Save. A file the app cannot fetch says so on the
 * card, with the reason and a way to try again; nothing else opens.
 */
function AttachmentFileCard({
  attachment,
  onOpen,
}: {
  attachment: Attachment;
  onOpen: AttachmentActions['onOpen'];
}) {
  const [failure, setFailure] = useState<{ reason: string; save: boolean } | null>(null);
  const [busy, setBusy] = useState(false);
  const open = (save: boolean) => {
    setBusy(true);
    onOpen(attachment, save).then(
      () => {
        setFailure(null);
        setBusy(false);
      },
      (error: unknown) => {
        setFailure({ reason: error instanceof Error ? error.message : String(error), save });
        setBusy(false);
      },
    );
  };
  const kind = attachmentKind(attachment.mimeType);
  const Icon = kind === 'contact' ? ContactIcon : kind === 'pdf' || kind === 'text' ? FileText : FileIcon;
  return (
    <div className="attachment-file-card" aria-busy={busy}>
      <div className="attachment-file">
        <span className={`attachment-file-icon kind-${kind}`} aria-hidden="true">
          <Icon size={18} />
        </span>
        <span className="attachment-file-text">
          <span className="attachment-file-name" title={attachment.filename}>
            {attachment.filename}
          </span>
          <span className="attachment-file-size">
            {[
              kindLabel(kind, attachment.mimeType),
              attachment.size === null ? null : formatBytes(attachment.size),
            ]
              .filter(Boolean)
              .join(' · ')}
          </span>
        </span>
        {FILE_ACTIONS.map(({ verb, save, Icon: ActionIcon }) => (
          <button
            key={verb}
            type="button"
            className="icon-button"
            aria-label={`${verb} ${attachment.filename}`}
            title={verb}
            disabled={busy}
            onClick={() => open(save)}
          >
            <ActionIcon size={15} />
          </button>
        ))}
      </div>
      {busy && (
        <span className="attachment-fetching" role="status">
          Fetching “{attachment.filename}”…
        </span>
      )}
      {failure && !busy && (
        <div className="attachment-failure" role="alert">
          <span>
            “{attachment.filename}” could not be fetched. {failure.reason}
          </span>
          <button type="button" className="button small" disabled={busy} onClick={() => open(failure.save)}>
            <RotateCw size={13} aria-hidden="true" /> Try again
          </button>
        </div>
      )}
    </div>
  );
}

function kindLabel(kind: string, mimeType: string): string {
  if (kind === 'pdf') return 'PDF';
  if (kind === 'contact') return 'Contact card';
  if (kind === 'text') return 'Text';
  if (mimeType === 'image/heic') return 'HEIC image';
  if (kind === 'image') return 'Image';
  if (kind === 'video') return 'Video';
  return 'File';
}
