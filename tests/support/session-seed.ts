// Seeds finished sessions straight into a real SQLite store through its repositories — hosts,
// system snapshots, sessions, runs with summaries and merged histograms, and per-second samples
// with real encoded HDR interval histograms — for tests and benchmarks that need stored sessions
// but not a real run.

import { createLatencyHistogram, encodeHistogram, recordLatencyUs, type LatencyHistogram } from '../../app/common/hdr.ts';
import type { LoadProfileInput } from '../../app/runs/load-profile.ts';
import { LoadProfile, expandSteps } from '../../app/runs/load-profile.ts';
import type { ThinkTimeInput } from '../../app/runs/think-time.ts';
import { SummaryAccumulator } from '../../app/runs/run-summary.ts';
import { TRACKED_SYSCTLS, type SystemInfo } from '../../app/hosts/system-info.ts';
import { openDatabase, type Db } from '../../main/services/store/database.ts';
import { HostsRepository } from '../../main/services/hosts/hosts-repository.ts';
import { RunsRepository } from '../../main/services/runs/runs-repository.ts';
import { SamplesRepository, type SampleInput } from '../../main/services/runs/samples-repository.ts';
import { SessionsRepository } from '../../main/services/runs/sessions-repository.ts';
import { SnapshotsRepository } from '../../main/services/hosts/snapshots-repository.ts';

export function seedSystemInfo(hostname: string, overrides: Partial<SystemInfo> = {}): SystemInfo {
  return {
    hostname,
    distro: 'Debian GNU/Linux 13 (trixie)',
    kernel: '6.12.38+deb13-amd64',
    arch: 'x86_64',
    cpuModel: 'Seeded CPU @ 3.0GHz',
    cpuCores: 2,
    memoryBytes: 8 * 1024 ** 3,
    limits: { nofile: { soft: '1024', hard: '20000' }, nproc: { soft: '4096', hard: '4096' } },
    sysctls: Object.fromEntries(TRACKED_SYSCTLS.map((key) => [key, key === 'net.ipv4.ip_local_port_range' ? '32768\t60999' : '1'])),
    runtimes: { node: 'v24.0.0', java: null, apache: null },
    takenAt: '2026-01-01T00:00:00.000Z',
    ...overrides,
  };
}

export interface SeedOptions {
  name: string;
  templateId?: string;
  variant?: string;
  /** Requests per second and the typical latency (µs) of the seeded load. */
  rps: number;
  latencyUs: number;
  seconds: number;
  /** Connection counts of a sweep (one run each); one run when absent. */
  sweep?: number[];
  tags?: string[];
  notes?: string;
  startedAt?: Date;
  serverInfo?: Partial<SystemInfo>;
  /** Distinct interval histograms generated per run (the rest repeat them): keeps seeding fast. */
  histogramPool?: number;
  /** The knobs every run was deployed with. */
  knobs?: Record<string, unknown>;
  /** How the session ended (its last run failed or was stopped, the others completed); default completed. */
  status?: 'completed' | 'failed' | 'cancelled';
  /** Per sweep step, a factor on `rps` and the share of its requests that time out (an overloaded step). */
  stepLoad?: Array<{ rpsFactor?: number; timeoutShare?: number }>;
  /** false: no server was sampled (no server readings in any second); default: every second has one. */
  serverReadings?: boolean;
  /** Figures every second's server reading adds (a JVM's GC pauses and heap, say). */
  serverFigures?: Partial<NonNullable<SampleInput['serverMetrics']>>;
  /** The closed load's think time (app/runs/think-time.ts); none when absent. */
  thinkTime?: ThinkTimeInput;
  /** More of the session's config (a plan's `calibration`, say), beside what the seeder records. */
  config?: Record<string, unknown>;
  /** The request's path; default /hello. */
  path?: string;
}

export interface Seeder {
  clientHostId: number;
  serverHostId: number;
  session(options: SeedOptions): { sessionId: number; runIds: number[] };
}

function lcg(seed: number): () => number {
  let state = seed;
  return () => (state = (state * 1_103_515_245 + 12_345) % 2 ** 31) / 2 ** 31;
}

function intervalHistogram(latencyUs: number, random: () => number): LatencyHistogram {
  const histogram = createLatencyHistogram();
  for (let i = 0; i < 200; i++) recordLatencyUs(histogram, latencyUs * Math.exp((random() - 0.5) * 1.2));
  return histogram;
}

export function createSeeder(db: Db, hostNames = { client: 'seed-client', server: 'seed-server' }): Seeder {
  const hosts = new HostsRepository(db);
  const sessions = new SessionsRepository(db);
  const runs = new RunsRepository(db);
  const samples = new SamplesRepository(db);
  const snapshots = new SnapshotsRepository(db);
  const client = hosts.add({ name: hostNames.client, address: '10.200.0.1', port: 22, user: 'bench', auth: 'agent' });
  const server = hosts.add({ name: hostNames.server, address: '10.200.0.2', port: 22, user: 'bench', auth: 'agent' });
  let seed = 1;
  return {
    clientHostId: client.id,
    serverHostId: server.id,
    session(options) {
      const random = lcg(seed++);
      const input: LoadProfileInput = {
        target: 'http://10.200.0.2:8080',
        request: { method: 'GET', path: options.path ?? '/hello' },
        load: { model: 'closed', connections: options.sweep?.[0] ?? 100, durationS: options.seconds, ...(options.thinkTime ? { thinkTime: options.thinkTime } : {}) },
        sweep: options.sweep ?? [],
      };
      const profile = LoadProfile.parse(input);
      const started = options.startedAt ?? new Date('2026-03-01T10:00:00.000Z');
      const session = sessions.create(
        {
          name: options.name,
          notes: options.notes ?? '',
          tags: options.tags ?? [],
          clientHostId: client.id,
          serverHostId: server.id,
          config: { profile, target: profile.target, clientHost: client.name, serverHost: server.name, ...options.config },
          status: 'running',
        },
        started,
      );
      sessions.setStatus(session.id, 'running', { started });
      const takenAt = started.toISOString();
      const facts = (role: 'client' | 'server', info: SystemInfo) => ({ ...info, role, hostName: info.hostname, preset: { applied: [], pending: [] }, readings: null });
      snapshots.addForSession(
        session.id,
        [
          { hostId: client.id, facts: facts('client', seedSystemInfo(client.name, { takenAt })) },
          { hostId: server.id, facts: facts('server', seedSystemInfo(server.name, { takenAt, ...options.serverInfo })) },
        ],
        [],
      );
      const runIds: number[] = [];
      let clock = started.getTime();
      for (const step of expandSteps(profile)) {
        const runId = runs.create({
          sessionId: session.id,
          ordinal: step.index + 1,
          templateId: options.templateId ?? 'node',
          variant: options.variant ?? '',
          ...(options.knobs ? { knobs: options.knobs } : {}),
          step: { label: step.label, load: step.load, warmupS: 0, request: profile.request, target: profile.target },
        });
        runs.markStarted(runId, new Date(clock));
        const pool = Array.from({ length: options.histogramPool ?? 20 }, () => intervalHistogram(options.latencyUs * (1 + step.index * 0.5), random));
        const encoded = pool.map((histogram) => encodeHistogram(histogram));
        const accumulator = new SummaryAccumulator();
        const batch: SampleInput[] = [];
        const load = options.stepLoad?.[step.index] ?? {};
        for (let second = 0; second < options.seconds; second++) {
          const requests = Math.round(options.rps * (load.rpsFactor ?? 1) * (0.95 + random() * 0.1));
          const timeouts = Math.round(requests * (load.timeoutShare ?? 0));
          const histogram = pool[second % pool.length]!;
          batch.push({
            second,
            scheduled: requests + timeouts,
            notSent: {},
            inFlight: 0,
            requests,
            bytes: requests * 120,
            errors: { timeout: timeouts, refused: 0, reset: 0, closed: 0, other: 0 },
            statusClasses: { '2xx': requests },
            p50Us: histogram.getValueAtPercentile(50),
            p90Us: histogram.getValueAtPercentile(90),
            p99Us: histogram.getValueAtPercentile(99),
            maxUs: histogram.maxValue,
            histogram: encoded[second % pool.length]!,
            clientMetrics: { cpu: 0.4, agentCpu: 0.8, cores: 2, eventLoopLagMs: 2, openSockets: 100, timeWait: 0, backlog: 0, sent: requests, portErrors: 0, at: clock + (second + 1) * 1000, durationMs: 1000 },
            serverMetrics: options.serverReadings === false ? null : { cpu: 0.6, cpuUser: 0.4, cpuSystem: 0.2, cpuIowait: 0, cores: 2, memTotalBytes: 8e9, memUsedBytes: 2e9, processRssBytes: 8e7, rxBytesPerS: 1e6, txBytesPerS: 5e6, processThreads: 24, runQueue: 2, processVoluntarySwitchesPerS: 1500, processInvoluntarySwitchesPerS: 40, tcpRetransmits: 0, ...options.serverFigures },
          });
          accumulator.add({ scheduled: requests + timeouts, inFlight: 0, requests, bytes: requests * 120, durationMs: 1000, errors: { timeout: timeouts }, status: { '2xx': requests }, histogram });
          if (batch.length === 600) samples.append(runId, batch.splice(0));
        }
        if (batch.length > 0) samples.append(runId, batch);
        clock += options.seconds * 1000;
        const last = step.index === expandSteps(profile).length - 1;
        const ended = !last || !options.status || options.status === 'completed' ? 'completed' : options.status === 'failed' ? 'failed' : 'stopped';
        runs.finish(runId, ended, { summary: accumulator.summary(profile.bucketsMs), histogram: accumulator.histogram }, new Date(clock));
        runIds.push(runId);
      }
      sessions.setStatus(session.id, options.status ?? 'completed', { ended: new Date(clock) });
      return { sessionId: session.id, runIds };
    },
  };
}

/** Seeds the store of a data dir (created if need be) and closes it, for a process that opens it after. */
export function seedStore(dataDir: string, seed: (seeder: Seeder) => void): void {
  const { db } = openDatabase(dataDir);
  try {
    seed(createSeeder(db));
  } finally {
    db.close();
  }
}
