// A failed request's kind read from the words of a tool's error message (oha, vegeta, bombardier
// and Gatling report errors as text): timeout, refused, reset, closed, else other.

import type { ErrorKind } from '../../runs/run-summary-schema.ts';

export function errorKindOfMessage(message: string): ErrorKind {
  const text = message.toLowerCase();
  if (text.includes('timed out') || text.includes('timeout')) return 'timeout';
  if (text.includes('refused')) return 'refused';
  if (text.includes('reset')) return 'reset';
  if (text.includes('closed') || text.includes('eof') || text.includes('incomplete')) return 'closed';
  return 'other';
}
