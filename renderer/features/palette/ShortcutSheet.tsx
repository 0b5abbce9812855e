import { Kbd } from '../../components/EmptyState.tsx';
import { Modal } from '../../components/Modal.tsx';
import { isMac, SHORTCUTS } from '../../lib/keyboard.ts';
import { useStore } from '../../store/index.ts';

/** `?`: every shortcut, from the same table the key handler uses. */
export function ShortcutSheet() {
  const close = useStore((s) => s.setOverlay);
  const mac = isMac(navigator.platform || navigator.userAgent);
  const extra = [
    { keys: ['Enter'], description: 'Send the message' },
    { keys: ['Shift', 'Enter'], description: 'New line in the message' },
    { keys: ['↑', '↓'], description: 'Move between conversations in the list' },
  ];
  return (
    <Modal title="Keyboard shortcuts" onClose={() => close(null)} width={480}>
      <dl className="shortcut-list">
        {[...SHORTCUTS, ...extra].map((shortcut) => (
          <div key={shortcut.description} className="shortcut-row">
            <dt>{shortcut.description}</dt>
            <dd>
              {shortcut.keys.map((key) => (
                <Kbd key={key}>{key === 'Mod' ? (mac ? '⌘' : 'Ctrl') : key}</Kbd>
              ))}
            </dd>
          </div>
        ))}
      </dl>
    </Modal>
  );
}
