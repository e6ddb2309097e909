// The one way a schema's complaint is put in words, for every caller (the contract's refusals, a
// template's manifest, a preset's fields, the agent's lines): `field.path: message`, unknown keys
// named, and zod's "expected string, received undefined" for a field left out said as "is required".

import type { z } from 'zod';

/** One issue as `field.path: message` (no path: the message alone). */
export function describeIssue(issue: z.core.$ZodIssue): string {
  const field = issue.path.map(String).join('.');
  if (issue.code === 'unrecognized_keys') return `${field ? `${field}: ` : ''}unknown field${issue.keys.length > 1 ? 's' : ''} ${issue.keys.map((key) => `"${key}"`).join(', ')}`;
  return field ? `${field}: ${issueMessage(issue)}` : issueMessage(issue);
}

/** The issue's message without its path; a field left out "is required". */
export function issueMessage(issue: z.core.$ZodIssue): string {
  if (issue.code === 'unrecognized_keys') return `unknown field${issue.keys.length > 1 ? 's' : ''} ${issue.keys.map((key) => `"${key}"`).join(', ')}`;
  return issue.code === 'invalid_type' && /received undefined$/.test(issue.message) ? 'is required' : issue.message;
}

/** The first few issues (three: a long list hides the first), `; `-separated. */
export function describeZodError(error: z.ZodError, max = 3): string {
  return error.issues.slice(0, max).map(describeIssue).join('; ');
}
