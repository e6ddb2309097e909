// Wizard step 5: everything the run will do, in order, with each stage's estimate and the total,
// the name its sessions take, how many times each template runs (interleaved repeats, so Compare
// can give a verdict), the thresholds an opened plan file carries, and the noise pre-flight of
// every client and the server. Nothing has changed on any host yet.

import { MIN_RUNS_FOR_VERDICT } from '../../../../app/sessions/compare-stats.ts';
import { formatDuration, GUESSED_ANSWERS_PER_CONNECTION_S, type PlanStage } from '../../../../app/plans/plan.ts';
import { FormField } from '../../common/FormField.tsx';
import { ErrorBanner } from '../../common/Banner.tsx';
import { NoiseFindings } from '../runs/NoiseFindings.tsx';
import { usePreflight } from '../runs/use-preflight.ts';
import { clientHostIds, type WizardDraft } from './wizard-draft.ts';

export function ReviewStep(props: {
  draft: WizardDraft;
  errors: Record<string, string>;
  /** The name the plan takes while none is typed. */
  proposedName: string;
  stages: PlanStage[] | null;
  estimate: { seconds: number; byCount: boolean } | null;
  problem: string | null;
  onChange: (change: Partial<WizardDraft>) => void;
}) {
  const { draft } = props;
  // The templates are not deployed yet, so there is no server process to read limits from.
  const preflight = usePreflight(draft.clientHostId ? { clientHostId: draft.clientHostId, clientHostIds: clientHostIds(draft), serverHostId: draft.serverHostId, port: null } : null);
  return (
    <div className="wizard-step" data-testid="wizard-review">
      <div className="grid">
        <FormField group label="Name (each session adds its template; empty: the one proposed)" name="name" error={props.errors.name}>
          <input value={draft.name} data-testid="wizard-name" placeholder={props.proposedName || 'e.g. Node async vs sync, /hello'} maxLength={200} onChange={(event) => props.onChange({ name: event.target.value })} />
        </FormField>
        <FormField group label="Tags (comma separated)" name="tags" error={props.errors.tags}>
          <input value={draft.tags} data-testid="wizard-tags" onChange={(event) => props.onChange({ tags: event.target.value })} />
        </FormField>
        <FormField group label="Repeats (runs of each template, interleaved)" name="repeats" error={props.errors.repeats}>
          <input value={draft.repeats} inputMode="numeric" data-testid="wizard-repeats" onChange={(event) => props.onChange({ repeats: event.target.value })} />
        </FormField>
      </div>
      {draft.thresholds.length > 0 && (
        <div className="card" data-testid="wizard-thresholds">
          <p>
            Thresholds from the plan file, kept when it is saved again. <code>benchlab run</code> checks them; a run from here does not.
          </p>
          <ul>
            {draft.thresholds.map((threshold) => (
              <li key={threshold}>
                <code>{threshold}</code>
              </li>
            ))}
          </ul>
        </div>
      )}
      <NoiseFindings title="Pre-flight" readings={[{ when: 'next', ...preflight }]} onRecheck={preflight.recheck} testId="wizard-preflight" />
      <ErrorBanner error={props.problem} testId="wizard-problem" />
      {props.stages && props.estimate && (
        <>
          <h3>
            What will happen — about <span data-testid="wizard-estimate">{formatDuration(props.estimate.seconds)}</span>
          </h3>
          {props.estimate.byCount && (
            <p className="hint" data-testid="wizard-estimate-count">
              A step ends by its request count: its time is the count over the requests/s that past runs at this URL got (over {GUESSED_ANSWERS_PER_CONNECTION_S} a second per connection while none has run there). Its cap only bounds it.
            </p>
          )}
          <ol className="plan-stages" data-testid="wizard-stages">
            {props.stages.map((stage) => (
              <li key={stage.id} data-testid="wizard-stage" data-stage={stage.id} data-estimate={stage.estimateS}>
                <span>{stage.label}</span>
                <span className="muted small"> ~{formatDuration(stage.estimateS)}</span>
              </li>
            ))}
          </ol>
          {draft.targets.length > 1 && Number(draft.repeats) < MIN_RUNS_FOR_VERDICT && (
            <p className="hint" data-testid="wizard-repeats-hint">
              Compare gives a verdict between templates only from {MIN_RUNS_FOR_VERDICT} runs of each; with fewer it shows the figures and says there are too few runs.
            </p>
          )}
          <p className="hint">Deploy times go by the last deploys of each template (a guess until one has run; a first JVM build takes minutes); load times are the profile’s own plus what sessions took around it lately. Cancel stops whatever runs and still stops the server{draft.revertPresets ? ' and reverts the presets' : ''}.</p>
        </>
      )}
    </div>
  );
}
