// A plan file written out: the plan in the file's order with its defaults said, YAML with a note
// above each top-level field (or JSON), short lists on one line; parsePlanFile (plan-file.ts) reads
// it back to the same plan.

import { Document, isMap, isScalar, isSeq, visit } from 'yaml';
import { requestSpecOf } from './plan-requests.ts';
import { PLAN_FILE_VERSION, type PlanFile, type PlanFileTemplate, type StudyProfile } from './plan-file.ts';

/** The hosts as written: a client without a weight by its name alone. */
function fileHosts(hosts: NonNullable<PlanFile['hosts']>): Record<string, unknown> {
  return {
    ...(hosts.client !== undefined ? { client: hosts.client } : {}),
    ...(hosts.clients ? { clients: hosts.clients.map((entry) => (entry.weight === undefined ? entry.host : entry)) } : {}),
    ...(hosts.server !== undefined ? { server: hosts.server } : {}),
  };
}

/** `node:sync` when a template has no knobs or port, else the map. */
function fileTemplate(entry: PlanFileTemplate): PlanFileTemplate | string {
  return Object.keys(entry.knobs).length === 0 && entry.port === undefined ? `${entry.template}:${entry.variant}` : entry;
}

/** The profile as its file writes it under capacity steps: the open load without the stand-in rate. */
function withoutCapacityRate(profile: StudyProfile): StudyProfile {
  if (profile.load.model !== 'open') return profile;
  const { rate: _rate, ...load } = profile.load;
  return { ...profile, load: load as StudyProfile['load'] };
}

/** The profile as written: named requests in the request's place, each without the fields it leaves to the profile. */
function fileProfile(profile: StudyProfile): Record<string, unknown> {
  if (!profile.requests) return profile;
  const { request: _first, requests, ...rest } = profile;
  return { requests: requests.map((named) => ({ name: named.name, ...requestSpecOf(named), ...(named.load ? { load: named.load } : {}) })), ...rest };
}

/** The plan in the file's order, defaults written out (so the file says what will run), empty lists left out. */
function fileObject(plan: PlanFile): Record<string, unknown> {
  return {
    version: plan.version,
    name: plan.name,
    ...(plan.tags.length > 0 ? { tags: plan.tags } : {}),
    ...(plan.study ? { study: plan.studyInfo ? { id: plan.study, ...plan.studyInfo } : plan.study } : {}),
    ...(plan.hosts ? { hosts: fileHosts(plan.hosts) } : {}),
    ...(plan.presets ? { presets: plan.presets } : {}),
    revertPresets: plan.revertPresets,
    ...(plan.templates
      ? {
          templates: plan.templates.map(fileTemplate),
        }
      : {}),
    ...(plan.profile ? { profile: fileProfile(plan.capacity ? withoutCapacityRate(plan.profile) : plan.profile) } : {}),
    ...(plan.capacity ? { capacity: { ...plan.capacity, reference: fileTemplate(plan.capacity.reference) } } : {}),
    ...(plan.engine ? { engine: plan.engine } : {}),
    repeats: plan.repeats,
    ...(plan.thresholds.length > 0 ? { thresholds: plan.thresholds } : {}),
  };
}

/** What each top-level field is, written above it in a saved YAML file. */
const FIELD_NOTES: Readonly<Record<string, string>> = {
  version: ` Benchlab plan file (docs/plan-files.md); this format is version ${PLAN_FILE_VERSION}`,
  name: ' Each session is named "<name> — <template>"',
  tags: ' Tags every session of the plan gets',
  study: ' The shipped study this plan starts from (its templates, presets and profile fill what is left out)',
  hosts: ' A stored host name, user@host[:port], or an ~/.ssh/config alias',
  presets: ' A preset id per host, or null',
  revertPresets: ' Put both hosts back as they were once the last run ends',
  templates: ' template:variant, or a map with template, variant, knobs and port; run one after another',
  profile: ' The load for every template; each deployment gives the address',
  capacity: ' The steps as multiples of a capacity measured first on the reference server (their rates)',
  engine: ' The load engine: auto (native where it can run, else Node), native, or node',
  repeats: ' Runs of each template, interleaved (A B A B …)',
  thresholds: ' Checked by `benchlab run`: metric, comparison, value (p99 < 20ms, errors < 0.1%)',
};

const STUDY_FILE_NOTE = ' This file is a study: its id, its name, and what the benchmark it redoes did';

/** Short lists and maps of plain values on one line, `[10, 100]` and `{ workers: 2 }`; the rest in blocks. */
const FLOW_MAX_CHARS = 72;
/** Lists read one item per line whatever their length: the runs, and the rules a CI log prints. */
const BLOCK_LISTS = new Set(['templates', 'thresholds']);
const LINE_WIDTH = 100;

/** The plan as a file; parsePlanFile reads it back to the same plan. YAML says what each field is. */
export function formatPlanFile(plan: PlanFile, format: 'yaml' | 'json'): string {
  const object = fileObject(plan);
  if (format === 'json') return `${JSON.stringify(object, null, 2)}\n`;
  const document = new Document(object);
  visit(document, {
    Map(_, node) {
      if (node.items.every((pair) => isScalar(pair.value)) && JSON.stringify(node.toJSON()).length <= FLOW_MAX_CHARS) node.flow = true;
    },
    Seq(_, node) {
      if (node.items.every(isScalar) && JSON.stringify(node.toJSON()).length <= FLOW_MAX_CHARS) node.flow = true;
    },
    Scalar(_, node) {
      // Prose (a study's seed) as a folded block, not a quoted string broken across lines.
      if (typeof node.value === 'string' && node.value.length > LINE_WIDTH - 20 && !node.value.includes('\n')) node.type = 'BLOCK_FOLDED';
    },
  });
  if (isMap(document.contents)) {
    for (const [index, pair] of document.contents.items.entries()) {
      if (!isScalar(pair.key)) continue;
      const key = String(pair.key.value);
      pair.key.commentBefore = key === 'study' && plan.studyInfo ? STUDY_FILE_NOTE : FIELD_NOTES[key];
      pair.key.spaceBefore = index > 0;
      if (BLOCK_LISTS.has(key) && isSeq(pair.value)) pair.value.flow = false;
    }
    // The top-level map is never written on one line, however short.
    document.contents.flow = false;
  }
  return document.toString({ lineWidth: LINE_WIDTH, flowCollectionPadding: false });
}
