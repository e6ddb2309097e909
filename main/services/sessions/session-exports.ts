// Exports a stored session as a file (JSON, CSV per second, HdrHistogram interval log): reads the
// session, its hosts' names, its runs and every stored second through the repositories and hands
// them to app/sessions/session-export.ts. The Sessions and Compare pages and `benchlab sessions
// export` all come here; a comparison's export (app/sessions/comparison-export.ts) reads each of its
// sessions the same way, only the compared runs.

import { ApiError } from '../../../app/common/errors.ts';
import { exportSession, type ExportRun, type SessionExportInput } from '../../../app/sessions/session-export.ts';
import { exportComparison } from '../../../app/sessions/comparison-export.ts';
import { letterOf, sessionLabel } from '../../../app/sessions/comparison-headline.ts';
import type { Comparison } from '../../../app/sessions/comparison.ts';
import type { StoredRun } from '../../../app/runs/runs.ts';
import { clientCountOf } from '../../../app/runs/merge-seconds.ts';
import type { RunSecond } from '../../../app/runs/run-second.ts';
import type { SessionExportFile, SessionExportFormat } from '../../../app/sessions/sessions-contract.ts';
import type { HostsRepository } from '../hosts/hosts-repository.ts';
import type { RunsRepository } from '../runs/runs-repository.ts';
import type { SamplesRepository } from '../runs/samples-repository.ts';
import type { SessionsRepository } from '../runs/sessions-repository.ts';

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
    checkFormat(format);
    // Only the HdrHistogram log needs the interval histograms: JSON and CSV leave them in the store.
    return exportSession(this.read(sessionId, { histograms: format === 'hdr-log' }), format, now);
  }

  /** An opened comparison as one file: its sessions' compared runs; the log holds each run's merged histogram. */
  exportComparison(comparison: Comparison, format: SessionExportFormat, now = new Date()): SessionExportFile {
    checkFormat(format);
    const compared = new Set(comparison.steps.flatMap((step) => step.rows.map((row) => row.runId)));
    const merged = format === 'hdr-log';
    const sessions = comparison.sessions.map((session, i) => ({
      label: sessionLabel(comparison, i),
      configuration: letterOf(session.group),
      // The log needs only the merged histograms, not a single stored second.
      input: this.read(session.id, { histograms: false, merged, onlyRunIds: compared }),
    }));
    return exportComparison({ comparison, sessions }, format, now);
  }

  /** What an export is made of, as stored. A run without a summary is read with its histograms, to be summarized. */
  read(sessionId: number, options: { histograms: boolean; merged?: boolean; onlyRunIds?: ReadonlySet<number> }): SessionExportInput {
    const session = this.#sessions.get(sessionId);
    const knobs = this.#runs.knobs(sessionId);
    const stored: Array<StoredRun & { histogram?: string | null }> = options.merged ? this.#runs.withHistograms(sessionId) : this.#runs.forSession(sessionId);
    const runs: ExportRun[] = stored.filter((run) => !options.onlyRunIds || options.onlyRunIds.has(run.id)).map((run) => ({
      ordinal: run.ordinal,
      templateId: run.templateId,
      variant: run.variant,
      knobs: knobs.get(run.id) ?? {},
      step: run.step,
      status: run.status,
      startedAt: run.startedAt,
      endedAt: run.endedAt,
      summary: run.summary,
      seconds: options.merged ? [] : this.#secondsOf(run, options.histograms),
      ...(run.histogram !== undefined ? { merged: run.histogram } : {}),
    }));
    const hosts = {
      client: session.clientHostId === null ? null : this.#hosts.nameOf(session.clientHostId),
      server: session.serverHostId === null ? null : this.#hosts.nameOf(session.serverHostId),
    };
    return { session, hosts, runs };
  }

  /**
   * A run's stored seconds; their histograms only when asked for, when the run has no summary to
   * write (it is summarized from them), or when several clients' seconds are to be merged exactly.
   */
  #secondsOf(run: StoredRun, histograms: boolean): RunSecond[] {
    if (histograms || !run.summary) return this.#samples.forRun(run.id);
    const seconds = this.#samples.withoutHistograms(run.id);
    return clientCountOf(seconds) > 1 ? this.#samples.forRun(run.id) : seconds;
  }
}

function checkFormat(format: SessionExportFormat): void {
  if (!SESSION_EXPORT_FORMATS.includes(format)) throw new ApiError('invalid_args', `format: must be one of ${SESSION_EXPORT_FORMATS.join(', ')}`);
}
