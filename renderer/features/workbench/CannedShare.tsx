import { Download, Upload, X } from 'lucide-react';
import { useRef, useState } from 'react';
import { exportCanned, importCanned } from '../../actions/workbench.ts';

/**
 * Sharing a set of canned replies as a JSON file: export them all, or import a file (added to the
 * agent's set, or replacing it); a refused file says why and imports nothing.
 */
export function CannedShare() {
  const [importProblem, setImportProblem] = useState<string | null>(null);
  const [replace, setReplace] = useState(false);
  const importInput = useRef<HTMLInputElement>(null);
  return (
    <>
      <div className="canned-share">
        <button type="button" className="button small ghost" onClick={() => void exportCanned()}>
          <Download size={13} aria-hidden="true" /> Export
        </button>
        <button type="button" className="button small ghost" onClick={() => importInput.current?.click()}>
          <Upload size={13} aria-hidden="true" /> Import
        </button>
        <label className="checkbox small">
          <input type="checkbox" checked={replace} onChange={(e) => setReplace(e.target.checked)} /> Replace
          my set on import
        </label>
        <input
          ref={importInput}
          type="file"
          accept="application/json,.json"
          hidden
          aria-label="Canned replies file to import"
          onChange={(e) => {
            const file = e.target.files?.[0];
            e.target.value = '';
            if (file) void importCanned(file, replace).then(setImportProblem);
          }}
        />
      </div>
      {importProblem && (
        <div className="form-error" role="alert">
          Nothing was imported. {importProblem}
          <button
            type="button"
            className="icon-button small"
            aria-label="Dismiss"
            onClick={() => setImportProblem(null)}
          >
            <X size={12} />
          </button>
        </div>
      )}
    </>
  );
}
