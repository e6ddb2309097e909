// Tests of the plan-file resolver: a file becomes the PlanSpec the wizard would build (presets
// planned on their hosts, the placeholder target, labels for the report), a study fills what the
// file leaves out and the file's own fields win, and every problem — unknown study, template,
// variant or knob, a preset that cannot be planned, two presets on one host — comes at once.

import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { ApiError } from '../../../app/common/errors.ts';
import { parsePlanFile, STUDY_TARGET_PLACEHOLDER, type PlanFile } from '../../../app/plans/plan-file.ts';
import type { StudyCatalog } from '../../../app/plans/studies.ts';
import { bundledPaths, loadCatalog } from '../templates/catalog.ts';
import { resolvePlanFile, type PlanFileResolverDeps } from './plan-file-resolver.ts';

const PLAN_IDS: Record<string, string> = { 'wrk-seed@1': '00000000000000a1', 'wrk-seed@2': '00000000000000b2', 'load-client@1': '00000000000000c1' };

function deps(options: { studies?: StudyCatalog } = {}): PlanFileResolverDeps & { planned: string[] } {
  const planned: string[] = [];
  return {
    planned,
    templates: { list: async () => ({ templates: (await loadCatalog(bundledPaths().templatesDir)).entries.map((entry) => entry.manifest), broken: [] }) },
    presets: {
      plan: async (presetId: string, hostId: number) => {
        planned.push(`${presetId}@${hostId}`);
        const planId = PLAN_IDS[`${presetId}@${hostId}`];
        if (!planId) throw new ApiError('not_found', `no preset "${presetId}"`);
        return { planId } as Awaited<ReturnType<PlanFileResolverDeps['presets']['plan']>>;
      },
    },
    studies: async () =>
      options.studies ?? {
        studies: [
          {
            id: 'wrk-connections',
            name: 'wrk seed',
            seed: 'a sweep',
            templates: [{ templateId: 'vertx', variant: 'eventloop', knobs: {} }, { templateId: 'node', variant: 'async', knobs: { workers: 2 } }],
            presets: { client: 'wrk-seed', server: 'wrk-seed' },
            profile: fileOf('version: 1\nname: x\ntemplates: [node:async]\nprofile: { request: { path: /hello }, load: { model: closed, connections: 10, durationS: 3 } }\n').profile!,
            published: null,
          },
        ],
        broken: [],
      },
  };
}

function fileOf(text: string): PlanFile {
  const parsed = parsePlanFile(text);
  assert.ok(parsed.ok, parsed.ok ? '' : JSON.stringify(parsed.problems));
  return parsed.plan;
}

const SMALL_PLAN = `version: 1
name: Node async vs sync
tags: [nightly]
presets: { server: wrk-seed }
templates:
  - node:async
  - template: node
    variant: sync
    knobs: { workers: 2 }
    port: 8081
profile:
  request: { path: /hello }
  load: { model: closed, connections: 10, durationS: 3 }
  warmupS: 1
repeats: 2
`;

describe('resolvePlanFile', () => {
  test('builds the PlanSpec the wizard would: presets planned on their hosts, each deployment giving the address', async () => {
    const resolver = deps();
    const resolved = await resolvePlanFile(resolver, { plan: fileOf(SMALL_PLAN), clientHostId: 1, serverHostId: 2 });
    assert.ok(resolved.ok, resolved.ok ? '' : JSON.stringify(resolved.problems));
    assert.deepEqual(resolver.planned, ['wrk-seed@2']);
    const { spec, targets } = resolved;
    assert.deepEqual(
      { name: spec.name, hosts: [spec.clientHostId, spec.serverHostId], presets: spec.presets, revert: spec.revertPresets, repeats: spec.repeats, tags: spec.tags, studyId: spec.studyId },
      { name: 'Node async vs sync', hosts: [1, 2], presets: { client: null, server: { presetId: 'wrk-seed', planId: '00000000000000b2' } }, revert: true, repeats: 2, tags: ['nightly'], studyId: null },
    );
    assert.deepEqual(spec.targets, [
      { templateId: 'node', variant: 'async', knobs: {} },
      { templateId: 'node', variant: 'sync', knobs: { workers: 2 }, port: 8081 },
    ]);
    assert.equal(spec.profile.target, STUDY_TARGET_PLACEHOLDER);
    assert.equal(spec.profile.load.model, 'closed');
    assert.deepEqual(targets, [
      { templateId: 'node', variant: 'async', knobs: {}, label: 'Node.js (node:http) · async' },
      { templateId: 'node', variant: 'sync', knobs: { workers: 2 }, label: 'Node.js (node:http) · sync' },
    ]);
  });

  test("a study fills the templates, presets and profile the file leaves out; the file's own win", async () => {
    const resolver = deps();
    const plan = fileOf('version: 1\nname: from a study\nstudy: wrk-connections\npresets: { client: null }\n');
    const resolved = await resolvePlanFile(resolver, { plan, clientHostId: 1, serverHostId: 2 });
    assert.ok(resolved.ok, resolved.ok ? '' : JSON.stringify(resolved.problems));
    assert.deepEqual(resolved.spec.targets, [
      { templateId: 'vertx', variant: 'eventloop', knobs: {} },
      { templateId: 'node', variant: 'async', knobs: { workers: 2 } },
    ]);
    assert.deepEqual(resolved.spec.presets, { client: null, server: { presetId: 'wrk-seed', planId: '00000000000000b2' } });
    assert.equal(resolved.spec.profile.load.model, 'closed');
    assert.equal(resolved.spec.studyId, 'wrk-connections');
  });

  test("a study's own file (its study block) runs from its own fields, even when no shipped study has its id", async () => {
    const resolver = deps({ studies: { studies: [], broken: [] } });
    const text = readFileSync(join(import.meta.dirname, '../../../resources/studies/ab-fixed-count.yaml'), 'utf8').replace(/^ {2}id: ab-fixed-count$/m, '  id: my-own-study');
    const plan = fileOf(text);
    assert.equal(plan.study, 'my-own-study');
    const resolved = await resolvePlanFile(resolver, { plan, clientHostId: 1, serverHostId: 2 });
    assert.ok(resolved.ok, resolved.ok ? '' : JSON.stringify(resolved.problems));
    assert.equal(resolved.spec.targets.length, plan.templates!.length);
    assert.equal(resolved.spec.studyId, 'my-own-study');
  });

  test('every problem at once, each with its field', async () => {
    const plan = fileOf(`version: 1
name: broken
study: no-such-study
presets: { client: load-client, server: missing-preset }
templates:
  - nope:async
  - node:turbo
  - template: node
    variant: async
    knobs: { workers: 0, colour: red }
profile:
  request: { path: /hello }
  load: { model: closed, connections: 10, durationS: 3 }
`);
    const resolved = await resolvePlanFile(deps(), { plan, clientHostId: 1, serverHostId: 2 });
    assert.ok(!resolved.ok);
    const byField = resolved.problems.map((entry) => `${entry.field}: ${entry.message}`);
    assert.equal(byField.length, 6, byField.join('\n'));
    assert.match(byField[0]!, /^study: there is no study "no-such-study" \(wrk-connections\)$/);
    // The message names every bundled template, in the catalog's order.
    const bundled = (await loadCatalog(bundledPaths().templatesDir)).entries.map((entry) => entry.manifest.id);
    assert.ok(bundled.includes('node') && bundled.includes('tomcat'));
    assert.equal(byField[1]!, `templates[0].template: there is no template "nope" (${bundled.join(', ')})`);
    assert.match(byField[2]!, /^templates\[1\]\.variant: variant "turbo" is not one of Node\.js .*'s variants \(async, sync\)$/);
    assert.match(byField[3]!, /^templates\[2\]\.knobs\.workers: knob "workers" .*: must be between/);
    assert.match(byField[4]!, /^templates\[2\]\.knobs\.colour: unknown knob "colour"/);
    assert.match(byField[5]!, /^presets\.server: cannot plan preset "missing-preset" on the server host: no preset "missing-preset"$/);
  });

  test('several load clients go into the plan with their weights; one client stays the client host alone', async () => {
    const clients = [{ hostId: 1 }, { hostId: 3, weight: 2 }];
    const several = await resolvePlanFile(deps(), { plan: fileOf(SMALL_PLAN), clientHostId: 1, clients, serverHostId: 2 });
    assert.ok(several.ok, several.ok ? '' : JSON.stringify(several.problems));
    assert.deepEqual([several.spec.clientHostId, several.spec.clients], [1, clients]);
    const one = await resolvePlanFile(deps(), { plan: fileOf(SMALL_PLAN), clientHostId: 1, clients: [{ hostId: 1, weight: 3 }], serverHostId: 2 });
    assert.ok(one.ok);
    assert.equal(one.spec.clients, undefined);
    const twice = await resolvePlanFile(deps(), { plan: fileOf(SMALL_PLAN), clientHostId: 1, clients: [{ hostId: 1 }, { hostId: 1 }], serverHostId: 2 });
    assert.ok(!twice.ok);
    assert.deepEqual(twice.problems.map((entry) => `${entry.field}: ${entry.message}`), ['hosts.clients[1]: names a client host again: each host once']);
  });

  test('with several clients the client preset is planned on each of them, a client it cannot be planned on named', async () => {
    const plan = fileOf(SMALL_PLAN.replace('presets: { server: wrk-seed }', 'presets: { client: wrk-seed, server: null }'));
    const clients = [{ hostId: 1 }, { hostId: 2 }];
    const resolver = deps();
    const resolved = await resolvePlanFile(resolver, { plan, clientHostId: 1, clients, serverHostId: 4 });
    assert.ok(resolved.ok, resolved.ok ? '' : JSON.stringify(resolved.problems));
    assert.deepEqual(resolver.planned, ['wrk-seed@1', 'wrk-seed@2']);
    assert.deepEqual(resolved.spec.presets.client, { presetId: 'wrk-seed', planId: '00000000000000a1', morePlanIds: ['00000000000000b2'] });

    const unplanned = await resolvePlanFile(deps(), { plan, clientHostId: 1, clients: [{ hostId: 1 }, { hostId: 3 }], serverHostId: 4 });
    assert.ok(!unplanned.ok);
    assert.deepEqual(unplanned.problems.map((entry) => `${entry.field}: ${entry.message}`), ['presets.client: cannot plan preset "wrk-seed" on client 2 (hosts.clients[1]): no preset "wrk-seed"']);
  });

  test('one host for both roles takes one preset', async () => {
    const plan = fileOf(SMALL_PLAN.replace('presets: { server: wrk-seed }', 'presets: { client: wrk-seed, server: wrk-seed }'));
    const resolved = await resolvePlanFile(deps(), { plan, clientHostId: 1, serverHostId: 1 });
    assert.ok(!resolved.ok);
    assert.deepEqual(resolved.problems, [{ line: null, column: null, field: 'presets.server', message: 'the client and the server are one host: choose one preset for it' }]);
  });
});
