import assert from 'node:assert/strict';
import { test } from 'node:test';
import { filterChoices, filterLibrary, parseTags, Tags, type LibraryEntry } from './session-library.ts';

function entry(id: number, overrides: Partial<LibraryEntry>): LibraryEntry {
  return {
    id,
    name: `s${id}`,
    status: 'completed',
    tags: [],
    clientHostId: 1,
    serverHostId: 2,
    runCount: 1,
    createdAt: '2026-03-10T12:00:00.000Z',
    startedAt: null,
    endedAt: null,
    notes: '',
    templates: ['node'],
    clientHost: 'client',
    serverHost: 'server',
    headline: null,
    originSessionId: null,
    ...overrides,
  };
}

const entries = [
  entry(1, { name: 'Tomcat NIO', templates: ['tomcat'], tags: ['jvm'], createdAt: '2026-03-01T10:00:00.000Z' }),
  entry(2, { name: 'Node hello', notes: 'after the kernel update', serverHost: 'other' }),
  entry(3, { name: 'Vert.x', templates: ['vertx'], tags: ['jvm', 'sweep'], createdAt: '2026-03-20T23:59:00.000Z' }),
];

test('filters by text (name, notes, tags), template, host, tag and date range', () => {
  const ids = (filter: Parameters<typeof filterLibrary>[1]) => filterLibrary(entries, filter).map((e) => e.id);
  assert.deepEqual(ids({}), [1, 2, 3]);
  assert.deepEqual(ids({ text: 'KERNEL' }), [2]);
  assert.deepEqual(ids({ text: 'swe' }), [3]);
  assert.deepEqual(ids({ template: 'tomcat' }), [1]);
  assert.deepEqual(ids({ host: 'other' }), [2]);
  assert.deepEqual(ids({ tag: 'jvm' }), [1, 3]);
  assert.deepEqual(ids({ from: '2026-03-10' }), [2, 3]);
  assert.deepEqual(ids({ from: '2026-03-01', to: '2026-03-10' }), [1, 2]);
  assert.deepEqual(ids({ tag: 'jvm', to: '2026-03-19' }), [1]);
});

test('choices and tags', () => {
  assert.deepEqual(filterChoices(entries), { templates: ['node', 'tomcat', 'vertx'], hosts: ['client', 'other', 'server'], tags: ['jvm', 'sweep'] });
  assert.deepEqual(parseTags(' a, b ,, a '), ['a', 'b']);
  assert.equal(Tags.safeParse(['x\ny']).success, false);
  assert.deepEqual(Tags.parse(['a', 'a']), ['a']);
});
