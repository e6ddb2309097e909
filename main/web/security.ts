// Web mode's gatekeeping, kept apart from serving: Host allowlist, Origin check for WebSocket
// upgrades, reading and setting the session cookie, and the security headers every response carries.
// Which tokens and cookies are valid is web-logins.ts's business.

import { randomBytes } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { SESSION_COOKIE } from '../../app/common/wire.ts';

/** The one Content-Security-Policy, shared with the Electron window. */
export const CONTENT_SECURITY_POLICY = "default-src 'self'; object-src 'none'; base-uri 'none'; frame-ancestors 'none'";

export function newSecret(): string {
  return randomBytes(32).toString('hex'); // 256 bits
}

export function allowedHosts(port: number): Set<string> {
  return new Set([`127.0.0.1:${port}`, `localhost:${port}`]);
}

/**
 * Whether the Host header may be served: 400 when it is missing or sent more than once (node:http
 * keeps the first of several, so `127.0.0.1:P` then `evil.example` would pass on the first alone),
 * 403 when it is not one of `hosts`.
 */
export function hostHeaderRefusal(request: IncomingMessage, hosts: ReadonlySet<string>): { status: 400 | 403; reason: string } | null {
  const values = request.headersDistinct.host ?? [];
  if (values.length > 1) return { status: 400, reason: 'more than one Host header' };
  if (values.length === 0) return { status: 400, reason: 'no Host header' };
  return hosts.has(values[0]!) ? null : { status: 403, reason: 'unexpected Host header' };
}

export function allowedOrigins(port: number): Set<string> {
  return new Set([`http://127.0.0.1:${port}`, `http://localhost:${port}`]);
}

export function readCookie(request: IncomingMessage, name: string): string | undefined {
  const header = request.headers.cookie;
  if (!header) return undefined;
  for (const part of header.split(';')) {
    const separator = part.indexOf('=');
    if (separator < 0) continue;
    if (part.slice(0, separator).trim() === name) return part.slice(separator + 1).trim();
  }
  return undefined;
}

/** A persistent cookie (Max-Age): closing the browser does not sign out; the server honours it as long. */
export function sessionCookieHeader(secret: string, maxAgeS: number): string {
  return `${SESSION_COOKIE}=${secret}; HttpOnly; SameSite=Strict; Path=/; Max-Age=${Math.floor(maxAgeS)}`;
}

export function setSecurityHeaders(response: ServerResponse): void {
  response.setHeader('Content-Security-Policy', CONTENT_SECURITY_POLICY);
  response.setHeader('X-Content-Type-Options', 'nosniff');
  response.setHeader('X-Frame-Options', 'DENY');
  response.setHeader('Referrer-Policy', 'no-referrer');
  response.setHeader('Cross-Origin-Opener-Policy', 'same-origin');
  response.setHeader('Cross-Origin-Resource-Policy', 'same-origin');
}

export function isJsonContentType(request: IncomingMessage): boolean {
  const type = request.headers['content-type'];
  return typeof type === 'string' && /^application\/json\s*(;|$)/i.test(type);
}
