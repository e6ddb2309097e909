// The printed comparison's profile chapter: for each configuration (a group of repeated sessions),
// the server's CPU profile of its busiest captured run (the most samples: the step where the server
// worked hardest) as its top frames and its flame graph as a picture; runs without a profile are
// named with the reason. HTML for the report page, which inserts it as it is.

import type { Comparison } from '../sessions/comparison.ts';
import { letterOf } from '../sessions/comparison-headline.ts';
import { flameTree, shareText, topFrames } from './flame-graph.ts';
import { flameSvg } from './flame-svg.ts';
import type { ProfileEntry } from './profiles.ts';

/** What the chapter needs of a run's profile entry (profiles.list's shape). */
export type ReportProfileEntry = Pick<ProfileEntry, 'runId' | 'sessionId' | 'status' | 'reason' | 'tool' | 'samples'>;

function escapeHtml(text: string): string {
  return text.replace(/[&<>"]/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;' })[c]!);
}

const STYLE = `<style>
  .profile-config { break-inside: avoid; page-break-inside: avoid; margin-bottom: 10px; }
  .profile-config table { width: auto; min-width: 60%; }
  .profile-config td.frame { text-align: left; font-family: ui-monospace, monospace; max-width: 170mm; overflow: hidden; text-overflow: ellipsis; }
  .profile-config svg.flame { width: 100%; height: auto; border: 1px solid #d1d5db; }
</style>`;

/** The step label of each compared run, as the comparison's tables name it. */
function stepOfRun(comparison: Comparison): Map<number, string> {
  const steps = new Map<number, string>();
  for (const step of comparison.steps) for (const row of step.rows) steps.set(row.runId, step.label);
  return steps;
}

/**
 * The chapter, or '' when no compared run has a profile entry (sessions from before profiles).
 * `foldedOf` reads a captured run's folded text (null: gone since it was listed).
 */
export function profilesReportHtml(comparison: Comparison, entries: readonly ReportProfileEntry[], foldedOf: (runId: number) => string | null, topCount = 10): string {
  if (entries.length === 0) return '';
  const steps = stepOfRun(comparison);
  const groups = comparison.repeats.length > 0 ? comparison.repeats : comparison.sessions.map((session, i) => ({ label: session.name, sessions: [i] }));
  const parts: string[] = [];
  for (const [g, group] of groups.entries()) {
    const ids = new Set(group.sessions.map((index) => comparison.sessions[index]?.id));
    const own = entries.filter((entry) => ids.has(entry.sessionId));
    const captured = own.filter((entry) => entry.status === 'captured').sort((a, b) => (b.samples ?? 0) - (a.samples ?? 0));
    const folded = captured.length > 0 ? foldedOf(captured[0]!.runId) : null;
    parts.push(`<div class="profile-config"><h3>${letterOf(g)} · ${escapeHtml(group.label)}</h3>`);
    if (folded === null) {
      const why = own.find((entry) => entry.status !== 'captured');
      const reason = why ? (why.status === 'off' ? 'profiling was off' : (why.reason ?? 'not captured')) : 'no profile recorded';
      parts.push(`<div class="meta">No profile: ${escapeHtml(reason)}.</div></div>`);
      continue;
    }
    const chosen = captured[0]!;
    const tree = flameTree(folded);
    const rows = topFrames(tree, topCount)
      .map((frame) => `<tr><td class="frame">${escapeHtml(frame.name)}</td><td>${shareText(frame.selfShare)}</td><td>${shareText(frame.totalShare)}</td></tr>`)
      .join('');
    const step = steps.get(chosen.runId);
    parts.push(
      `<div class="meta">${step ? `Step ${escapeHtml(step)}, ` : ''}${tree.samples.toLocaleString('en-US')} samples${chosen.tool ? ` (${escapeHtml(chosen.tool)})` : ''}${captured.length > 1 ? `; the busiest of its ${captured.length} profiled runs` : ''}.</div>`,
      `<table><thead><tr><th class="text">Top frames by self time</th><th>Self</th><th>Total</th></tr></thead><tbody>${rows}</tbody></table>`,
      `<figure>${flameSvg(tree.root, { width: 1000, rowHeight: 15, maxRows: 36 })}</figure></div>`,
    );
  }
  return `${STYLE}<section class="chapter" data-section="profiles"><h2>Server CPU profiles</h2><div class="meta">Per configuration, where the server process spent its CPU time: its frames by their own (self) samples, and its flame graph (each frame above its caller, widths by samples).</div>${parts.join('\n')}</section>`;
}
