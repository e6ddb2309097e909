// The Run page's session name: typed, or left empty for the proposed one (shown as the placeholder),
// which is what the session is then called.

import { FormField } from '../../common/FormField.tsx';

export function SessionNameField(props: { value: string; placeholder: string; error: string | undefined; onChange: (name: string) => void }) {
  return (
    <div className="grid">
      <FormField label="Session name (empty: the one proposed)" name="name" error={props.error} wide>
        <input value={props.value} placeholder={props.placeholder} maxLength={200} data-testid="run-name" onChange={(event) => props.onChange(event.target.value)} />
      </FormField>
    </div>
  );
}
