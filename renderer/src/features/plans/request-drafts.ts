// The wizard's named requests as typed: each row's name, method and path, plus whatever else a study
// or plan file gave it (its own timeout, headers, load), kept untouched. A row added in the wizard
// takes the profile's other request fields (headers, body, timeout, HTTP version). An empty list is
// the profile's one request, as before. Pure.

import { HTTP_METHODS, type LoadProfileInput } from '../../../../app/runs/load-profile.ts';
import { PlanRequests, type NamedRequest, type NamedRequestInput } from '../../../../app/plans/plan-requests.ts';

export interface RequestDraft {
  name: string;
  method: (typeof HTTP_METHODS)[number];
  path: string;
  /** The fields a study or file gave it beyond name, method and path. */
  extra?: Record<string, unknown>;
}

/** The named requests of a study's or file's profile as rows. */
export function draftsOfRequests(requests: readonly NamedRequest[] | undefined): RequestDraft[] {
  return (requests ?? []).map((named) => {
    const { name, method, path, ...extra } = named;
    return { name, method, path, extra };
  });
}

/** A new row: named after the next free "request N", sending what the profile sends. */
export function newRequestDraft(existing: readonly RequestDraft[], profile: { method: RequestDraft['method']; path: string }): RequestDraft {
  let n = existing.length + 1;
  while (existing.some((row) => row.name.trim().toLowerCase() === `request ${n}`)) n++;
  return { name: `request ${n}`, method: profile.method, path: profile.path };
}

/** The rows as the plan's named requests: each row's fields over the profile request's (headers, body, timeout). */
export function namedRequestsOf(rows: readonly RequestDraft[], profile: Pick<LoadProfileInput, 'request'>): NamedRequestInput[] {
  const { method: _method, path: _path, ...inherited } = profile.request;
  return rows.map((row) => ({ ...inherited, ...(row.extra ?? {}), name: row.name.trim(), method: row.method, path: row.path.trim() }) as NamedRequestInput);
}

/** Field → message for the rows (`request-0-name`, `request-1-path`, `requests`); empty when they are fine. */
export function requestDraftErrors(rows: readonly RequestDraft[], profile: Pick<LoadProfileInput, 'request'>): Record<string, string> {
  if (rows.length === 0) return {};
  const parsed = PlanRequests.safeParse(namedRequestsOf(rows, profile));
  const errors: Record<string, string> = {};
  for (const issue of parsed.success ? [] : parsed.error.issues) {
    const [index, field] = issue.path;
    const key = typeof index === 'number' ? `request-${index}-${field === 'name' || field === 'method' ? field : 'path'}` : 'requests';
    errors[key] ??= typeof index === 'number' && field !== 'name' && field !== 'path' && field !== 'method' ? `${issue.path.slice(1).join('.')}: ${issue.message}` : issue.message;
  }
  return errors;
}

/** A saved row back, when it has the right shape. */
export function restoreRequestDrafts(saved: unknown): RequestDraft[] {
  if (!Array.isArray(saved)) return [];
  return saved.flatMap((row: unknown) => {
    const value = row as Partial<RequestDraft> | null;
    if (!value || typeof value.name !== 'string' || typeof value.path !== 'string' || !HTTP_METHODS.includes(value.method as RequestDraft['method'])) return [];
    const extra = value.extra && typeof value.extra === 'object' && !Array.isArray(value.extra) ? { extra: value.extra } : {};
    return [{ name: value.name, method: value.method as RequestDraft['method'], path: value.path, ...extra }];
  });
}

