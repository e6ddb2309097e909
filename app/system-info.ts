// What Benchlab records about a host at connect time and at session start (host_snapshot).

import { z } from 'zod';

export const TRACKED_SYSCTLS = [
  'net.ipv4.ip_local_port_range',
  'net.ipv4.tcp_tw_reuse',
  'net.core.somaxconn',
  'net.ipv4.tcp_max_syn_backlog',
  'net.core.netdev_max_backlog',
  'net.ipv4.tcp_fin_timeout',
  'fs.file-max',
  'fs.nr_open',
] as const;

const Limit = z.object({ soft: z.string(), hard: z.string() });

export const SystemInfo = z.object({
  hostname: z.string(),
  distro: z.string(),
  kernel: z.string(),
  arch: z.string(),
  cpuModel: z.string(),
  cpuCores: z.number().int(),
  memoryBytes: z.number(),
  limits: z.object({ nofile: Limit, nproc: Limit }),
  /** Every TRACKED_SYSCTLS key; null when the kernel does not have it. */
  sysctls: z.record(z.string(), z.string().nullable()),
  /** Version strings of runtimes found on PATH, null when absent. */
  runtimes: z.object({ node: z.string().nullable(), java: z.string().nullable(), apache: z.string().nullable() }),
  takenAt: z.string(),
});
export type SystemInfo = z.infer<typeof SystemInfo>;

export const Reachability = z.object({
  from: z.number(),
  to: z.number(),
  reachable: z.boolean(),
  /** Median round trip of a few TCP connects to the server's SSH port, in ms. */
  rttMs: z.number().nullable(),
  message: z.string().nullable(),
});
export type Reachability = z.infer<typeof Reachability>;
