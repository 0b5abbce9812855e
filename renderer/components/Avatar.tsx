import { Users } from 'lucide-react';
import { hueOf, initials } from '../lib/chat-presentation.ts';

/** Initials on a stable colour; groups get a people icon. Decorative: the name is always beside it. */
export function Avatar({ name, group = false, size = 36 }: { name: string; group?: boolean; size?: number }) {
  return (
    <span
      className="avatar"
      aria-hidden="true"
      style={{ width: size, height: size, fontSize: size * 0.38, ['--avatar-hue' as string]: hueOf(name) }}
    >
      {group ? <Users size={size * 0.48} strokeWidth={2} /> : initials(name)}
    </span>
  );
}
