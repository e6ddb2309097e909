// npm run soak [-- --repeat N] [--lanes L] [--seed S] [--only ID,ID] [--json FILE]: the fault-injection
// soak on the lab (Linux, root). Each fault of tests/soak/faults.ts is injected N times (default 20) at
// seeded random moments, on L lab instances side by side (default 1: the figures of a quiet machine), and one table per fault prints its figures — min / median / max and
// counts — with the machine's load. Figures, not pass/fail: the short version in npm test
// (tests/soak/soak.test.ts) asserts the invariants. docs/soak.md says how each figure is measured.

import { writeFileSync } from 'node:fs';
import { availableParallelism, loadavg } from 'node:os';
import { parseArgs } from 'node:util';
import { labDown, labUnsupportedReason, labSudoPassword } from '../tests/lab/lab.ts';
import { FAULTS } from '../tests/soak/faults.ts';
import { figuresTable, type FaultFigures } from '../tests/soak/figures.ts';
import { injectFault, SOAK_LANES } from '../tests/soak/injections.ts';
import { freshSeed } from '../tests/soak/seeded-random.ts';
import { openSoakLab, type SoakLab } from '../tests/soak/soak-lab.ts';

const USAGE = `usage: npm run soak -- [--repeat N] [--lanes 1-${SOAK_LANES.length}] [--seed S] [--only ${FAULTS.map((fault) => fault.id).join(',')}] [--json FILE]`;

function options(): { repeat: number; lanes: number; seed: number; only: string[]; json: string | null } {
  const { values } = parseArgs({
    options: { repeat: { type: 'string', default: '20' }, lanes: { type: 'string', default: '1' }, seed: { type: 'string' }, only: { type: 'string' }, json: { type: 'string' }, help: { type: 'boolean' } },
  });
  if (values.help) {
    console.log(USAGE);
    process.exit(0);
  }
  const repeat = Number(values.repeat);
  if (!Number.isInteger(repeat) || repeat < 1) throw new Error(`--repeat: a whole number of at least 1, not "${values.repeat}"\n${USAGE}`);
  const lanes = Number(values.lanes);
  if (!Number.isInteger(lanes) || lanes < 1 || lanes > SOAK_LANES.length) throw new Error(`--lanes: a whole number from 1 to ${SOAK_LANES.length}, not "${values.lanes}"\n${USAGE}`);
  const seed = values.seed === undefined ? freshSeed() : Number(values.seed);
  if (!Number.isInteger(seed)) throw new Error(`--seed: a whole number, not "${values.seed}"\n${USAGE}`);
  const only = values.only ? values.only.split(',') : FAULTS.map((fault) => fault.id);
  const unknown = only.filter((id) => !FAULTS.some((fault) => fault.id === id));
  if (unknown.length > 0) throw new Error(`--only: no fault ${unknown.join(', ')}\n${USAGE}`);
  return { repeat, lanes, seed, only, json: values.json ?? null };
}

function machine(): string {
  const [one, five, fifteen] = loadavg().map((value) => value.toFixed(2));
  return `${availableParallelism()} cores, load average ${one} / ${five} / ${fifteen} (1 / 5 / 15 min)`;
}

async function main(): Promise<void> {
  const { repeat, lanes, seed, only, json } = options();
  const unsupported = labUnsupportedReason() ?? (labSudoPassword() === null ? 'the lab has no sudo user of its own here (presets need it)' : null);
  if (unsupported) throw new Error(`npm run soak needs the lab: ${unsupported}`);
  console.log(`soak: ${repeat} injection${repeat === 1 ? '' : 's'} of each of ${only.join(', ')}, on ${lanes} lane${lanes === 1 ? '' : 's'}; seed ${seed}`);
  console.log(`soak: again with: npm run soak -- --repeat ${repeat} --lanes ${lanes} --seed ${seed}${only.length < FAULTS.length ? ` --only ${only.join(',')}` : ''}`);
  console.log(`machine at the start: ${machine()}`);
  const started = Date.now();
  const labs: SoakLab[] = [];
  const results: Array<{ id: string; title: string; figures: FaultFigures[] }> = [];
  try {
    for (const instance of SOAK_LANES.slice(0, lanes)) labs.push(await openSoakLab(instance));
    for (const fault of FAULTS.filter((candidate) => only.includes(candidate.id))) {
      const figures = await injectFault(fault, labs, seed, repeat, (figure) => {
        console.log(`${fault.id} ${figure.repeat}/${repeat}: ${figure.injectedAt}; ${summaryLine(figure)}`);
      });
      results.push({ id: fault.id, title: fault.title, figures });
    }
  } finally {
    for (const lab of labs) await lab.close();
    for (const instance of SOAK_LANES.slice(0, lanes)) {
      const down = await labDown({ instance });
      if (down.leftovers.length > 0) console.log(`lab ${instance}: left behind: ${down.leftovers.join(', ')}`);
    }
  }
  console.log('');
  for (const result of results) console.log(`${figuresTable(result.title, result.figures)}\n`);
  console.log(`machine at the end: ${machine()}; the soak took ${Math.round((Date.now() - started) / 1000)} s; seed ${seed}`);
  if (json) writeFileSync(json, `${JSON.stringify({ seed, repeat, machine: machine(), results }, null, 2)}\n`);
}

/** One injection's figures on one progress line. */
function summaryLine(figure: FaultFigures): string {
  const parts = [
    `integrity ${figure.integrityOk ? 'ok' : 'FAILED'}`,
    figure.booksBalanced === null ? null : `books ${figure.booksBalanced ? 'balanced' : 'NOT balanced'}`,
    figure.secondsLost === null ? null : `${figure.secondsLost} s lost`,
    figure.agentEndedMs === null ? null : `agent gone after ${figure.agentEndedMs} ms`,
    figure.loadStoppedMs === null ? null : `last request ${figure.loadStoppedMs} ms after`,
    figure.reportedMs === null ? null : `reported after ${figure.reportedMs} ms`,
    figure.revert ? `revert ${Object.entries(figure.revert).map(([key, ok]) => `${key} ${ok ? 'ok' : 'NOT restored'}`).join(', ')}` : null,
    `${figure.leftovers.length} leftover${figure.leftovers.length === 1 ? '' : 's'}`,
  ];
  return parts.filter(Boolean).join(', ');
}

main().catch((error: unknown) => {
  console.error(`soak: ${error instanceof Error ? error.message : String(error)}`);
  process.exitCode = 1;
});
