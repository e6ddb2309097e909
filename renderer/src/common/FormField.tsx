// A labelled form field with its error under it (data-testid `error-<name>`). A label element when
// it wraps one control; a div when it holds several (a select beside a button).

import type { ReactNode } from 'react';

export function FormField(props: { label: string; name: string; error: string | undefined; children: ReactNode; wide?: boolean; group?: boolean }) {
  const Wrapper = props.group ? 'div' : 'label';
  return (
    <Wrapper className={props.wide ? 'field wide' : 'field'}>
      <span>{props.label}</span>
      {props.children}
      {props.error && (
        <span className="field-error" data-testid={`error-${props.name}`}>
          {props.error}
        </span>
      )}
    </Wrapper>
  );
}
