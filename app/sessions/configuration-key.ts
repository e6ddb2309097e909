// What makes compared sessions one configuration, so their runs are repeats and go into one median:
// each run's template, variant and knobs, the load profile and target, the engine, the client hosts
// and the server host — and that each ran to its end (a failed or stopped session is a configuration
// of its own). Also the knobs that tell sessions of one template apart, for the labels. Pure.

import { recordedEngineOf } from '../runs/engine-choice.ts';
import type { ComparedRunInput, ComparedSessionInput } from './comparison.ts';

/** A run whose figures stand as a result: one that ran to its end. A failed or stopped run's are partial. */
export function isCompleted(status: string | undefined): boolean {
  return status === undefined || status === 'completed';
}

export function stableJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(stableJson).join(',')}]`;
  if (value && typeof value === 'object') {
    return `{${Object.keys(value)
      .sort()
      .map((key) => `${JSON.stringify(key)}:${stableJson((value as Record<string, unknown>)[key])}`)
      .join(',')}}`;
  }
  return JSON.stringify(value) ?? 'null';
}

/** Knobs in words, in name order: "container jetty, database on"; "defaults" when none was set. */
export function knobsText(knobs: Readonly<Record<string, unknown>> | undefined): string {
  const entries = Object.entries(knobs ?? {}).sort(([a], [b]) => a.localeCompare(b));
  if (entries.length === 0) return 'defaults';
  const value = (v: unknown) => (v === true ? 'on' : v === false ? 'off' : typeof v === 'string' || typeof v === 'number' ? String(v) : JSON.stringify(v));
  return entries.map(([name, v]) => `${name} ${value(v)}`).join(', ');
}


export function setupsOf(runs: readonly ComparedRunInput[]): Array<{ template: string; variant: string; knobs: string }> {
  const seen = new Map<string, { template: string; variant: string; knobs: string }>();
  for (const run of runs) {
    const setup = { template: run.templateId, variant: run.variant, knobs: knobsText(run.knobs) };
    seen.set(JSON.stringify(setup), setup);
  }
  return [...seen.values()];
}

export function templateLabel(run: ComparedRunInput): string {
  return run.variant ? `${run.templateId} (${run.variant})` : run.templateId;
}

/** The load clients by host name and weight, as the session recorded them (one client: its host's name). */
function clientsKey(session: ComparedSessionInput): unknown {
  const clients = session.config.clients;
  if (!Array.isArray(clients)) return [session.clientHost];
  return clients.map((client: { hostName?: unknown; weight?: unknown } | null) => [client?.hostName ?? null, client?.weight ?? null]);
}

/**
 * What makes two sessions repeats of one experiment: both completed, and the repeat tag a plan gives
 * the sessions of one configuration it repeats (`config.repeat.group`, plan-runner.ts), or else
 * everything that defines a configuration equal: each run's template, variant and knobs, the load
 * profile and target, the engine, the client hosts (and their weights) and the server host. A failed
 * or stopped session is a configuration of its own: its partial figures never go into a median.
 */
export function configurationKey(session: ComparedSessionInput): string {
  if (!isCompleted(session.status)) return stableJson({ unfinished: session.id });
  const repeat = session.config.repeat as { group?: unknown } | undefined;
  if (typeof repeat?.group === 'string') return stableJson({ repeatGroup: repeat.group });
  // The same profile driven by another engine or from other clients is another configuration: the
  // generator is part of what was measured (a session without an engine ran the Node engine).
  return stableJson({
    setups: setupsOf(session.runs),
    profile: session.config.profile ?? null,
    target: session.config.target ?? null,
    engine: recordedEngineOf(session.config)?.kind ?? 'node',
    clients: clientsKey(session),
    server: session.serverHost,
  });
}

/**
 * Per session, the knobs in which its set-up differs from another compared session's of the same
 * template and variant, in words ("container jetty"); null when none does. Two Spring Boot sessions,
 * one on Tomcat and one on Jetty, then read apart in every label.
 */
export function distinctKnobs(sessions: readonly ComparedSessionInput[]): Array<string | null> {
  const templateOf = (session: ComparedSessionInput) => stableJson([...new Set(session.runs.map(templateLabel))]);
  const knobsOf = (session: ComparedSessionInput) => Object.assign({}, ...session.runs.map((run) => run.knobs ?? {})) as Record<string, unknown>;
  return sessions.map((session) => {
    const own = knobsOf(session);
    const others = sessions.filter((other) => other !== session && templateOf(other) === templateOf(session)).map(knobsOf);
    const names = [...new Set([...Object.keys(own), ...others.flatMap((knobs) => Object.keys(knobs))])];
    const differing = names.filter((name) => others.some((knobs) => stableJson(knobs[name] ?? null) !== stableJson(own[name] ?? null)));
    const shown = Object.fromEntries(differing.filter((name) => name in own).map((name) => [name, own[name]]));
    return Object.keys(shown).length > 0 ? knobsText(shown) : differing.length > 0 ? 'defaults' : null;
  });
}

