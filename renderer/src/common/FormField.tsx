// A labelled form field with its error under it, and that error on its own for a control outside a
// field (a table cell, a list of choices). A label element when the field wraps one control; a div
// when it holds several (a select beside a button).

import type { ReactNode } from 'react';

/** A field's error, or nothing while there is none (FormField gives it data-testid `error-<name>` unless told). */
export function FieldError({ error, testId }: { error: string | undefined; testId: string }) {
  return error ? (
    <span className="field-error" role="alert" data-testid={testId}>
      {error}
    </span>
  ) : null;
}

export function FormField(props: { label: string; name: string; error: string | undefined; children: ReactNode; wide?: boolean; group?: boolean; errorTestId?: string }) {
  const Wrapper = props.group ? 'div' : 'label';
  return (
    <Wrapper className={props.wide ? 'field wide' : 'field'}>
      <span>{props.label}</span>
      {props.children}
      <FieldError error={props.error} testId={props.errorTestId ?? `error-${props.name}`} />
    </Wrapper>
  );
}
