// Figure: parsing a ~/.ssh/config of 2,000 hosts with wildcard defaults (the Hosts page's import;
// goal: well under 2 s), the same generated config the importer's test checks for correctness.

import { performance } from 'node:perf_hooks';
import { parseSshConfig } from '../app/hosts/ssh-config.ts';

export function benchSshConfigImport(hosts = 2000, rounds = 5): { hosts: number; medianMs: number } {
  const lines: string[] = [];
  for (let i = 0; i < hosts; i++) lines.push(`Host node${i}`, `  HostName 10.0.${Math.floor(i / 250)}.${i % 250}`, `  User u${i}`);
  lines.push('Host node*', '  IdentityFile ~/.ssh/cluster', 'Host *', '  Port 2222');
  const text = lines.join('\n');
  const times: number[] = [];
  for (let round = 0; round < rounds; round++) {
    const started = performance.now();
    parseSshConfig(text, { home: '/home/bench', currentUser: 'bench' });
    times.push(performance.now() - started);
  }
  times.sort((a, b) => a - b);
  return { hosts, medianMs: times[Math.floor(times.length / 2)]! };
}
