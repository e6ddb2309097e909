// The wizard: hosts (and, optionally, a study first, which proposes its templates, presets and load)
// → presets per host (with their plans) → templates and variants (a server already running on the
// server host is said, and can be stopped) → load profile (from a study or custom) → review (every
// stage, with estimates learned from past deploys and sessions, and a proposed name) → run (the plan's
// progress, Cancel, then compare what it measured). Each step is checked before Next; the answers
// are kept by the back end, so a reload or a restart comes back to the same step. The plan can be
// saved as a plan file and one opened into the wizard (PlanFileActions).

import { useCallback, useEffect, useMemo, useState } from 'react';
import { GUESSED_ESTIMATES, planEstimate, planStages, type PlanNames } from '../../../../app/plans/plan.ts';
import { learnedEstimates } from '../../../../app/plans/plan-estimate.ts';
import type { PresetPlan } from '../../../../app/presets/preset-plan.ts';
import { errorMessage, useApi } from '../../api-context.tsx';
import { useHostConnections } from '../hosts/use-host-connections.ts';
import { useHosts } from '../hosts/use-hosts.ts';
import { useLoaded } from '../../common/use-loaded.ts';
import { Banner, ErrorBanner } from '../../common/Banner.tsx';
import { usePlan } from './use-plan.ts';
import { useWizardDraft } from './use-wizard-draft.ts';
import { saveSelection } from '../../common/compare-selection.ts';
import { HostsStep, isConnected } from './HostsStep.tsx';
import { LoadStep } from './LoadStep.tsx';
import { PlanFileActions, PlanFileMessage, type PlanFileNews } from './PlanFileActions.tsx';
import { PlanProgress } from './PlanProgress.tsx';
import { PresetsStep, type PresetPlanLookup } from './PresetsStep.tsx';
import { ReviewStep } from './ReviewStep.tsx';
import { TemplatesStep } from './TemplatesStep.tsx';
import { StudyFirst } from './StudyFirst.tsx';
import { ServerOccupantBanner } from './ServerOccupantBanner.tsx';
import { useServerOccupant } from './use-server-occupant.ts';
import { checkedSpec, clientHostIds, proposedPlanName, stepErrors, withStudy, WIZARD_STEPS, type WizardContext, type WizardDraft, type WizardStepId } from './wizard-draft.ts';

type Role = 'client' | 'server';

/** One empty list for every not-yet-loaded one, so memos that depend on them stay put. */
const NONE: never[] = [];

/**
 * The plan of each chosen preset on each host it goes to (the client preset on every client), read
 * again whenever a preset, a host or `round` changes.
 */
function usePresetPlans(draft: WizardDraft | null, connected: (hostId: number) => boolean, round: number): PresetPlanLookup {
  const api = useApi();
  const [results, setResults] = useState<Map<string, PresetPlan | string>>(new Map());
  const clientPreset = draft?.clientPreset ?? null;
  const serverPreset = draft?.serverPreset ?? null;
  const keyOf = useCallback(
    (role: Role, hostId: number | null) => {
      const presetId = role === 'client' ? clientPreset : serverPreset;
      return hostId && presetId && connected(hostId) ? `${presetId}@${hostId}@${round}` : null;
    },
    [clientPreset, serverPreset, connected, round],
  );
  const clientIds = draft ? clientHostIds(draft) : [];
  // One string for the effect's dependencies: the set of plans to read changes only when it does.
  const keys = [...clientIds.map((hostId) => keyOf('client', hostId)), keyOf('server', draft?.serverHostId ?? null)].filter((key) => key !== null).join(' ');
  useEffect(() => {
    let current = true;
    for (const key of new Set(keys.split(' ').filter(Boolean))) {
      const [presetId, hostId] = key.split('@');
      const keep = (value: PresetPlan | string) => current && setResults((all) => new Map(all).set(key, value));
      api.presets.plan({ presetId: presetId!, hostId: Number(hostId) }).then(keep, (failure: unknown) => keep(errorMessage(failure)));
    }
    return () => {
      current = false;
    };
  }, [api, keys]);
  return useCallback(
    (role, hostId) => {
      if (!connected(hostId)) return 'connect the host first (step 1)';
      const key = keyOf(role, hostId);
      return key ? (results.get(key) ?? null) : null;
    },
    [connected, keyOf, results],
  );
}

export function WizardPage() {
  const api = useApi();
  const { hosts, reload: reloadHosts, error: hostsError } = useHosts();
  const connections = useHostConnections();
  const { draft, update, saveError, saved } = useWizardDraft();
  const [plan, setPlan] = usePlan();
  const presetList = useLoaded((client) => client.presets.list());
  const templateCatalog = useLoaded((client) => client.templates.list());
  const studyCatalog = useLoaded((client) => client.plans.studies());
  // What past deploys and sessions took: the review's estimates learn from them.
  const history = useLoaded((client) => client.plans.history());
  const basis = useMemo(() => (history.value ? learnedEstimates(history.value) : GUESSED_ESTIMATES), [history.value]);
  const presets = presetList.value ?? NONE;
  const templates = templateCatalog.value?.templates ?? NONE;
  const [shown, setShown] = useState<Set<WizardStepId>>(new Set());
  const [planRound, setPlanRound] = useState(0);
  const [busy, setBusy] = useState<'starting' | 'cancelling' | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [planFileNews, setPlanFileNews] = useState<PlanFileNews | null>(null);

  const connected = useCallback((hostId: number) => isConnected(hosts?.find((host) => host.id === hostId), connections), [hosts, connections]);
  const presetPlans = usePresetPlans(draft, connected, planRound);
  // Read on the Templates step only: it asks the host, and the plan deploys there next.
  const occupantCheck = useServerOccupant(draft?.step === 'templates' && draft.serverHostId !== null && connected(draft.serverHostId) ? draft.serverHostId : null);

  const names: PlanNames = useMemo(
    () => ({
      host: (id) => hosts?.find((host) => host.id === id)?.name ?? `host ${id}`,
      preset: (id) => presets.find((preset) => preset.id === id)?.name ?? id,
      template: (id, variantId) => {
        const manifest = templates.find((template) => template.id === id);
        return `${manifest?.name ?? id} · ${manifest?.variants.find((variant) => variant.id === variantId)?.name ?? variantId}`;
      },
    }),
    [hosts, presets, templates],
  );
  const studies = studyCatalog.value?.studies ?? NONE;
  const knownTemplate = (templateId: string, variant: string) => templates.some((template) => template.id === templateId && template.variants.some((entry) => entry.id === variant));
  const studyName = studies.find((study) => study.id === draft?.studyId)?.name ?? null;
  const proposedName = draft ? proposedPlanName(draft, names.template, studyName) : '';
  const context: WizardContext = useMemo(
    () => ({
      connected,
      presetPlan: (role, hostId) => {
        const found = presetPlans(role, hostId);
        return found === null || typeof found === 'string' ? found : { planId: found.planId };
      },
      proposedName,
    }),
    [connected, presetPlans, proposedName],
  );

  if (!draft || hosts === null) {
    return (
      <section className="page" data-testid="page-wizard">
        <h1>New plan</h1>
        <p className="hint">{hostsError ?? 'Loading…'}</p>
      </section>
    );
  }

  const stepIndex = WIZARD_STEPS.findIndex((step) => step.id === draft.step);
  const errors = stepErrors(draft.step, draft, context);
  if (draft.step === 'templates' && occupantCheck.occupant) errors.occupant = 'a server already runs on the server host: stop it above, or choose another host';
  const shownErrors = shown.has(draft.step) ? errors : {};
  const checked = draft.step === 'review' ? checkedSpec(draft, context) : null;
  const spec = checked && 'spec' in checked ? checked.spec : null;
  const go = (step: WizardStepId) => {
    setError(null);
    if (step === 'review') setPlanRound((round) => round + 1); // the plans the run applies are read fresh
    update({ step });
  };
  const next = () => {
    setShown((current) => new Set(current).add(draft.step));
    if (Object.keys(errors).length === 0) go(WIZARD_STEPS[stepIndex + 1]!.id);
  };
  // Steps already passed stay reachable from the step list; later ones only through Next.
  const firstInvalid = WIZARD_STEPS.findIndex((step) => step.id !== 'run' && Object.keys(stepErrors(step.id, draft, context)).length > 0);

  const start = async () => {
    setShown((current) => new Set(current).add('review'));
    if (!spec || Object.keys(errors).length > 0) return;
    setBusy('starting');
    setError(null);
    try {
      setPlan(await api.plans.start(spec));
      update({ step: 'run' });
    } catch (failure) {
      setError(errorMessage(failure));
      setPlanRound((round) => round + 1);
    } finally {
      setBusy(null);
    }
  };

  const cancel = async () => {
    setBusy('cancelling');
    try {
      setPlan(await api.plans.cancel());
    } catch (failure) {
      setError(errorMessage(failure));
    } finally {
      setBusy(null);
    }
  };

  const planRunning = plan?.status === 'running';

  return (
    <section className="page page-wide" data-testid="page-wizard" data-step={draft.step} data-draft={saved ? 'saved' : 'saving'}>
      <header className="page-header">
        <h1>New plan</h1>
        <PlanFileActions
          draft={draft}
          hosts={hosts}
          studies={studyCatalog.value?.studies ?? NONE}
          onOpen={(opened) => {
            // An opened plan is checked step by step again, from the first.
            setShown(new Set());
            update(opened);
          }}
          onNews={setPlanFileNews}
        />
      </header>
      <PlanFileMessage news={planFileNews} onDismiss={() => setPlanFileNews(null)} />
      <ol className="wizard-steps" aria-label="Wizard steps">
        {WIZARD_STEPS.map((step, index) => {
          const reachable = step.id === 'run' ? plan !== null : index <= stepIndex || firstInvalid < 0 || index <= firstInvalid;
          return (
            <li key={step.id} className={step.id === draft.step ? 'active' : index < stepIndex ? 'done' : ''}>
              <button type="button" data-testid={`wizard-step-${step.id}`} aria-current={step.id === draft.step ? 'step' : undefined} disabled={!reachable} onClick={() => go(step.id)}>
                {index + 1}. {step.label}
              </button>
            </li>
          );
        })}
      </ol>
      {saveError && (
        <Banner tone="warning" role="alert">
          {saveError}
        </Banner>
      )}
      {[error, presetList.error, templateCatalog.error, studyCatalog.error].filter(Boolean).map((message) => (
        <ErrorBanner key={message} error={message} testId="wizard-error" />
      ))}
      {planRunning && draft.step !== 'run' && (
        <Banner tone="warning" testId="wizard-plan-running">
          Plan “{plan.name}” is running.{' '}
          <button type="button" className="link" onClick={() => go('run')}>
            Follow it
          </button>
        </Banner>
      )}
      {draft.step === 'hosts' && (
        <StudyFirst
          studies={studies}
          studyId={draft.studyId}
          onStudy={(study) => update((current) => (study ? withStudy(current, study, knownTemplate) : { studyId: null }))}
        />
      )}
      {draft.step === 'hosts' && <HostsStep draft={draft} errors={shownErrors} hosts={hosts} connections={connections} onChange={update} onHostsChanged={reloadHosts} />}
      {draft.step === 'presets' && <PresetsStep draft={draft} errors={shownErrors} hosts={hosts} presets={presets} plans={presetPlans} onChange={update} />}
      {draft.step === 'templates' && (
        <TemplatesStep
          draft={draft}
          errors={shownErrors}
          templates={templates}
          study={studies.find((study) => study.id === draft.studyId) ?? null}
          occupant={
            draft.serverHostId !== null &&
            occupantCheck.occupant && <ServerOccupantBanner hostId={draft.serverHostId} hostName={names.host(draft.serverHostId)} occupant={occupantCheck.occupant} onStopped={occupantCheck.recheck} />
          }
          onChange={update}
        />
      )}
      {draft.step === 'load' && (
        <LoadStep
          draft={draft}
          errors={shownErrors}
          studies={studyCatalog.value?.studies ?? []}
          brokenStudies={(studyCatalog.value?.broken ?? []).map((entry) => `${entry.file}: ${entry.error}`)}
          knownTemplate={knownTemplate}
          onChange={update}
        />
      )}
      {draft.step === 'review' && (
        <ReviewStep
          draft={draft}
          errors={shownErrors}
          proposedName={proposedName}
          stages={spec ? planStages(spec, names, basis) : null}
          estimate={spec ? planEstimate(spec, basis) : null}
          problem={checked && 'error' in checked && !errors.name && !errors.repeats ? checked.error : null}
          onChange={update}
        />
      )}
      {draft.step === 'run' &&
        (plan ? (
          <PlanProgress
            plan={plan}
            cancelling={busy === 'cancelling'}
            onCancel={() => void cancel()}
            onLive={() => (window.location.hash = '/run')}
            onSessions={() => (window.location.hash = '/sessions')}
            onCompare={() => {
              saveSelection(plan.sessionIds);
              window.location.hash = '/compare';
            }}
            onNew={() => update({ step: 'hosts' })}
          />
        ) : (
          <p className="hint">No plan has run yet. Go back to Review to start one.</p>
        ))}
      {draft.step !== 'run' && (
        <div className="wizard-nav">
          <button type="button" data-testid="wizard-back" disabled={stepIndex === 0} onClick={() => go(WIZARD_STEPS[stepIndex - 1]!.id)}>
            Back
          </button>
          {draft.step === 'review' ? (
            <button type="button" className="primary" data-testid="wizard-start" disabled={busy !== null || planRunning} onClick={() => void start()}>
              {busy === 'starting' ? 'Starting…' : 'Run the plan'}
            </button>
          ) : (
            <button type="button" className="primary" data-testid="wizard-next" onClick={next}>
              Next
            </button>
          )}
        </div>
      )}
    </section>
  );
}
