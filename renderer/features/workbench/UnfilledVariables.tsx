import { TriangleAlert } from 'lucide-react';
import type { TemplateVariable } from '../../../shared/workbench.ts';

const LABELS: Record<TemplateVariable, string> = {
  first_name: 'first name',
  last_name: 'last name',
  company: 'company',
  line_name: 'line name',
  line_number: 'line number',
  agent_name: 'your name (set it in Settings)',
  date: 'date',
};

/** Placeholders of a canned reply that have no value here: sending waits until they are filled or removed. */
export function UnfilledVariables({ id, variables }: { id: string; variables: readonly TemplateVariable[] }) {
  return (
    <div className="composer-unfilled" id={id} role="status">
      <TriangleAlert size={14} aria-hidden="true" />
      <span>
        Replace{' '}
        {variables.map((v, i) => (
          <span key={v}>
            {i > 0 && ', '}
            <mark className="unfilled-variable">{`{${v}}`}</mark> ({LABELS[v]})
          </span>
        ))}{' '}
        or delete {variables.length === 1 ? 'it' : 'them'}: this conversation has no value for{' '}
        {variables.length === 1 ? 'it' : 'them'}, and it is never sent as written.
      </span>
    </div>
  );
}
