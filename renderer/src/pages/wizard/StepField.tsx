// A labelled field of a wizard step with its error under it (data-testid `error-<name>`).

import type { ReactNode } from 'react';

export function StepField(props: { label: string; name: string; error: string | undefined; children: ReactNode }) {
  return (
    <div className="field">
      <span>{props.label}</span>
      {props.children}
      {props.error && (
        <span className="field-error" data-testid={`error-${props.name}`}>
          {props.error}
        </span>
      )}
    </div>
  );
}
