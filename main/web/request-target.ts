// Reads an HTTP request target the way web mode routes it, and says why one is malformed; also the
// one sanitised, truncated form in which a refused request is named in a log line.
//
// Web mode only ever needs origin-form targets (`/path?query`), the form browsers send to a server
// that is not a proxy. Everything else is refused with 400 rather than guessed at: `*`, absolute-form
// (`http://host/…`, whose authority could disagree with the Host header that was checked),
// authority-form, and paths a URL parser would read differently from the static file server (`//[`
// reads as a host name). The path is held to RFC 3986's characters and must percent-decode to UTF-8
// without NUL; the query (only `token` is read) may hold any visible ASCII, as browsers leave some
// characters such as `[` or `|` unencoded there.

/** Far above any URL Benchlab makes (the longest is the 64-hex-digit token URL). */
export const MAX_TARGET_LENGTH = 2048;

export type RequestTarget = { ok: true; path: string; query: URLSearchParams } | { ok: false; reason: string };

/** unreserved / pct-encoded / sub-delims / ":" / "@" and the "/" between segments. */
const PATH = /^\/(?:[A-Za-z0-9\-._~!$&'()*+,;=:@/]|%[0-9A-Fa-f]{2})*$/;
const QUERY = /^[\x21-\x7e]*$/;

export function parseRequestTarget(target: string | undefined): RequestTarget {
  if (!target) return { ok: false, reason: 'no request target' };
  if (target.length > MAX_TARGET_LENGTH) return { ok: false, reason: `a request target longer than ${MAX_TARGET_LENGTH} characters` };
  if (!target.startsWith('/')) return { ok: false, reason: 'not a path (only origin-form targets are served)' };
  const queryAt = target.indexOf('?');
  const path = queryAt < 0 ? target : target.slice(0, queryAt);
  const query = queryAt < 0 ? '' : target.slice(queryAt + 1);
  if (!PATH.test(path)) return { ok: false, reason: 'characters a URL path may not hold' };
  if (!QUERY.test(query)) return { ok: false, reason: 'characters a URL query may not hold' };
  let decoded: string;
  try {
    decoded = decodeURIComponent(path);
  } catch {
    return { ok: false, reason: 'a path that is not valid percent-encoded UTF-8' };
  }
  if (decoded.includes('\0')) return { ok: false, reason: 'a NUL byte in the path' };
  return { ok: true, path, query: new URLSearchParams(query) };
}

const SHOWN_METHOD_LENGTH = 16;
const SHOWN_TARGET_LENGTH = 120;

/** Printable ASCII only, so a log line cannot be forged or garbled by what a client sent. */
function printable(text: string, limit: number): string {
  const escaped = text
    .slice(0, limit)
    .replace(/[^\x20-\x7e]|\\/g, (char) => {
      if (char === '\\') return '\\\\';
      const code = char.charCodeAt(0);
      return code < 0x100 ? `\\x${code.toString(16).padStart(2, '0')}` : `\\u${code.toString(16).padStart(4, '0')}`;
    });
  return text.length > limit ? `${escaped}...` : escaped;
}

/** `METHOD target` as a log line shows it: escaped, and cut short after 120 characters of target. */
export function describeRequest(method: string | undefined, target: string | undefined): string {
  return `${printable(method || '(no method)', SHOWN_METHOD_LENGTH)} ${target ? printable(target, SHOWN_TARGET_LENGTH) : '(no target)'}`;
}

/** Method and target of a request line, from the raw bytes node:http could not parse. */
export function describeRawRequest(raw: Buffer | undefined): string {
  const requestLine = raw?.subarray(0, SHOWN_TARGET_LENGTH + 64).toString('latin1').split(/\r?\n/)[0] ?? '';
  const [method, ...rest] = requestLine.split(' ');
  const target = rest.join(' ').replace(/ HTTP\/[^ ]*$/, '');
  return describeRequest(method, target);
}
