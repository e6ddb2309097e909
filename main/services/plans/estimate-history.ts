// The measurements the estimates learn from: every deploy that becomes ready is recorded as it is
// announced (templates.progress, whoever asked for it: the Templates page, a plan, a re-run), and
// plans.history hands the recent deploys, completed sessions and runs' rates to the wizard; the plan runner
// estimates with the same figures.

import { ESTIMATE_HISTORY_SIZE, learnedEstimates, plannedLoadSeconds, runRate, type EstimateHistory as History } from '../../../app/plans/plan-estimate.ts';
import type { EstimateBasis } from '../../../app/plans/plan.ts';
import type { EventBus } from '../event-bus.ts';
import type { EstimatesRepository } from './estimates-repository.ts';

export class EstimateHistory {
  readonly #repository: EstimatesRepository;
  /** Deploys already recorded (host and start), since a ready deployment is announced again as it changes. */
  readonly #recorded = new Set<string>();
  readonly #unsubscribe: () => void;

  constructor(options: { bus: EventBus; repository: EstimatesRepository }) {
    this.#repository = options.repository;
    this.#unsubscribe = options.bus.subscribe('templates.progress', (deployment) => {
      if (deployment.state !== 'ready' || deployment.readyMs === null || deployment.startedAt === null) return;
      const key = `${deployment.hostId} ${deployment.startedAt}`;
      if (this.#recorded.has(key)) return;
      this.#recorded.add(key);
      this.#repository.recordDeploy({ hostId: deployment.hostId, templateId: deployment.templateId, variant: deployment.variant, readyMs: deployment.readyMs });
    });
  }

  history(): History {
    const deploys = this.#repository
      .recentDeploys(ESTIMATE_HISTORY_SIZE * 4)
      .map((deploy) => ({ hostId: deploy.hostId, templateId: deploy.templateId, variant: deploy.variant, seconds: deploy.readyMs / 1000 }));
    const sessions = this.#repository.recentCompletedSessions(ESTIMATE_HISTORY_SIZE * 2).flatMap((session) => {
      const plannedS = plannedLoadSeconds(session.profile);
      const tookS = (Date.parse(session.endedAt) - Date.parse(session.startedAt)) / 1000;
      return plannedS === null || !Number.isFinite(tookS) || tookS < 0 ? [] : [{ plannedS, tookS }];
    });
    const rates = this.#repository.recentCompletedRuns(ESTIMATE_HISTORY_SIZE * 5).flatMap((run) => runRate(run.profile, run.step, run.summary) ?? []);
    return { deploys, sessions, rates };
  }

  basis(): EstimateBasis {
    return learnedEstimates(this.history());
  }

  close(): void {
    this.#unsubscribe();
  }
}
