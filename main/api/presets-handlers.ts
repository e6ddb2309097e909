// The `presets.*` requests: the catalog (built-in and user presets), plan, apply, revert, and the
// journal's hosts with changes pending revert, over the preset catalog and the PresetService.

import type { presetRequests } from '../../app/presets/presets-contract.ts';
import type { Services } from '../services/services.ts';
import type { HandlersFor } from './handler-kit.ts';

export function createPresetHandlers({ presetCatalog, presets }: Pick<Services, 'presetCatalog' | 'presets'>): HandlersFor<typeof presetRequests> {
  return {
    'presets.list': () => presetCatalog.list(),
    'presets.save': ({ id, basedOn, definition }) => presets.save(definition, { id, basedOn }),
    'presets.remove': ({ id }) => ({ removed: presets.remove(id) }),
    'presets.plan': ({ presetId, hostId }) => presets.plan(presetId, hostId),
    'presets.apply': ({ presetId, hostId, planId }) => presets.apply(presetId, hostId, planId),
    'presets.revert': ({ hostId }) => presets.revert(hostId),
    'presets.pending': () => presets.pending(),
  };
}
