import { Download } from 'lucide-react';
import { Modal } from '../../components/Modal.tsx';
import { useStore } from '../../store/index.ts';
import { BitmapPicture } from '../../components/BitmapPicture.tsx';

/** A photo (the core's copy for the viewer's box) or a video, over everything; Esc or a click outside closes it; Save keeps the file itself. */
export function MediaViewer() {
  const viewer = useStore((s) => s.viewer);
  const close = useStore((s) => s.setViewer);
  if (!viewer) return null;
  return (
    <Modal title={viewer.filename} onClose={() => close(null)} width={960} className="media-viewer">
      <div className="media-viewer-body">
        {viewer.kind === 'image' && viewer.picture ? (
          <BitmapPicture src={viewer.picture} alt={viewer.filename} />
        ) : viewer.kind === 'image' ? (
          <img src={viewer.url} alt={viewer.filename} />
        ) : (
          <video src={viewer.url} controls autoPlay aria-label={viewer.filename} />
        )}
      </div>
      <div className="modal-footer">
        <a className="button" href={viewer.url} download={viewer.filename}>
          <Download size={14} aria-hidden="true" /> Save
        </a>
      </div>
    </Modal>
  );
}
