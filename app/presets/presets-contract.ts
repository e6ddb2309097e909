// The presets part of the contract (merged into app/contract.ts): list and edit presets, plan
// one against a host, apply it after confirmation, revert, and the journal's pending reverts.

import { z } from 'zod';
import { NoArgs, request } from '../common/contract-kit.ts';
import { HostId } from '../hosts/hosts.ts';
import { PresetPlan } from './preset-plan.ts';
import { KeyVerdict } from './preset-verify.ts';
import { Preset, PresetDefinition, PresetId } from './presets.ts';

export const ApplyResult = z.object({
  hostId: z.number(),
  presetId: z.string(),
  outcome: z.enum(['applied', 'no changes']),
  /** The journal row of this apply; null when nothing changed. */
  changeId: z.number().nullable(),
  plan: PresetPlan,
  verdicts: z.array(KeyVerdict),
  notes: z.array(z.string()),
});
export type ApplyResult = z.infer<typeof ApplyResult>;

export const RevertResult = z.object({
  hostId: z.number(),
  outcome: z.enum(['reverted', 'nothing to revert', 'incomplete']),
  sysctls: z.array(
    z.object({
      key: z.string(),
      original: z.string(),
      observed: z.string().nullable(),
      status: z.enum(['restored', 'not restored']),
      reason: z.string().nullable(),
    }),
  ),
  files: z.array(z.object({ path: z.string(), action: z.enum(['write', 'remove', 'unchanged']), restored: z.boolean() })),
  /** The shaped interface's root qdisc: as it was before Benchlab, and as tc shows it after the revert. */
  network: z
    .object({ interface: z.string(), original: z.string(), observed: z.string(), status: z.enum(['restored', 'not restored']), reason: z.string().nullable() })
    .nullable()
    .default(null),
  notes: z.array(z.string()),
});
export type RevertResult = z.infer<typeof RevertResult>;

/** A host whose journal holds changes not reverted yet. */
export const PendingRevert = z.object({
  hostId: z.number(),
  hostName: z.string(),
  presets: z.array(z.string()),
  /** "interrupted": an apply never finished (Benchlab died or lost the host mid-way). */
  state: z.enum(['applied', 'interrupted']),
  since: z.string(),
});
export type PendingRevert = z.infer<typeof PendingRevert>;

export const PRESET_OPERATIONS = ['apply', 'revert'] as const;

export const PresetProgress = z.object({
  hostId: z.number(),
  operation: z.enum(PRESET_OPERATIONS),
  step: z.string(),
  message: z.string(),
  at: z.string(),
});
export type PresetProgress = z.infer<typeof PresetProgress>;

export const presetRequests = {
  'presets.list': request(NoArgs, z.array(Preset)),
  /** Creates a user preset (no id) or updates one; built-in presets are read-only. */
  'presets.save': request(
    z.object({ id: PresetId.optional(), basedOn: PresetId.nullable().optional(), definition: PresetDefinition }).strict(),
    Preset,
  ),
  'presets.remove': request(z.object({ id: PresetId }).strict(), z.object({ removed: z.boolean() })),
  'presets.plan': request(z.object({ presetId: PresetId, hostId: HostId }).strict(), PresetPlan),
  /** Applies what the plan `planId` showed; refused when the host or preset changed since. */
  'presets.apply': request(
    z.object({ presetId: PresetId, hostId: HostId, planId: z.string().regex(/^[0-9a-f]{16}$/, 'must be the planId of a plan') }).strict(),
    ApplyResult,
  ),
  'presets.revert': request(z.object({ hostId: HostId }).strict(), RevertResult),
  'presets.pending': request(NoArgs, z.array(PendingRevert)),
} as const;

export const presetEvents = {
  'presets.progress': PresetProgress,
} as const;
