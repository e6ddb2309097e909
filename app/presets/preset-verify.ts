// Verification of an applied preset, key by key: a sysctl is applied when the kernel reads back
// the new value; a limit is applied when a NEW login gets it (pam_limits runs at login). Anything
// else is "not effective", with the reason when it can be told, or "not verified" when Benchlab's
// login cannot observe it — never claimed.

import { z } from 'zod';
import { appliesTo, compareLimitValues, decidingLine, type LimitsFile, type LoginIdentity, type ProcLimits } from './limits-conf.ts';
import { LIMITS_DROP_IN, limitLabel, typesOf, type LimitItem, type LimitSetting } from './presets.ts';
import { missingKeyReason, type SysctlPlanRow } from './preset-plan.ts';

export const VERDICT_STATUSES = ['applied', 'not effective', 'not verified'] as const;

export const KeyVerdict = z.object({
  kind: z.enum(['sysctl', 'limit', 'network']),
  /** The sysctl key, the limit line's label (`root hard nofile`), or the interface and setting (`eth0 bandwidth`). */
  key: z.string(),
  expected: z.string(),
  observed: z.string().nullable(),
  status: z.enum(VERDICT_STATUSES),
  reason: z.string().nullable(),
});
export type KeyVerdict = z.infer<typeof KeyVerdict>;

/** What `sysctl -w` said for one key. */
export interface LiveWrite {
  ok: boolean;
  error: string | null;
}

/** Why the kernel refused a write, in the words the UI shows. */
export function explainWriteFailure(key: string, error: string): string {
  if (/permission denied|read-only file system|operation not permitted/i.test(error)) {
    return key.startsWith('net.') ? 'read-only on this host' : 'not namespaced here';
  }
  if (/no such file|cannot stat|unknown key/i.test(error)) return 'key not in this kernel';
  if (/invalid argument/i.test(error)) return 'the kernel refused the value (invalid argument)';
  return `sysctl -w failed: ${error.trim().split('\n')[0] ?? 'no message'}`;
}

export function judgeSysctl(row: SysctlPlanRow, write: LiveWrite | undefined, readback: string | null): KeyVerdict {
  const verdict = (status: KeyVerdict['status'], reason: string | null): KeyVerdict => ({
    kind: 'sysctl',
    key: row.key,
    expected: row.next,
    observed: readback,
    status,
    reason,
  });
  if (row.change === 'missing' || readback === null) return verdict('not effective', missingKeyReason(row.key));
  if (row.change === 'unwritable') return verdict(readback === row.next ? 'applied' : 'not effective', readback === row.next ? null : row.reason);
  if (write && !write.ok && readback !== row.next) return verdict('not effective', explainWriteFailure(row.key, write.error ?? ''));
  if (readback !== row.next) return verdict('not effective', `the kernel reads back "${readback}"`);
  return verdict('applied', null);
}

export interface LimitEvidence {
  /** The limits files after the apply. */
  files: readonly LimitsFile[];
  login: LoginIdentity;
  /** What a fresh login got; null when no fresh login could be made (with why). */
  fresh: ProcLimits | null;
  freshProblem: string | null;
  /** What Benchlab's earlier login had, before the apply. */
  before: ProcLimits;
  /** fs.nr_open, the kernel's ceiling for nofile, when known. */
  nrOpen: string | null;
}

function notApplying(limit: LimitSetting, login: LoginIdentity): string {
  if (login.uid === 0 && (limit.domain === '*' || limit.domain.startsWith('@'))) {
    return `pam_limits does not apply "${limit.domain}" lines to root, and Benchlab logs in as root`;
  }
  return `applies to ${limit.domain}; Benchlab logs in as ${login.user}`;
}

/** Why a limit line the login should have got did not take, as far as the evidence tells. */
function explainLimit(limit: LimitSetting, type: 'soft' | 'hard', evidence: LimitEvidence, observed: { soft: string; hard: string }): string {
  const item = limit.item as LimitItem;
  const before = evidence.before[item];
  if (item === 'nofile' && evidence.nrOpen !== null && /^\d+$/.test(evidence.nrOpen) && compareLimitValues(limit.value, evidence.nrOpen) > 0) {
    return `above fs.nr_open (${evidence.nrOpen}), the kernel's ceiling for open files`;
  }
  const raisesHard = (value: string) => before !== undefined && compareLimitValues(value, before.hard) > 0 && observed.hard === before.hard;
  if (type === 'hard' && raisesHard(limit.value)) {
    return `hard limit ${observed.hard} caps it: it cannot be raised here (new logins still get ${observed.hard})`;
  }
  if (type === 'soft' && compareLimitValues(limit.value, observed.hard) > 0) {
    return `the soft limit cannot exceed the hard limit in effect (${observed.hard})`;
  }
  const hardLine = decidingLine(evidence.files, evidence.login, limit.item, 'hard');
  if (type === 'soft' && hardLine && raisesHard(hardLine.value)) {
    return `hard limit ${observed.hard} caps it: pam_limits sets soft and hard together, and the hard limit cannot be raised here`;
  }
  // Seen on Debian 12's sshd: a soft nofile line alone is not taken, the same line beside a hard one is.
  if (type === 'soft' && !hardLine) return `a new login still gets ${observed.soft}: this host's SSH login did not take a soft limit without a hard one; add a hard ${limit.item} line`;
  return `a new login still gets ${observed[type]}: check that pam_limits runs for SSH logins (UsePAM yes, pam_limits in /etc/pam.d/sshd)`;
}

/** One verdict per preset limit line, from a fresh login's limits. */
export function judgeLimits(limits: readonly LimitSetting[], evidence: LimitEvidence): KeyVerdict[] {
  return limits.map((limit) => {
    const types = typesOf(limit.type);
    const item = limit.item as LimitItem;
    const observed = evidence.fresh?.[item];
    const verdict = (status: KeyVerdict['status'], reason: string | null): KeyVerdict => ({
      kind: 'limit',
      key: limitLabel(limit),
      expected: limit.value,
      observed: observed ? types.map((type) => observed[type]).join(' / ') : null,
      status,
      reason,
    });
    if (!appliesTo(limit.domain, evidence.login)) return verdict('not verified', notApplying(limit, evidence.login));
    if (!evidence.fresh || !observed) return verdict('not verified', evidence.freshProblem ?? 'no fresh login could read the limits');
    // Hard first: when both fail, the hard limit is the cause.
    for (const type of [...types].reverse()) {
      const deciding = decidingLine(evidence.files, evidence.login, limit.item, type);
      if (deciding && !deciding.source.startsWith(`${LIMITS_DROP_IN}:`)) {
        return verdict('not effective', `overridden for ${evidence.login.user} by ${deciding.source} (${deciding.domain} ${deciding.type} ${deciding.item} ${deciding.value})`);
      }
      if (compareLimitValues(observed[type], limit.value) !== 0) return verdict('not effective', explainLimit(limit, type, evidence, observed));
    }
    return verdict('applied', null);
  });
}
