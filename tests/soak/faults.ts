// The soak's faults in the order they run, each with the module that injects it once and measures
// it. The link outages and Benchlab's pauses are set against the limits they test: the agent stops
// its load after HEARTBEAT_TIMEOUT_MS of silence (at once on its stdin's end: a killed Benchlab),
// and Benchlab's SSH keepalive declares a link dead after keepaliveCountMax missed probes
// keepaliveIntervalMs apart (main/services/hosts/ssh-transport.ts).

import { HEARTBEAT_TIMEOUT_MS } from '../../app/runs/agent-protocol.ts';
import type { FaultFigures } from './figures.ts';
import { inject as killBackend } from './kill-backend.ts';
import { inject as killPresetApply } from './kill-preset-apply.ts';
import { inject as killServer } from './kill-server.ts';
import { inject as fullDisk } from './full-disk.ts';
import { inject as linkDown } from './link-down.ts';
import { inject as pauseBackend } from './pause-backend.ts';
import type { Random } from './seeded-random.ts';
import type { SoakLab } from './soak-lab.ts';

const KEEPALIVE_GIVES_UP_MS = 5000 * 3;

/** Longer than the agent's heartbeat limit. */
export const SHORT_OUTAGE_MS = HEARTBEAT_TIMEOUT_MS + 1500;
/** A Benchlab stopped this long must cost nothing: well inside the agent's heartbeat limit. */
export const SHORT_PAUSE_MS = 10_000;
/** Stopped past the agent's heartbeat limit: the load stops, and the run says Benchlab was silent. */
export const LONG_PAUSE_MS = HEARTBEAT_TIMEOUT_MS + 5000;
/** Longer than SSH keepalive takes to give up on the link, with one probe interval to spare. */
export const LONG_OUTAGE_MS = KEEPALIVE_GIVES_UP_MS + 5000 + 2000;

export interface Fault {
  id: string;
  title: string;
  inject(lab: SoakLab, random: Random, repeat: number): Promise<FaultFigures>;
}

export const FAULTS: readonly Fault[] = [
  { id: 'kill-backend', title: 'kill -9 of the back end mid-run', inject: killBackend },
  { id: 'kill-preset-apply', title: 'kill -9 during a preset apply, then revert on the next start', inject: killPresetApply },
  { id: 'pause-backend', title: `the back end stopped (SIGSTOP) mid-run for ${SHORT_PAUSE_MS / 1000} s, then continued`, inject: (lab, random, repeat) => pauseBackend(lab, random, repeat, SHORT_PAUSE_MS, 20) },
  {
    id: 'pause-backend-long',
    title: `the back end stopped (SIGSTOP) mid-run for ${LONG_PAUSE_MS / 1000} s (past the agent's heartbeat limit), then continued`,
    inject: (lab, random, repeat) => pauseBackend(lab, random, repeat, LONG_PAUSE_MS, 60),
  },
  { id: 'link-short', title: `client link down mid-run for ${SHORT_OUTAGE_MS / 1000} s (past the agent's heartbeat limit)`, inject: (lab, random, repeat) => linkDown(lab, random, repeat, SHORT_OUTAGE_MS) },
  { id: 'link-long', title: `client link down mid-run for ${LONG_OUTAGE_MS / 1000} s (longer than SSH keepalive)`, inject: (lab, random, repeat) => linkDown(lab, random, repeat, LONG_OUTAGE_MS) },
  { id: 'kill-server', title: 'the server process killed (-9) mid-run', inject: killServer },
  { id: 'full-disk', title: 'the data dir full (a 4 MiB tmpfs filled) mid-run', inject: fullDisk },
];
