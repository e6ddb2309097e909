// Reading pam_limits configuration the way pam_limits does, and /proc/self/limits: which line
// decides a user's limit (so a plan can say what is configured now and whether our drop-in wins),
// and what a login actually got (so verification compares like with like, in limits.conf units).

import { LIMIT_ITEMS, normaliseLimitValue, typesOf, type LimitItem } from './presets.ts';

export interface LimitsFile {
  path: string;
  text: string;
}

export interface LimitLine {
  domain: string;
  type: string;
  item: string;
  value: string;
  /** Where it was read, for messages: `/etc/security/limits.conf:12`. */
  source: string;
}

export interface LoginIdentity {
  user: string;
  uid: number;
  groups: readonly string[];
}

/** Lines of one limits file; comments, blank and malformed lines are skipped like pam_limits does. */
export function parseLimitsFile(file: LimitsFile): LimitLine[] {
  const lines: LimitLine[] = [];
  file.text.split('\n').forEach((raw, index) => {
    const text = raw.replace(/#.*$/, '').trim();
    if (text === '') return;
    const fields = text.split(/\s+/);
    if (fields.length !== 4) return;
    const [domain, type, item, value] = fields as [string, string, string, string];
    lines.push({ domain, type, item, value: normaliseLimitValue(value), source: `${file.path}:${index + 1}` });
  });
  return lines;
}

/**
 * pam_limits' precedence: a line naming the user beats a group line, which beats "*"; among
 * equals the later line wins (limits.conf first, then limits.d/*.conf in C order). Group and "*"
 * lines never apply to root.
 */
function rank(domain: string, who: LoginIdentity): number | null {
  if (domain === who.user) return 0;
  if (who.uid === 0) return null;
  if (domain.startsWith('@')) return who.groups.includes(domain.slice(1)) ? 1 : null;
  if (domain === '*') return 2;
  return null;
}

export function appliesTo(domain: string, who: LoginIdentity): boolean {
  return rank(domain, who) !== null;
}

/** The line that decides `item`'s soft or hard limit for a login, or null when none does. */
export function decidingLine(files: readonly LimitsFile[], who: LoginIdentity, item: string, type: 'soft' | 'hard'): LimitLine | null {
  let best: { line: LimitLine; rank: number } | null = null;
  for (const file of files) {
    for (const line of parseLimitsFile(file)) {
      if (line.item !== item || !typesOf(line.type).includes(type)) continue;
      const lineRank = rank(line.domain, who);
      if (lineRank === null) continue;
      if (!best || lineRank <= best.rank) best = { line, rank: lineRank };
    }
  }
  return best?.line ?? null;
}

/** The last line configuring exactly this domain's item and type (what "configured now" shows). */
export function configuredLine(files: readonly LimitsFile[], domain: string, item: string, type: 'soft' | 'hard'): LimitLine | null {
  let found: LimitLine | null = null;
  for (const file of files) {
    for (const line of parseLimitsFile(file)) {
      if (line.domain === domain && line.item === item && typesOf(line.type).includes(type)) found = line;
    }
  }
  return found;
}

export type ProcLimits = Partial<Record<LimitItem, { soft: string; hard: string }>>;

/** /proc/self/limits, each value in limits.conf units ("unlimited" or a number). */
export function parseProcLimits(text: string): ProcLimits {
  const limits: ProcLimits = {};
  const lines = text.split('\n');
  for (const item of Object.keys(LIMIT_ITEMS) as LimitItem[]) {
    const { row, factor } = LIMIT_ITEMS[item];
    const line = lines.find((candidate) => candidate.startsWith(row));
    if (!line) continue;
    const [soft, hard] = line.slice(row.length).trim().split(/\s+/);
    const convert = (value: string | undefined) => {
      if (value === undefined) return null;
      if (value === 'unlimited') return value;
      if (!/^\d+$/.test(value)) return null;
      return String(Math.floor(Number(value) / factor));
    };
    const [softValue, hardValue] = [convert(soft), convert(hard)];
    if (softValue !== null && hardValue !== null) limits[item] = { soft: softValue, hard: hardValue };
  }
  return limits;
}

/** Compares limit values numerically, "unlimited" above every number. */
export function compareLimitValues(a: string, b: string): number {
  const value = (text: string) => (normaliseLimitValue(text) === 'unlimited' ? Infinity : Number(text));
  const [x, y] = [value(a), value(b)];
  return x === y ? 0 : x < y ? -1 : 1;
}
