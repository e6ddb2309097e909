// The `templates.*` requests of the contract, over the TemplateService. Arguments arrive validated.

import type { TemplateService } from '../services/templates/template-service.ts';
import type { Handlers } from './handlers.ts';

type TemplateHandlers = Pick<Handlers, Extract<keyof Handlers, `templates.${string}`>>;

export function createTemplateHandlers(templates: TemplateService): TemplateHandlers {
  return {
    'templates.list': () => templates.list(),
    'templates.deployments': () => templates.deployments(),
    'templates.deploy': ({ hostId, templateId, variant, knobs, port }) => templates.deploy(hostId, templateId, { variant, knobs, port }),
    'templates.stop': ({ hostId }) => templates.stop(hostId),
    'templates.cancel': ({ hostId }) => templates.cancel(hostId),
    'templates.install': ({ hostId, runtime }) => templates.install(hostId, runtime),
  };
}
