// The default names of sessions, built here only: a run's (what it loads and its steps: the Run page
// proposes it, and RunService gives it to a session started without one, so both say the same) and
// a plan entry's (the plan's name, what was deployed with the configuration that tells it from the
// plan's other entries, and which repeat). Pure.

import { expandSteps, type LoadProfile } from '../runs/load-profile.ts';
import { knobsText, stableJson } from './configuration-key.ts';

/** As long as a session name may be (SessionName). */
const MAX_NAME = 200;

/** "http://10.0.0.2:3000/hello — c=10, 10 s / c=100, 10 s": the target as given, the path and the steps. */
export function runSessionName(profile: LoadProfile): string {
  const steps = expandSteps(profile).map((step) => step.label);
  return `${profile.target.replace(/\/$/, '')}${profile.request.path} — ${steps.join(' / ')}`.slice(0, MAX_NAME);
}

/** What one entry of a plan deploys, as far as its name goes. */
export interface NamedTarget {
  templateId: string;
  variant: string;
  knobs?: Readonly<Record<string, unknown>>;
  port?: number | undefined;
}

/**
 * What tells a plan's entry from the plan's other entries of the same template, in words: the knobs
 * whose values differ between them ("container jetty, language kotlin"; "defaults" for the entry that
 * sets none of them), and the port when only it differs. Null when no other entry shares its template.
 */
export function targetDistinction(targets: readonly NamedTarget[], index: number): string | null {
  const own = targets[index];
  if (!own) return null;
  const peers = targets.filter((target, at) => at !== index && target.templateId === own.templateId);
  if (peers.length === 0) return null;
  const knobs = (target: NamedTarget) => target.knobs ?? {};
  const names = [...new Set([own, ...peers].flatMap((target) => Object.keys(knobs(target))))];
  const differing = names.filter((name) => peers.some((peer) => stableJson(knobs(peer)[name] ?? null) !== stableJson(knobs(own)[name] ?? null)));
  const set = Object.fromEntries(differing.filter((name) => name in knobs(own)).map((name) => [name, knobs(own)[name]]));
  const parts = differing.length === 0 ? [] : [Object.keys(set).length > 0 ? knobsText(set) : 'defaults'];
  // Same knobs: only the variant (already in the template's label) or the port can tell them apart.
  const sameElse = peers.filter((peer) => peer.variant === own.variant && differing.every((name) => stableJson(knobs(peer)[name] ?? null) === stableJson(knobs(own)[name] ?? null)));
  if (sameElse.some((peer) => (peer.port ?? null) !== (own.port ?? null))) parts.push(own.port === undefined ? 'default port' : `port ${own.port}`);
  return parts.length > 0 ? parts.join(', ') : null;
}

/**
 * The session name of a plan entry's run: "Overnight — Spring Boot · sync · container jetty (run 2 of 5)".
 * `templateLabel` names the template and variant; the knobs that differ between the plan's entries of
 * that template follow, so no two entries' sessions share a name.
 */
export function planSessionName(
  spec: { name: string; repeats?: number; targets?: readonly NamedTarget[] },
  index: number,
  templateLabel: string,
  round = 1,
  /** The plan's request this session sends, when it names its requests: said after the template. */
  requestName: string | null = null,
): string {
  const repeats = spec.repeats ?? 1;
  const suffix = `${requestName ? ` — ${requestName}` : ''}${repeats > 1 ? ` (run ${round} of ${repeats})` : ''}`;
  const distinction = spec.targets ? targetDistinction(spec.targets, index) : null;
  return `${spec.name} — ${templateLabel}${distinction ? ` · ${distinction}` : ''}`.slice(0, MAX_NAME - suffix.length) + suffix;
}
