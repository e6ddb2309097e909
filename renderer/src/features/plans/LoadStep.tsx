// Wizard step 4: the load profile, started from a study (the five seed experiments of docs/studies.md,
// each with what was done) or written by hand. Picking a study fills the form; its templates and
// presets are taken only on the user's word, since steps 2 and 3 already chose theirs.

import type { Study } from '../../../../app/plans/studies.ts';
import { EngineField } from '../runs/EngineField.tsx';
import { ProfileForm } from '../runs/ProfileForm.tsx';
import { draftOfProfile, type ProfileDraft } from '../runs/profile-draft.ts';
import { studyChoices, type WizardDraft } from './wizard-draft.ts';
import { Banner } from '../../common/Banner.tsx';
import { describeCapacityTimes } from '../../../../app/plans/calibration.ts';
import { RequestsEditor } from './RequestsEditor.tsx';
import { draftsOfRequests } from './request-drafts.ts';

export function LoadStep(props: {
  draft: WizardDraft;
  errors: Record<string, string>;
  studies: Study[];
  brokenStudies: string[];
  knownTemplate: (templateId: string, variant: string) => boolean;
  onChange: (change: Partial<WizardDraft>) => void;
}) {
  const { draft } = props;
  const chosen = props.studies.find((study) => study.id === draft.studyId);
  const takeStudyProfile = (study: Study) => props.onChange({ studyId: study.id, profile: draftOfProfile(study.profile), capacity: study.capacity ?? null, requests: draftsOfRequests(study.profile.requests) });
  const takeStudyChoices = (study: Study) => props.onChange(studyChoices(study, draft, props.knownTemplate));
  return (
    <div className="wizard-step" data-testid="wizard-load">
      <p className="hint">Start from a study — the classic experiments Benchlab redoes — or write a custom profile. Either way every field stays editable.</p>
      <div className="study-list">
        <button
          type="button"
          className={draft.studyId === null ? 'study-card active' : 'study-card'}
          data-testid="study-custom"
          onClick={() => props.onChange({ studyId: null, capacity: null })}
        >
          <strong>Custom</strong>
          <span className="muted small">The profile below, as you set it.</span>
        </button>
        {props.studies.map((study) => (
          <button
            key={study.id}
            type="button"
            className={draft.studyId === study.id ? 'study-card active' : 'study-card'}
            data-testid={`study-${study.id}`}
            title={study.seed}
            onClick={() => takeStudyProfile(study)}
          >
            <strong>{study.name}</strong>
            <span className="muted small">{study.seed}</span>
          </button>
        ))}
      </div>
      {props.brokenStudies.map((problem) => (
        <Banner key={problem} tone="warning">
          Study skipped: {problem}
        </Banner>
      ))}
      {chosen && (
        <div className="card" data-testid="study-chosen">
          <p>
            Profile from <strong>{chosen.name}</strong>. The study compared{' '}
            {chosen.templates.map((target) => `${target.templateId} (${target.variant})`).join(', ')}
            {chosen.presets.client || chosen.presets.server ? ` with presets ${[chosen.presets.client, chosen.presets.server].filter(Boolean).join(' / ')}` : ''}.
          </p>
          <button type="button" data-testid="study-use-all" onClick={() => takeStudyChoices(chosen)}>
            Use its templates and presets too
          </button>
        </div>
      )}
      {draft.capacity && (
        <div className="card" data-testid="capacity-steps">
          <p>
            Steps: <strong>{describeCapacityTimes(draft.capacity.times)}</strong>. Before the first template, a calibration of at most {draft.capacity.maxS} s
            measures the highest rate {draft.capacity.reference.templateId} ({draft.capacity.reference.variant}) sustains on these hosts; each step is that multiple
            of it, in requests/s, for the duration below. The rate and sweep below are replaced.
          </p>
          <button type="button" data-testid="capacity-clear" onClick={() => props.onChange({ capacity: null })}>
            Use the rates below instead
          </button>
        </div>
      )}
      <div className="card">
        <ProfileForm
          draft={draft.profile}
          errors={props.errors}
          disabled={false}
          withTarget={false}
          onDraft={(change: Partial<ProfileDraft>) => props.onChange({ profile: { ...draft.profile, ...change } })}
        >
          <EngineField value={draft.engine} disabled={false} testId="wizard-engine" onChange={(engine) => props.onChange({ engine })} />
        </ProfileForm>
        <p className="hint">The target is each deployment’s own address on the server host, as the client reaches it.</p>
      </div>
      <RequestsEditor rows={draft.requests} profile={draft.profile} errors={props.errors} onChange={(requests) => props.onChange({ requests })} />
    </div>
  );
}
