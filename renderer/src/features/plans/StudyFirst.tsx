// Choosing a study first: on the wizard's first step, a study can be taken before any host is, and
// it proposes at once its templates, its host presets and its load profile (the later steps show
// them checked, and every one stays editable).

import type { Study } from '../../../../app/plans/studies.ts';
import { FormField } from '../../common/FormField.tsx';
import { EntryOptions } from '../../common/EntryOptions.tsx';

export function StudyFirst(props: { studies: Study[]; studyId: string | null; onStudy: (study: Study | null) => void }) {
  if (props.studies.length === 0) return null;
  const chosen = props.studies.find((study) => study.id === props.studyId);
  return (
    <div className="card" data-testid="wizard-study-first">
      <div className="grid">
        <FormField label="Start from a study (optional: proposes its templates, presets and load)" name="studyFirst" error={undefined} wide>
          <select
            value={chosen?.id ?? ''}
            data-testid="wizard-study-first-choice"
            onChange={(event) => {
              props.onStudy(props.studies.find((entry) => entry.id === event.target.value) ?? null);
            }}
          >
            <option value="">No study: choose templates and load yourself</option>
            <EntryOptions entries={props.studies} />
          </select>
        </FormField>
      </div>
      {chosen && <p className="muted small">{chosen.seed}</p>}
    </div>
  );
}
