// Noise findings and host facts in words, apart from the React component (tested without a DOM):
// which host a finding is about (with several clients, which client by name) and which hosts a
// check read.

import type { NoiseFinding, SessionHostFacts } from '../../../../app/hosts/host-facts.ts';

/** The badge of a finding: its role, with the host's name when the finding carries it. */
export function findingHostLabel(finding: Pick<NoiseFinding, 'host' | 'hostName'>): string {
  if (finding.host === 'both') return 'both hosts';
  return finding.hostName === undefined ? finding.host : `${finding.host} ${finding.hostName}`;
}

/** The hosts a check read, by role and name: "client a, client b, server s". */
export function checkedHostsText(facts: Pick<SessionHostFacts, 'clients' | 'server'>): string {
  return [...facts.clients, ...(facts.server ? [facts.server] : [])].map((host) => `${host.role} ${host.hostName}`).join(', ');
}

/** One reading of the hosts: its findings, the facts they came from (for the read times) and when it stands. */
export interface NoiseReadingInput {
  /** `next`: read now, for the next run; `start`: stored with the session at its start. */
  when: 'next' | 'start';
  findings: readonly NoiseFinding[];
  facts: Pick<SessionHostFacts, 'clients' | 'server'> | null;
}

/** One finding as one reading saw it, labelled with when it was read. */
export interface ReadFinding {
  when: NoiseReadingInput['when'];
  message: string;
  evidence: string;
  /** "read 12:01:05, before the next run". */
  readAt: string;
}

/** A finding of either reading, with what each reading saw of it (the newest first). */
export interface MergedFinding {
  key: string;
  kind: NoiseFinding['kind'];
  host: NoiseFinding['host'];
  hostName: string | undefined;
  reads: ReadFinding[];
}

const WHEN_WORDS: Record<NoiseReadingInput['when'], string> = { next: 'before the next run', start: "at this session's start" };

function clockOf(iso: string): string {
  const date = new Date(iso);
  return Number.isNaN(date.getTime()) ? iso : [date.getHours(), date.getMinutes(), date.getSeconds()].map((part) => String(part).padStart(2, '0')).join(':');
}

/** When the host a finding is about was read: its facts' time (the server's for both hosts), else the reading's latest. */
function readTimeOf(finding: NoiseFinding, facts: NoiseReadingInput['facts']): string | null {
  if (!facts) return null;
  const hosts = [...facts.clients, ...(facts.server ? [facts.server] : [])];
  const role = finding.host === 'both' ? 'server' : finding.host;
  const host = hosts.find((candidate) => candidate.role === role && (finding.hostName === undefined || candidate.hostName === finding.hostName));
  if (host) return host.takenAt;
  const times = hosts.map((candidate) => candidate.takenAt).sort();
  return times.at(-1) ?? null;
}

/** "read 12:01:05, before the next run" (or without the time when the facts did not say it). */
export function readAtText(when: NoiseReadingInput['when'], takenAt: string | null): string {
  return takenAt ? `read ${clockOf(takenAt)}, ${WHEN_WORDS[when]}` : `read ${WHEN_WORDS[when]}`;
}

/**
 * The findings of several readings of the same hosts as one list: a finding both readings made is
 * one entry with each reading's figures, each labelled with when it was read, so two readings of
 * a load average never look like two different warnings.
 */
export function mergeReadings(readings: readonly NoiseReadingInput[]): MergedFinding[] {
  const merged = new Map<string, MergedFinding>();
  for (const reading of readings) {
    for (const finding of reading.findings) {
      const key = `${finding.kind}|${finding.host}|${finding.hostName ?? ''}`;
      const entry = merged.get(key) ?? { key, kind: finding.kind, host: finding.host, hostName: finding.hostName, reads: [] };
      entry.reads.push({ when: reading.when, message: finding.message, evidence: finding.evidence, readAt: readAtText(reading.when, readTimeOf(finding, reading.facts)) });
      merged.set(key, entry);
    }
  }
  return [...merged.values()];
}
