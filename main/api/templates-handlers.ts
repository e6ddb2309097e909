// The `templates.*` requests of the contract, over the TemplateService. Arguments arrive validated.

import type { templateRequests } from '../../app/templates/templates-contract.ts';
import type { TemplateService } from '../services/templates/template-service.ts';
import type { HandlersFor } from './handler-kit.ts';

export function createTemplateHandlers(templates: TemplateService): HandlersFor<typeof templateRequests> {
  return {
    'templates.list': () => templates.list(),
    'templates.deployments': () => templates.deployments(),
    'templates.deploy': ({ hostId, templateId, variant, knobs, port, replace }) => templates.deploy(hostId, templateId, { variant, knobs, port }, { replace }),
    'templates.occupant': ({ hostId }) => templates.occupant(hostId),
    'templates.stop': ({ hostId, deploymentId }) => templates.stop(hostId, { deploymentId }),
    'templates.cancel': ({ hostId }) => templates.cancel(hostId),
    'templates.install': ({ hostId, runtime }) => templates.install(hostId, runtime),
  };
}
