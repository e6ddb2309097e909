// Noise findings and host facts in words, apart from the React component (tested without a DOM):
// which host a finding is about (with several clients, which client by name) and which hosts a
// check read.

import type { NoiseFinding, SessionHostFacts } from '../../../../app/hosts/host-facts.ts';

/** The badge of a finding: its role, with the host's name when the finding carries it. */
export function findingHostLabel(finding: Pick<NoiseFinding, 'host' | 'hostName'>): string {
  if (finding.host === 'both') return 'both hosts';
  return finding.hostName === undefined ? finding.host : `${finding.host} ${finding.hostName}`;
}

/** The hosts a check read, by role and name: "client a, client b, server s". */
export function checkedHostsText(facts: Pick<SessionHostFacts, 'clients' | 'server'>): string {
  return [...facts.clients, ...(facts.server ? [facts.server] : [])].map((host) => `${host.role} ${host.hostName}`).join(', ');
}
