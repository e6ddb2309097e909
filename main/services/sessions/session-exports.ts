// Exports a stored session as a file (JSON, CSV per second, HdrHistogram interval log): reads the
// session, its hosts' names, its runs and every stored second through the repositories and hands
// them to app/sessions/session-export.ts. The Sessions and Compare pages and `benchlab sessions
// export` all come here.

import { ApiError } from '../../../app/common/errors.ts';
import { exportSession, type ExportRun, type SessionExportInput } from '../../../app/sessions/session-export.ts';
import type { SessionExportFile, SessionExportFormat } from '../../../app/sessions/sessions-contract.ts';
import type { HostsRepository } from '../hosts/hosts-repository.ts';
import type { RunsRepository } from '../runs/runs-repository.ts';
import type { SamplesRepository } from '../runs/samples-repository.ts';
import type { SessionsRepository } from './sessions-repository.ts';

export const SESSION_EXPORT_FORMATS: readonly SessionExportFormat[] = ['json', 'csv', 'hdr-log'];

export class SessionExports {
  readonly #sessions: SessionsRepository;
  readonly #runs: RunsRepository;
  readonly #samples: SamplesRepository;
  readonly #hosts: HostsRepository;

  constructor(options: { sessions: SessionsRepository; runs: RunsRepository; samples: SamplesRepository; hosts: HostsRepository }) {
    this.#sessions = options.sessions;
    this.#runs = options.runs;
    this.#samples = options.samples;
    this.#hosts = options.hosts;
  }

  /** The session as a file; a session that does not exist is a not-found error, an unknown format a bad-input one. */
  export(sessionId: number, format: SessionExportFormat, now = new Date()): SessionExportFile {
    if (!SESSION_EXPORT_FORMATS.includes(format)) {
      throw new ApiError('invalid_args', `format: must be one of ${SESSION_EXPORT_FORMATS.join(', ')}`);
    }
    // Only the HdrHistogram log needs the interval histograms: JSON and CSV leave them in the store.
    return exportSession(this.read(sessionId, { histograms: format === 'hdr-log' }), format, now);
  }

  /** What an export is made of, as stored. A run without a summary is read with its histograms, to be summarized. */
  read(sessionId: number, options: { histograms: boolean }): SessionExportInput {
    const session = this.#sessions.get(sessionId);
    const knobs = this.#runs.knobs(sessionId);
    const runs: ExportRun[] = this.#runs.forSession(sessionId).map((run) => ({
      ordinal: run.ordinal,
      templateId: run.templateId,
      variant: run.variant,
      knobs: knobs.get(run.id) ?? {},
      step: run.step,
      status: run.status,
      startedAt: run.startedAt,
      endedAt: run.endedAt,
      summary: run.summary,
      seconds: options.histograms || !run.summary ? this.#samples.forRun(run.id) : this.#samples.withoutHistograms(run.id),
    }));
    const hosts = {
      client: session.clientHostId === null ? null : this.#hosts.nameOf(session.clientHostId),
      server: session.serverHostId === null ? null : this.#hosts.nameOf(session.serverHostId),
    };
    return { session, hosts, runs };
  }
}
