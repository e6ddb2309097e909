// Assembles what a comparison and a replay need from the repositories (it holds no SQL): runs with
// their summaries and merged histograms, their measured seconds without the interval histograms
// (decoding 36,000 of those would blow the 300 ms budget), host names and each session's own
// snapshot of its hosts taken at its start — never a host's later facts: a session without a
// snapshot shows none. Summaries and verdicts come from app/runs/summarize-run.ts, as live; the
// verdict also reads the run's captured CPU profile (its hottest frame). A run
// of several load clients is read with its histograms, so each second's clients are merged exactly
// (app/runs/merge-seconds.ts) before anything is drawn from it.

import { decodeHistogram, type LatencyHistogram } from '../../../app/common/hdr.ts';
import type { RunSecond } from '../../../app/runs/run-second.ts';
import { clientCountOf, mergedBySecond } from '../../../app/runs/merge-seconds.ts';
import { durationOf } from '../../../app/runs/run-second.ts';
import { storedServerMemory } from '../../../app/runs/server-memory.ts';
import { serverRuntimeOf } from '../../../app/runs/server-runtime.ts';
import { clientVerdictsOf, runWindow, summarizeRun, summaryRulesOf, windowBottleneck } from '../../../app/runs/summarize-run.ts';
import { clientsOnServerMachine } from '../../../app/hosts/host-facts.ts';
import type { ClientVerdict } from '../../../app/runs/runs.ts';
import type { ComparedRunInput, ComparedSessionInput } from '../../../app/sessions/comparison.ts';
import type { Session } from '../../../app/sessions/sessions.ts';
import { HostsRepository } from '../hosts/hosts-repository.ts';
import { RunsRepository } from '../runs/runs-repository.ts';
import { SamplesRepository } from '../runs/samples-repository.ts';
import type { Db } from '../store/database.ts';
import { SnapshotsRepository } from '../hosts/snapshots-repository.ts';
import { ProfilesRepository } from '../profiles/profiles-repository.ts';
import { profileHotspot } from '../../../app/profiles/profile-hotspot.ts';

export interface ReadRun extends ComparedRunInput {
  ordinal: number;
  step: Record<string, unknown>;
  /** The measured window's stored seconds, per client; histograms left out for one client (replay draws these). */
  measured: RunSecond[];
  /** The answers after the window (one second per client; none for older runs): replay draws them as the live chart did. */
  drain: RunSecond[];
  /** Each client's own verdict; [] for one client. */
  clientVerdicts: ClientVerdict[];
}

function histogramOf(encoded: string | null): LatencyHistogram | null {
  if (!encoded) return null;
  try {
    return decodeHistogram(encoded);
  } catch {
    return null;
  }
}

export class ComparisonReader {
  readonly #hosts: HostsRepository;
  readonly #runs: RunsRepository;
  readonly #samples: SamplesRepository;
  readonly #snapshots: SnapshotsRepository;
  readonly #profiles: ProfilesRepository;

  constructor(db: Db) {
    this.#hosts = new HostsRepository(db);
    this.#runs = new RunsRepository(db);
    this.#samples = new SamplesRepository(db);
    this.#snapshots = new SnapshotsRepository(db);
    this.#profiles = new ProfilesRepository(db);
  }

  /** The run's captured profile as the verdict reads it; null when none was captured. */
  #hotspot(runId: number) {
    const profile = this.#profiles.get(runId);
    return profile ? profileHotspot(profile.folded, profile.facts.tool) : null;
  }

  runs(session: Session, onlyRunIds?: ReadonlySet<number>): ReadRun[] {
    const stored = this.#runs.withHistograms(session.id).filter((run) => !onlyRunIds || onlyRunIds.has(run.id));
    const knobs = this.#runs.knobs(session.id);
    // Clients on the server's machine, from the hosts' facts at the session's start: no verdict names a side there.
    const shared = clientsOnServerMachine(this.#snapshots.forSession(session.id));
    return stored.map((run) => {
      const rules = summaryRulesOf(session.config.profile, run.step, shared);
      let seconds = this.#samples.withoutHistograms(run.id);
      // Several clients' percentiles are merged from their histograms, never taken from the slowest.
      if (clientCountOf(seconds) > 1) seconds = this.#samples.forRun(run.id);
      const measured = seconds.filter((second) => second.phase === 'measure');
      const window = runWindow(measured);
      let summary = run.summary;
      let histogram = histogramOf(run.histogram);
      // A run cut off before its summary was written: summarize its stored seconds now, as at its end.
      if (!summary && measured.length > 0) ({ summary, histogram } = summarizeRun(this.#samples.forRun(run.id), rules));
      // A summary stored before the server's memory was kept: from the measured seconds' readings; none says why.
      const memory = summary ? storedServerMemory(summary, () => measured) : null;
      if (summary && summary.serverMemory === undefined) summary = { ...summary, serverMemory: typeof memory === 'string' ? null : memory };
      // Likewise the server's runtime line, from the same readings.
      if (summary && summary.serverRuntime === undefined) summary = { ...summary, serverRuntime: serverRuntimeOf(measured) };
      return {
        runId: run.id,
        ordinal: run.ordinal,
        stepLabel: typeof run.step.label === 'string' ? run.step.label : `step ${run.ordinal}`,
        templateId: run.templateId,
        variant: run.variant,
        status: run.status,
        summary,
        histogram,
        startedAt: run.startedAt,
        step: run.step,
        knobs: knobs.get(run.id) ?? {},
        load: run.step.load,
        ...(typeof memory === 'string' ? { serverMemoryMissing: memory } : {}),
        // Per second for the timelines: the clients of one second merged exactly.
        seconds: mergedBySecond(measured, { histogram: false }).map((second) => ({ second: second.second, requests: second.requests, durationMs: durationOf(second), p99Us: second.p99Us })),
        // The same verdicts as the Run page's, from the same stored seconds.
        bottleneck: windowBottleneck(window, rules, this.#hotspot(run.id)),
        clientVerdicts: clientVerdictsOf(measured, rules),
        measured,
        drain: seconds.filter((second) => second.phase === 'drain'),
      };
    });
  }

  session(session: Session, onlyRunIds?: ReadonlySet<number>): ComparedSessionInput {
    const facts = this.#snapshots.forSession(session.id);
    return {
      id: session.id,
      name: session.name,
      status: session.status,
      createdAt: session.createdAt,
      startedAt: session.startedAt,
      notes: session.notes,
      tags: session.tags,
      config: session.config,
      clientHost: session.clientHostId === null ? null : this.#hosts.nameOf(session.clientHostId),
      serverHost: session.serverHostId === null ? null : this.#hosts.nameOf(session.serverHostId),
      systems: { client: facts?.client ?? null, clients: facts?.clients ?? [], server: facts?.server ?? null },
      noise: facts?.findings ?? [],
      runs: this.runs(session, onlyRunIds).map(({ measured: _measured, drain: _drain, clientVerdicts: _clientVerdicts, ...run }) => run),
    };
  }
}
