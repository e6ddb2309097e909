// Parsing of untrusted JSON from a transport: size cap and refusal of prototype-polluting keys.

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

/**
 * Parses JSON text from outside the process. Throws ApiError('too_large') above the cap and
 * ApiError('invalid_args') for malformed JSON or any `__proto__`/`constructor`/`prototype` key.
 */
export function parseUntrustedJson(text: string, maxBytes = MAX_PAYLOAD_BYTES): unknown {
  // Cheap upper bound first: a UTF-8 char is at most 3 bytes per UTF-16 unit.
  if (text.length > maxBytes || (text.length * 3 > maxBytes && utf8ByteLength(text) > maxBytes)) {
    throw new ApiError('too_large', `payload is larger than ${maxBytes} bytes`);
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
