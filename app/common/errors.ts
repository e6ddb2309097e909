// The error shape that crosses every transport: a stable code and a human message, never a stack.

export const API_ERROR_CODES = [
  'invalid_args',
  'unknown_request',
  'too_large',
  'not_found',
  'conflict',
  'disconnected',
  'unavailable',
  'unreachable',
  'timeout',
  'auth_failed',
  'password_required',
  'passphrase_required',
  'host_key_unknown',
  'host_key_changed',
  'cancelled',
  'internal',
] as const;

export type ApiErrorCode = (typeof API_ERROR_CODES)[number];

export interface ApiErrorShape {
  code: ApiErrorCode;
  message: string;
  /** Facts the UI acts on, e.g. the host key fingerprint to show for acceptance. */
  details?: Record<string, string>;
}

/** An error the back end means to show the user; anything else is reported as `internal`. */
export class ApiError extends Error {
  readonly code: ApiErrorCode;
  readonly details: Record<string, string> | undefined;
  constructor(code: ApiErrorCode, message: string, details?: Record<string, string>) {
    super(message);
    this.name = 'ApiError';
    this.code = code;
    this.details = details;
  }
  toJSON(): ApiErrorShape {
    return this.details ? { code: this.code, message: this.message, details: this.details } : { code: this.code, message: this.message };
  }
}

export function isApiErrorShape(value: unknown): value is ApiErrorShape {
  if (typeof value !== 'object' || value === null) return false;
  const candidate = value as Record<string, unknown>;
  return (
    typeof candidate.message === 'string' &&
    typeof candidate.code === 'string' &&
    (API_ERROR_CODES as readonly string[]).includes(candidate.code)
  );
}

/**
 * The message of anything thrown: an Error's (or any object's string `message`), else the value as
 * text. Code throws strings and plain objects too, where `(error as Error).message` is undefined.
 */
export function messageOf(error: unknown): string {
  if (typeof error === 'object' && error !== null && typeof (error as { message?: unknown }).message === 'string') return (error as { message: string }).message;
  return String(error);
}
