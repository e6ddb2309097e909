// npm run soak [-- --repeat N] [--seed S] [--only ID,ID] [--json FILE]: the fault-injection soak on
// the lab (Linux, root). Each fault of tests/soak/faults.ts is injected N times (default 20) at
// seeded random moments, and one table per fault prints its figures — min / median / max and
// counts — with the machine's load. Figures, not pass/fail: the short version in npm test
// (tests/soak/soak.test.ts) asserts the invariants. docs/soak.md says how each figure is measured.

import { writeFileSync } from 'node:fs';
import { availableParallelism, loadavg } from 'node:os';
import { parseArgs } from 'node:util';
import { labDown, labUnsupportedReason, labSudoPassword } from '../tests/lab/lab.ts';
import { FAULTS } from '../tests/soak/faults.ts';
import { figuresTable, type FaultFigures } from '../tests/soak/figures.ts';
import { freshSeed, seededRandom } from '../tests/soak/seeded-random.ts';
import { openSoakLab, SOAK_INSTANCE } from '../tests/soak/soak-lab.ts';

const USAGE = `usage: npm run soak -- [--repeat N] [--seed S] [--only ${FAULTS.map((fault) => fault.id).join(',')}] [--json FILE]`;

function options(): { repeat: number; seed: number; only: string[]; json: string | null } {
  const { values } = parseArgs({
    options: { repeat: { type: 'string', default: '20' }, seed: { type: 'string' }, only: { type: 'string' }, json: { type: 'string' }, help: { type: 'boolean' } },
  });
  if (values.help) {
    console.log(USAGE);
    process.exit(0);
  }
  const repeat = Number(values.repeat);
  if (!Number.isInteger(repeat) || repeat < 1) throw new Error(`--repeat: a whole number of at least 1, not "${values.repeat}"\n${USAGE}`);
  const seed = values.seed === undefined ? freshSeed() : Number(values.seed);
  if (!Number.isInteger(seed)) throw new Error(`--seed: a whole number, not "${values.seed}"\n${USAGE}`);
  const only = values.only ? values.only.split(',') : FAULTS.map((fault) => fault.id);
  const unknown = only.filter((id) => !FAULTS.some((fault) => fault.id === id));
  if (unknown.length > 0) throw new Error(`--only: no fault ${unknown.join(', ')}\n${USAGE}`);
  return { repeat, seed, only, json: values.json ?? null };
}

function machine(): string {
  const [one, five, fifteen] = loadavg().map((value) => value.toFixed(2));
  return `${availableParallelism()} cores, load average ${one} / ${five} / ${fifteen} (1 / 5 / 15 min)`;
}

async function main(): Promise<void> {
  const { repeat, seed, only, json } = options();
  const unsupported = labUnsupportedReason() ?? (labSudoPassword() === null ? 'the lab has no sudo user of its own here (presets need it)' : null);
  if (unsupported) throw new Error(`npm run soak needs the lab: ${unsupported}`);
  console.log(`soak: ${repeat} injection${repeat === 1 ? '' : 's'} of each of ${only.join(', ')}; seed ${seed}`);
  console.log(`soak: again with: npm run soak -- --repeat ${repeat} --seed ${seed}${only.length < FAULTS.length ? ` --only ${only.join(',')}` : ''}`);
  console.log(`machine at the start: ${machine()}`);
  const started = Date.now();
  const lab = await openSoakLab();
  const results: Array<{ id: string; title: string; figures: FaultFigures[] }> = [];
  try {
    for (const fault of FAULTS.filter((candidate) => only.includes(candidate.id))) {
      const random = seededRandom(seed, fault.id);
      const figures: FaultFigures[] = [];
      results.push({ id: fault.id, title: fault.title, figures });
      for (let index = 1; index <= repeat; index++) {
        const figure = await fault.inject(lab, random, index);
        figures.push(figure);
        console.log(`${fault.id} ${index}/${repeat}: ${figure.injectedAt}; ${summaryLine(figure)}`);
      }
    }
  } finally {
    await lab.close();
    const down = await labDown({ instance: SOAK_INSTANCE });
    if (down.leftovers.length > 0) console.log(`lab ${SOAK_INSTANCE}: left behind: ${down.leftovers.join(', ')}`);
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
