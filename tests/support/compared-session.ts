// A session as Compare's builder takes it (app/sessions/comparison.ts), for the tests of the
// comparison: the fields a test does not vary filled once (completed on 2026-01-01, no notes or
// tags, hosts named client and server, no system info read), the rest given.

import type { ComparedRunInput, ComparedSessionInput } from '../../app/sessions/comparison.ts';

export function comparedSession(id: number, runs: ComparedRunInput[], overrides: Partial<ComparedSessionInput> = {}): ComparedSessionInput {
  return {
    id,
    name: `session ${id}`,
    status: 'completed',
    createdAt: '2026-01-01T00:00:00.000Z',
    startedAt: '2026-01-01T00:00:00.000Z',
    notes: '',
    tags: [],
    config: {},
    clientHost: 'client',
    serverHost: 'server',
    systems: { client: null, server: null },
    runs,
    ...overrides,
  };
}
