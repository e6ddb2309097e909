// The lab's network: a bridge in the root namespace and, per host, a named network namespace joined
// to it by a veth pair; the checks that the lab's subnet is free and whether a link is there and up.

import { existsSync, readFileSync, statSync } from 'node:fs';
import type { LabLayout } from './layout.ts';
import { tool } from './lab-tools.ts';
import { run } from './system.ts';

export function linkExists(name: string): boolean {
  return existsSync(`/sys/class/net/${name}`);
}

const IFF_UP = 0x1;

export function linkIsUp(name: string): boolean {
  try {
    return (Number.parseInt(readFileSync(`/sys/class/net/${name}/flags`, 'utf8').trim(), 16) & IFF_UP) !== 0;
  } catch {
    return false;
  }
}

export function namespacePath(namespace: string): string {
  return `/run/netns/${namespace}`;
}

/** The `net:[inode]` identity of a named namespace, as /proc/<pid>/ns/net shows it. */
export function namespaceIdentity(namespace: string): string | null {
  try {
    return `net:[${statSync(namespacePath(namespace)).ino}]`;
  } catch {
    return null;
  }
}

/** Refuses to build over an address range something else on the machine already uses. */
export async function assertSubnetFree(layout: LabLayout): Promise<void> {
  const routes = (await run(tool('ip'), ['-4', 'route', 'show', 'root', layout.subnet])).stdout.trim();
  if (routes) throw new Error(`the lab's subnet ${layout.subnet} is already routed on this machine:\n${routes}`);
  const net = layout.subnet.split('.').slice(0, 3).join('.');
  const addresses = JSON.parse((await run(tool('ip'), ['-j', '-4', 'addr', 'show'])).stdout || '[]') as Array<{
    ifname: string;
    addr_info?: Array<{ local?: string }>;
  }>;
  for (const link of addresses) {
    const clash = link.addr_info?.find((info) => info.local?.startsWith(`${net}.`));
    if (clash) throw new Error(`the lab's subnet ${layout.subnet} is in use: ${link.ifname} has ${clash.local}`);
  }
}

export async function buildNetwork(layout: LabLayout): Promise<void> {
  const ip = tool('ip');
  await run(ip, ['link', 'add', layout.bridge, 'type', 'bridge']);
  await run(ip, ['addr', 'add', `${layout.bridgeAddress}/${layout.prefixLength}`, 'dev', layout.bridge]);
  await run(ip, ['link', 'set', layout.bridge, 'up']);
  for (const host of layout.all) {
    await run(ip, ['netns', 'add', host.namespace]);
    await run(ip, ['link', 'add', host.vethRoot, 'type', 'veth', 'peer', 'name', host.vethInside, 'netns', host.namespace]);
    await run(ip, ['link', 'set', host.vethRoot, 'master', layout.bridge]);
    await run(ip, ['link', 'set', host.vethRoot, 'up']);
    await run(ip, ['-n', host.namespace, 'link', 'set', 'lo', 'up']);
    await run(ip, ['-n', host.namespace, 'addr', 'add', `${host.address}/${layout.prefixLength}`, 'dev', host.vethInside]);
    await run(ip, ['-n', host.namespace, 'link', 'set', host.vethInside, 'up']);
  }
}
