// The `presets.*` requests: the catalog (built-in and user presets), plan, apply, revert, and the
// journal's hosts with changes pending revert.

import type { Services } from '../services/services.ts';
import type { Handlers } from './handlers.ts';

type PresetHandlers = Pick<Handlers, Extract<keyof Handlers, `presets.${string}`>>;

export function createPresetHandlers(services: Services): PresetHandlers {
  const { presetCatalog, presets, log } = services;
  return {
    'presets.list': () => presetCatalog.list(),
    'presets.save': ({ id, basedOn, definition }) => {
      const saved = presetCatalog.save(definition, { id, basedOn });
      log.info('presets', `${id ? 'updated' : 'created'} preset "${saved.name}"`);
      return saved;
    },
    'presets.remove': ({ id }) => {
      const name = presetCatalog.get(id).name;
      const removed = presetCatalog.remove(id);
      if (removed) log.info('presets', `removed preset "${name}"`);
      return { removed };
    },
    'presets.plan': ({ presetId, hostId }) => presets.plan(presetId, hostId),
    'presets.apply': ({ presetId, hostId, planId }) => presets.apply(presetId, hostId, planId),
    'presets.revert': ({ hostId }) => presets.revert(hostId),
    'presets.pending': () => presets.pending(),
  };
}
