// Several named requests per plan (a study's endpoints): each is a request of the load profile with
// a name, and may bring its own load (a seed that ran its endpoints with different counts or think
// times). A plan runs every request against every template; each (template, request) pair is its
// own session, since a session is one profile and its runs are that profile's sweep steps. A plan
// without named requests runs its profile's one request, unnamed, as before. Pure.

import { z } from 'zod';
import { LoadProfile, RequestSpec, StepLoad } from '../runs/load-profile.ts';

/** Named requests one plan holds at most: each multiplies the plan's sessions. */
export const MAX_PLAN_REQUESTS = 8;

/** A request's name: what Compare's rows, the CLI and the session names call the endpoint. */
export const RequestName = z
  .string({ error: 'is required' })
  .trim()
  .min(1, 'is required')
  .max(40, 'must be at most 40 characters')
  .regex(/^[^\s,][^,\n\r\t]*$/, 'must be one line without commas');

/** One named request: the request's fields, its name, and optionally a load of its own (the profile's otherwise). */
export const NamedRequest = RequestSpec.extend({ name: RequestName, load: StepLoad.optional() }).strict();
export type NamedRequest = z.output<typeof NamedRequest>;
export type NamedRequestInput = z.input<typeof NamedRequest>;

export const PlanRequests = z
  .array(NamedRequest)
  .min(1, 'needs at least one request')
  .max(MAX_PLAN_REQUESTS, `holds at most ${MAX_PLAN_REQUESTS} requests`)
  .superRefine((requests, ctx) => {
    requests.forEach((request, index) => {
      if (requests.findIndex((other) => other.name.toLowerCase() === request.name.toLowerCase()) < index) {
        ctx.addIssue({ code: 'custom', path: [index, 'name'], message: `names "${request.name}" again: each request once` });
      }
    });
  });

/** One request of a plan as it runs: its name (null for a plan's single unnamed request) and the profile it runs with. */
export interface PlannedRequest {
  name: string | null;
  profile: LoadProfile;
}

/** A named request without its name and load: the RequestSpec a profile holds. */
export function requestSpecOf(named: NamedRequest): RequestSpec {
  const { name: _name, load: _load, ...request } = named;
  return request;
}

/** The profile one named request runs with: the plan's profile with its request (and its own load, if it has one). */
export function profileForRequest(profile: LoadProfile, named: NamedRequest): LoadProfile {
  return { ...profile, request: requestSpecOf(named), ...(named.load ? { load: named.load } : {}) };
}

/**
 * A named request's problems with the profile it runs with: its own fields' (`request`, paths
 * below the request, such as a timeout its load cannot take) and, when it brings its own load, the
 * profile's fields that load breaks (`load`, such as a sweep value). `error` words the messages.
 */
export function namedRequestIssues(
  profile: LoadProfile,
  named: NamedRequest,
  error?: (issue: z.core.$ZodRawIssue) => string | undefined,
): { request: z.core.$ZodIssue[]; load: z.core.$ZodIssue[] } {
  const checked = LoadProfile.safeParse(profileForRequest(profile, named), error ? { error } : undefined);
  const issues = checked.success ? [] : checked.error.issues;
  return {
    request: issues.filter((issue) => issue.path[0] === 'request').map((issue) => ({ ...issue, path: issue.path.slice(1) })),
    load: named.load ? issues.filter((issue) => issue.path[0] !== 'request') : [],
  };
}

/** Every request the plan runs for each template, in order: its named requests, or the profile's one request. */
export function plannedRequests(spec: { profile: LoadProfile; requests?: readonly NamedRequest[] | undefined }): PlannedRequest[] {
  if (!spec.requests || spec.requests.length === 0) return [{ name: null, profile: spec.profile }];
  return spec.requests.map((named) => ({ name: named.name, profile: profileForRequest(spec.profile, named) }));
}

/** The requests in a line: `json (GET /json), fib (GET /fib?n=30)`. */
export function describeRequests(requests: readonly NamedRequest[]): string {
  return requests.map((request) => `${request.name} (${request.method} ${request.path})`).join(', ');
}
