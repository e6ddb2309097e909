// What a preset's apply left in effect, key by key, in the words every surface uses: each verdict
// becomes a row that took effect or did not (with the value live now and why), a stage that left
// any row not taken carries a warning rather than a plain "done", and a session records the rows
// (what was asked and what is in effect) so its figures are read against the host it really had.
// A row's shape is a host fact (PresetKeyEffect, app/hosts/host-facts.ts): what is in effect on a host.

import type { PresetKeyEffect } from '../hosts/host-facts.ts';
import type { KeyVerdict } from './preset-verify.ts';

/**
 * Whether a key is in effect for what Benchlab runs: an "applied" verdict; or a limit line that does
 * not apply to Benchlab's login ("*" for root) when the login has the asked value anyway (a root
 * line beside it gave it). A line whose value Benchlab's processes do not get never counts as taken.
 */
function took(verdict: KeyVerdict): boolean {
  if (verdict.status === 'applied') return true;
  if (verdict.status !== 'not verified' || verdict.kind !== 'limit' || verdict.observed === null) return false;
  return verdict.observed.split(' / ').every((value) => value === verdict.expected);
}

/** The rows of one apply, each said as taken or not for Benchlab's processes. */
export function effectsOf(presetName: string, verdicts: readonly KeyVerdict[]): PresetKeyEffect[] {
  return verdicts.map((verdict) => ({
    preset: presetName,
    kind: verdict.kind,
    key: verdict.key,
    asked: verdict.expected,
    inEffect: verdict.observed,
    took: took(verdict),
    reason: took(verdict) ? null : verdict.reason,
  }));
}

/** `root hard nofile: 20000 in effect, asked 100000 (hard limit 20000 caps it …)`. */
export function notTakenText(effect: Pick<PresetKeyEffect, 'key' | 'asked' | 'inEffect' | 'reason'>): string {
  const live = effect.inEffect === null ? 'nothing read back' : `${effect.inEffect} in effect`;
  return `${effect.key}: ${live}, asked ${effect.asked}${effect.reason ? ` (${effect.reason})` : ''}`;
}

/** The warning of a preset stage whose keys did not all take, or null when every key did. */
export function effectWarning(effects: readonly PresetKeyEffect[]): string | null {
  const missed = effects.filter((effect) => !effect.took);
  if (missed.length === 0) return null;
  return `${missed.length} of ${effects.length} ${effects.length === 1 ? 'key' : 'keys'} did not take effect: ${missed.map(notTakenText).join('; ')}`;
}

/** One row in a line: `net.core.somaxconn 4096` when it took, else the not-taken text. */
export function effectText(effect: PresetKeyEffect): string {
  return effect.took ? `${effect.key} ${effect.inEffect ?? effect.asked}` : notTakenText(effect);
}
