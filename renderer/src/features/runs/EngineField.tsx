// The load engine a run asks for, on the Run page and in the wizard: auto (the native engine where
// it can run, else the Node engine with a notice on the run), or one of them forced.

import { ENGINE_CHOICES, type EngineChoice } from '../../../../app/runs/engine-choice.ts';
import { FormField } from '../../common/FormField.tsx';

const CHOICE_TEXT: Record<EngineChoice, string> = {
  auto: 'Auto (native where it can run)',
  native: 'Native only',
  node: 'Node',
};

export function EngineField(props: { value: EngineChoice; disabled: boolean; testId: string; onChange: (choice: EngineChoice) => void }) {
  return (
    <FormField label="Load engine" name="engine" error={undefined}>
      <select value={props.value} disabled={props.disabled} data-testid={props.testId} onChange={(event) => props.onChange(event.target.value as EngineChoice)}>
        {ENGINE_CHOICES.map((choice) => (
          <option key={choice} value={choice}>
            {CHOICE_TEXT[choice]}
          </option>
        ))}
      </select>
    </FormField>
  );
}
