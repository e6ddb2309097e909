// Parsing ~/.ssh/config into host entry candidates (Host, HostName, User, Port, IdentityFile,
// ProxyJump) with OpenSSH's rules: case-insensitive keywords, `Key value` / `Key=value`, quotes,
// comments, and "the first obtained value wins" across every block that matches an alias. Pure:
// the caller reads the file and supplies the home directory and local user name.

import { z } from 'zod';

export const SshConfigCandidate = z.object({
  /** The Host alias, used as the entry name. */
  name: z.string(),
  address: z.string(),
  port: z.number(),
  user: z.string().nullable(),
  identityFile: z.string().nullable(),
  /** Alias or [user@]host[:port] of the jump host, as written. */
  proxyJump: z.string().nullable(),
});
export type SshConfigCandidate = z.infer<typeof SshConfigCandidate>;

export interface SshConfigParseOptions {
  /** The local home directory, for `~` and `%d`. */
  home: string;
  /** The local user name, for `%u` (and `%r` when no User is set, as ssh itself defaults to it). */
  currentUser: string;
}

export interface SshConfigParseResult {
  candidates: SshConfigCandidate[];
  warnings: string[];
}

interface Directive {
  line: number;
  /** Lower-cased keyword. */
  keyword: string;
  /** The keyword as written, for messages. */
  written: string;
  args: string[];
}

interface Block {
  /** `all`: applies to every alias (text before the first Host, `Match all`); `skip`: never applies. */
  kind: 'all' | 'host' | 'skip';
  patterns: string[];
  directives: Directive[];
}

/** One value obtained for an alias, remembered with where it came from for messages. */
interface Obtained {
  value: string;
  line: number;
  keyword: string;
}

/** The options Benchlab reads; everything else in the file is legitimately ignored. */
const READ_KEYWORDS = new Set(['hostname', 'user', 'port', 'identityfile', 'proxyjump', 'proxycommand']);

type SplitLine = { keyword: string; args: string[] } | { error: string } | null;

/**
 * Splits one line the way OpenSSH does: the keyword ends at whitespace or `=`, then words separated
 * by whitespace, with "double" or 'single' quotes, backslash escapes of quotes, backslash and
 * space, and a `#` at the start of a word ending the line (a trailing comment).
 */
function splitLine(text: string): SplitLine {
  const line = text.replace(/^\s+/, '');
  if (line === '' || line.startsWith('#')) return null;
  const keywordMatch = /^[^\s=]+/.exec(line);
  if (!keywordMatch) return { error: 'a line starting with "=" has no keyword' };
  const keyword = keywordMatch[0];
  const rest = line.slice(keyword.length).replace(/^\s*=?\s*/, '');

  const args: string[] = [];
  let i = 0;
  while (i < rest.length) {
    while (i < rest.length && /\s/.test(rest[i]!)) i++;
    if (i >= rest.length) break;
    if (rest[i] === '#') break;
    let word = '';
    let quote: string | null = null;
    for (; i < rest.length; i++) {
      const c = rest[i]!;
      if (c === '\\' && i + 1 < rest.length) {
        const next = rest[i + 1]!;
        if (next === '"' || next === "'" || next === '\\' || (quote === null && /\s/.test(next))) {
          word += next;
          i++;
          continue;
        }
        word += c;
      } else if (quote === null && /\s/.test(c)) {
        break;
      } else if (quote === null && (c === '"' || c === "'")) {
        quote = c;
      } else if (quote !== null && c === quote) {
        quote = null;
      } else {
        word += c;
      }
    }
    if (quote !== null) return { error: 'unbalanced quotes' };
    args.push(word);
  }
  return { keyword, args };
}

/** OpenSSH host patterns: `*` any run of characters, `?` exactly one; compared case-insensitively. */
function wildcardMatch(pattern: string, text: string): boolean {
  const p = pattern.toLowerCase();
  const s = text.toLowerCase();
  let pi = 0;
  let si = 0;
  let star = -1;
  let mark = 0;
  while (si < s.length) {
    if (pi < p.length && (p[pi] === '?' || p[pi] === s[si])) {
      pi++;
      si++;
    } else if (pi < p.length && p[pi] === '*') {
      star = pi++;
      mark = si;
    } else if (star !== -1) {
      pi = star + 1;
      si = ++mark;
    } else {
      return false;
    }
  }
  while (p[pi] === '*') pi++;
  return pi === p.length;
}

/** A Host line applies when one plain pattern matches and no negated (`!`) pattern does. */
function hostLineMatches(patterns: string[], alias: string): boolean {
  let matched = false;
  for (const pattern of patterns) {
    if (pattern.startsWith('!')) {
      if (wildcardMatch(pattern.slice(1), alias)) return false;
    } else if (wildcardMatch(pattern, alias)) {
      matched = true;
    }
  }
  return matched;
}

function isConcreteAlias(pattern: string): boolean {
  return pattern !== '' && !/[*?!]/.test(pattern);
}

function expandTilde(path: string, home: string): { path: string; problem: string | null } {
  const base = home.endsWith('/') && home.length > 1 ? home.slice(0, -1) : home;
  if (path === '~') return { path: base, problem: null };
  if (path.startsWith('~/')) return { path: base + path.slice(1), problem: null };
  // ~otheruser/… needs the password database: left as written for the user to fix.
  if (path.startsWith('~')) return { path, problem: `"${path.split('/')[0]}" (another user's home) is not expanded` };
  return { path, problem: null };
}

/** Replaces `%x` tokens from `tokens`; unknown tokens are reported and the text is left as written. */
function expandPercent(text: string, tokens: Record<string, string>): { text: string; problem: string | null } {
  let problem: string | null = null;
  const expanded = text.replace(/%(.?)/g, (whole, key: string) => {
    if (key === '%') return '%';
    const value = tokens[key];
    if (value !== undefined) return value;
    problem ??= key === '' ? 'a "%" at the end is not a token' : `the token %${key} is not supported here`;
    return whole;
  });
  return problem ? { text, problem } : { text: expanded, problem: null };
}

function parsePort(value: string): number | null {
  if (!/^\d{1,5}$/.test(value)) return null;
  const port = Number(value);
  return port >= 1 && port <= 65535 ? port : null;
}

/** Reads the lines into blocks, warning about what Benchlab will not evaluate. */
function readBlocks(text: string, warnings: string[]): Block[] {
  const blocks: Block[] = [{ kind: 'all', patterns: [], directives: [] }];
  const lines = text.replace(/^\uFEFF/, '').split(/\r?\n|\r/);
  lines.forEach((raw, index) => {
    const line = index + 1;
    const split = splitLine(raw);
    if (split === null) return;
    if ('error' in split) {
      // A broken Host/Match line must not let its settings leak into the previous block.
      if (/^\s*(host|match)\b/i.test(raw)) blocks.push({ kind: 'skip', patterns: [], directives: [] });
      warnings.push(`line ${line}: ${split.error}; line ignored`);
      return;
    }
    const keyword = split.keyword.toLowerCase();
    if (keyword === 'host') {
      if (split.args.length === 0) {
        warnings.push(`line ${line}: Host without a pattern; its block is ignored`);
        blocks.push({ kind: 'skip', patterns: [], directives: [] });
      } else {
        blocks.push({ kind: 'host', patterns: split.args, directives: [] });
      }
      return;
    }
    if (keyword === 'match') {
      // `Match all` is a plain "every host" block (often used to close a Match section).
      if (split.args.length === 1 && split.args[0]!.toLowerCase() === 'all') {
        blocks.push({ kind: 'all', patterns: [], directives: [] });
      } else {
        warnings.push(`line ${line}: "Match ${split.args.join(' ')}" is not evaluated; the settings of that block are ignored`);
        blocks.push({ kind: 'skip', patterns: [], directives: [] });
      }
      return;
    }
    if (keyword === 'include') {
      warnings.push(`line ${line}: "Include ${split.args.join(' ')}" is not followed; hosts defined in included files are not listed`);
      return;
    }
    if (!READ_KEYWORDS.has(keyword)) return;
    const block = blocks[blocks.length - 1]!;
    if (block.kind === 'skip') return;
    if (split.args.length === 0) {
      warnings.push(`line ${line}: ${split.keyword} has no value; ignored`);
      return;
    }
    // ProxyCommand is a whole command line; every other option read here takes one value.
    if (split.args.length > 1 && keyword !== 'proxycommand') {
      warnings.push(`line ${line}: ${split.keyword} takes one value; "${split.args.slice(1).join(' ')}" ignored`);
    }
    block.directives.push({ line, keyword, written: split.keyword, args: split.args });
  });
  return blocks;
}

function resolveAlias(
  alias: string,
  blocks: Block[],
  options: SshConfigParseOptions,
  warnings: string[],
): SshConfigCandidate | null {
  const first: Record<string, Obtained> = {};
  for (const block of blocks) {
    if (block.kind === 'skip') continue;
    if (block.kind === 'host' && !hostLineMatches(block.patterns, alias)) continue;
    for (const directive of block.directives) {
      // ProxyJump and ProxyCommand compete: whichever comes first for this host wins.
      const slot = directive.keyword === 'proxyjump' || directive.keyword === 'proxycommand' ? 'proxy' : directive.keyword;
      if (first[slot]) continue;
      const value = directive.keyword === 'proxycommand' ? directive.args.join(' ') : directive.args[0]!;
      first[slot] = { value, line: directive.line, keyword: directive.keyword };
    }
  }

  let port = 22;
  if (first.port) {
    const parsed = parsePort(first.port.value);
    if (parsed === null) {
      warnings.push(`line ${first.port.line}: Port "${first.port.value}" is not a number from 1 to 65535; host "${alias}" skipped`);
      return null;
    }
    port = parsed;
  }

  let address = alias;
  if (first.hostname) {
    const expanded = expandPercent(first.hostname.value, { h: alias });
    if (expanded.problem) warnings.push(`line ${first.hostname.line}: HostName of "${alias}": ${expanded.problem}`);
    address = expanded.text;
  }

  const user = first.user?.value ?? null;

  let identityFile: string | null = null;
  if (first.identityfile && first.identityfile.value.toLowerCase() !== 'none') {
    const { line, value } = first.identityfile;
    const tilde = expandTilde(value, options.home);
    const percent = expandPercent(tilde.path, {
      h: address,
      n: alias,
      p: String(port),
      r: user ?? options.currentUser,
      u: options.currentUser,
      d: options.home,
    });
    for (const problem of [tilde.problem, percent.problem]) {
      if (problem) warnings.push(`line ${line}: IdentityFile of "${alias}": ${problem}; kept as written`);
    }
    if (/\$\{[^}]*\}/.test(percent.text)) {
      warnings.push(`line ${line}: IdentityFile of "${alias}": environment variables are not expanded; kept as written`);
    }
    identityFile = percent.text;
  }

  let proxyJump: string | null = null;
  if (first.proxy && first.proxy.value.toLowerCase() !== 'none') {
    if (first.proxy.keyword === 'proxycommand') {
      warnings.push(`line ${first.proxy.line}: "${alias}" uses a ProxyCommand, which Benchlab does not run; it would connect directly`);
    } else {
      proxyJump = first.proxy.value;
    }
  }

  return { name: alias, address, port, user, identityFile, proxyJump };
}

/**
 * One candidate per concrete Host alias (patterns with `*`, `?` or `!` only lend their settings
 * to the aliases they match), in the order the aliases first appear.
 */
export function parseSshConfig(text: string, options: SshConfigParseOptions): SshConfigParseResult {
  const warnings: string[] = [];
  const blocks = readBlocks(text, warnings);

  const aliases: string[] = [];
  const seen = new Set<string>();
  for (const block of blocks) {
    if (block.kind !== 'host') continue;
    for (const pattern of block.patterns) {
      const key = pattern.toLowerCase();
      if (!isConcreteAlias(pattern) || seen.has(key)) continue;
      seen.add(key);
      aliases.push(pattern);
    }
  }

  const candidates: SshConfigCandidate[] = [];
  for (const alias of aliases) {
    const candidate = resolveAlias(alias, blocks, options, warnings);
    if (candidate) candidates.push(candidate);
  }
  return { candidates, warnings };
}

/** The host entry an ssh config candidate becomes: its IdentityFile as a key file, else the agent. */
export function candidateHostInput(candidate: SshConfigCandidate, options: { defaultUser: string; jumpHostId?: number | undefined }) {
  return {
    name: candidate.name,
    address: candidate.address,
    port: candidate.port,
    user: candidate.user ?? options.defaultUser,
    auth: candidate.identityFile ? ('key' as const) : ('agent' as const),
    ...(candidate.identityFile ? { keyPath: candidate.identityFile } : {}),
    ...(options.jumpHostId ? { jumpHostId: options.jumpHostId } : {}),
  };
}
