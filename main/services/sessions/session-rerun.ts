// "Run again" from the sessions library: the original session's load profile started anew on the
// same hosts (its several clients with their weights), as a new session linked to the original (the library shows the pair), its runs
// labelled with the deployment ready on the server at the target's port now (if any). Refused,
// saying why, when the original has no load profile to repeat or has lost its client host.

import { ApiError } from '../../../app/common/errors.ts';
import { recordedEngineOf } from '../../../app/runs/engine-choice.ts';
import { LoadProfile } from '../../../app/runs/load-profile.ts';
import { recordedClientsOf } from '../../../app/runs/run-clients.ts';
import { deploymentServing } from '../../../app/runs/run-deployment.ts';
import type { LiveRun } from '../../../app/runs/runs.ts';
import type { RunService } from '../runs/run-service.ts';
import type { TemplateService } from '../templates/template-service.ts';
import type { ComparisonService } from './comparison-service.ts';
import type { SessionsRepository } from '../runs/sessions-repository.ts';

export interface SessionRerunOptions {
  sessions: Pick<SessionsRepository, 'get'>;
  runs: Pick<RunService, 'start'>;
  library: Pick<ComparisonService, 'linkRerun'>;
  templates: Pick<TemplateService, 'deployments'>;
}

export class SessionRerun {
  readonly #options: SessionRerunOptions;

  constructor(options: SessionRerunOptions) {
    this.#options = options;
  }

  async runAgain(id: number): Promise<LiveRun> {
    const original = this.#options.sessions.get(id);
    const profile = LoadProfile.safeParse(original.config.profile);
    if (!profile.success) throw new ApiError('invalid_args', `“${original.name}” has no load profile to run again`);
    if (original.clientHostId === null) throw new ApiError('invalid_args', `“${original.name}” has no client host any more`);
    // Several clients run again with the weights they ran with.
    const clients = recordedClientsOf(original.config)?.map(({ hostId, weight }) => ({ hostId, weight }));
    const live = await this.#options.runs.start({
      name: `${original.name} (again)`.slice(0, 200),
      ...(clients ? { clients } : { clientHostId: original.clientHostId }),
      serverHostId: original.serverHostId,
      profile: profile.data,
      deployment: deploymentServing(this.#options.templates.deployments(), original.serverHostId, profile.data.target),
      // The engine asked for then (auto again falls back where it must); older sessions ran Node's.
      engine: recordedEngineOf(original.config)?.choice ?? 'node',
    });
    this.#options.library.linkRerun(live.sessionId, id);
    return live;
  }
}
