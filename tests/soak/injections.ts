// One fault's injections spread over lanes, each lane a lab instance of its own: injection i runs on
// lane (i − 1) mod lanes, a lane's injections one after another, the lanes side by side. A fault
// touches only its lane's hosts (their links, their private /etc and /var/lib, their net.*
// sysctls, which are the network namespace's own), so lanes never see each other's faults. Each
// injection draws its moments from a stream of its own (the fault and its number), so a seed gives
// the same moments whatever the number of lanes.

import type { LabInstance } from '../lab/layout.ts';
import type { Fault } from './faults.ts';
import type { FaultFigures } from './figures.ts';
import { seededRandom } from './seeded-random.ts';
import type { SoakLab } from './soak-lab.ts';

/** The lab instances the soak's lanes run on, the first being the soak's own. */
export const SOAK_LANES = ['soak', 'soak2', 'soak3'] as const satisfies readonly LabInstance[];

/** Injects `fault` `repeat` times over `labs`; the figures in injection order. */
export async function injectFault(fault: Fault, labs: readonly SoakLab[], seed: number, repeat: number, onFigure?: (figure: FaultFigures) => void): Promise<FaultFigures[]> {
  const figures: FaultFigures[] = [];
  const lanes = labs.map(async (lab, lane) => {
    for (let index = lane + 1; index <= repeat; index += labs.length) {
      const figure = await fault.inject(lab, seededRandom(seed, `${fault.id}#${index}`), index);
      figures.push(figure);
      onFigure?.(figure);
    }
  });
  // Every lane ends (and cleans up) before a failure is told, so no injection outlives the call.
  const failed = (await Promise.allSettled(lanes)).find((lane) => lane.status === 'rejected');
  if (failed) throw failed.reason;
  return figures.sort((a, b) => a.repeat - b.repeat);
}
