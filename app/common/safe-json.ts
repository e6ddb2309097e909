// Parsing of untrusted JSON from a transport: size cap, nesting cap and refusal of
// prototype-polluting keys.

import { ApiError } from './errors.ts';

/** Largest request or event payload accepted from a transport, in bytes of UTF-8 JSON. */
export const MAX_PAYLOAD_BYTES = 1024 * 1024;

/** Keys that would reach an object's prototype: refused in anything parsed from outside. */
export const FORBIDDEN_KEYS: ReadonlySet<string> = new Set(['__proto__', 'constructor', 'prototype']);

function isLowSurrogate(code: number): boolean {
  return code >= 0xdc00 && code <= 0xdfff;
}

/** UTF-8 byte length without TextEncoder (the pure core has no DOM or Node types). */
export function utf8ByteLength(text: string): number {
  let bytes = 0;
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (code < 0x80) bytes += 1;
    else if (code < 0x800) bytes += 2;
    else if (code >= 0xd800 && code <= 0xdbff && isLowSurrogate(text.charCodeAt(i + 1))) {
      bytes += 4;
      i++;
    } else bytes += 3;
  }
  return bytes;
}

/** Levels of arrays and objects accepted; Benchlab's own payloads nest fewer than 15. */
export const MAX_JSON_DEPTH = 100;

/** How deep `[` and `{` nest in JSON text (outside strings), counting stopped just past `limit`. */
export function nestingDepth(text: string, limit = Number.POSITIVE_INFINITY): number {
  let depth = 0;
  let deepest = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const char = text.charCodeAt(i);
    if (inString) {
      if (char === 0x5c) i++; // a backslash escapes the next character
      else if (char === 0x22) inString = false;
    } else if (char === 0x22) inString = true;
    else if (char === 0x5b || char === 0x7b) {
      depth++;
      if (depth > deepest) deepest = depth;
      if (deepest > limit) return deepest;
    } else if (char === 0x5d || char === 0x7d) depth--;
  }
  return deepest;
}

/**
 * Parses JSON text from outside the process. Throws ApiError('too_large') above the cap and
 * ApiError('invalid_args') for malformed JSON, nesting deeper than MAX_JSON_DEPTH, or any `__proto__`/`constructor`/`prototype` key.
 */
export function parseUntrustedJson(text: string, maxBytes = MAX_PAYLOAD_BYTES): unknown {
  // Cheap upper bound first: a UTF-8 char is at most 3 bytes per UTF-16 unit.
  if (text.length > maxBytes || (text.length * 3 > maxBytes && utf8ByteLength(text) > maxBytes)) {
    throw new ApiError('too_large', `payload is larger than ${maxBytes} bytes`);
  }
  // The reviver recurses once per level: thousands of levels overflow the stack, so they are counted first.
  if (nestingDepth(text, MAX_JSON_DEPTH) > MAX_JSON_DEPTH) {
    throw new ApiError('invalid_args', `payload is nested too deep: more than ${MAX_JSON_DEPTH} levels of [ ] or { }`);
  }
  let value: unknown;
  try {
    value = JSON.parse(text, (key, val: unknown) => {
      if (FORBIDDEN_KEYS.has(key)) throw new ForbiddenKeyError(key);
      return val;
    });
  } catch (error) {
    if (error instanceof ForbiddenKeyError) {
      throw new ApiError('invalid_args', `forbidden key "${error.key}" in payload`);
    }
    throw new ApiError('invalid_args', 'payload is not valid JSON');
  }
  return value;
}

class ForbiddenKeyError extends Error {
  readonly key: string;
  constructor(key: string) {
    super(key);
    this.key = key;
  }
}
