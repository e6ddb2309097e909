// The end of an edit form: what the back end refused, then Save and Cancel (data-testids
// `<prefix>-save-error`, `<prefix>-save`, `<prefix>-cancel`).

import { ErrorBanner } from './Banner.tsx';

export function FormActions(props: { testIdPrefix: string; saveLabel: string; saving: boolean; error: string | null; disabled?: boolean; onCancel: () => void }) {
  const prefix = props.testIdPrefix;
  return (
    <>
      <ErrorBanner error={props.error} testId={`${prefix}-save-error`} />
      <div className="actions">
        <button type="submit" className="primary" disabled={props.saving || props.disabled} data-testid={`${prefix}-save`}>
          {props.saving ? 'Saving…' : props.saveLabel}
        </button>
        <button type="button" onClick={props.onCancel} data-testid={`${prefix}-cancel`}>
          Cancel
        </button>
      </div>
    </>
  );
}
