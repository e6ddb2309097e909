import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { chooseEngineRemovals, parseEngineFolderListing } from './engine-leftovers.ts';

const CURRENT = 'benchlab-engine-0123456789ab';
const OLD_A = 'benchlab-engine-aaaaaaaaaaaa';
const OLD_B = 'benchlab-engine-bbbbbbbbbbbb';
const RUNNING = 'benchlab-engine-cccccccccccc';

describe('parseEngineFolderListing', () => {
  test('reads presence, the other files with their sizes, and what processes use', () => {
    const text = [
      'present',
      `file 3145728 ${OLD_A}`,
      `file   2048 ${OLD_B}`,
      `used /var/lib/benchlab/agent/${RUNNING}`,
      `used sh -c /root/.benchlab/agent/${OLD_B} run`,
      'noise that is none of these',
      '',
    ].join('\n');
    assert.deepEqual(parseEngineFolderListing(text), {
      present: true,
      others: [
        { name: OLD_A, bytes: 3145728 },
        { name: OLD_B, bytes: 2048 },
      ],
      inUse: [`/var/lib/benchlab/agent/${RUNNING}`, `sh -c /root/.benchlab/agent/${OLD_B} run`],
    });
  });

  test('an empty listing: the current binary missing, nothing else there', () => {
    assert.deepEqual(parseEngineFolderListing(''), { present: false, others: [], inUse: [] });
  });
});

describe('chooseEngineRemovals', () => {
  test('removes the older binaries nothing runs, keeps the one a process runs, and sums what is freed', () => {
    const listing = parseEngineFolderListing([`file 1000 ${OLD_A}`, `file 2500 ${OLD_B}`, `file 4000 ${RUNNING}`, `used /var/lib/benchlab/agent/${RUNNING}`].join('\n'));
    assert.deepEqual(chooseEngineRemovals(listing, CURRENT), {
      remove: [
        { name: OLD_A, bytes: 1000 },
        { name: OLD_B, bytes: 2500 },
      ],
      keptInUse: [RUNNING],
      freedBytes: 3500,
    });
  });

  test('a binary named in a process argument counts as in use', () => {
    const listing = { present: true, others: [{ name: OLD_A, bytes: 10 }], inUse: [`strace -f ./${OLD_A} run`] };
    assert.deepEqual(chooseEngineRemovals(listing, CURRENT), { remove: [], keptInUse: [OLD_A], freedBytes: 0 });
  });

  test('never the current binary, nor a file Benchlab did not name', () => {
    const others = [
      { name: CURRENT, bytes: 10 },
      { name: 'benchlab-engine-linux-amd64', bytes: 10 },
      { name: 'benchlab-engine-notahash1234', bytes: 10 },
      { name: `${OLD_A}.bak`, bytes: 10 },
    ];
    assert.deepEqual(chooseEngineRemovals({ present: true, others, inUse: [] }, CURRENT), { remove: [], keptInUse: [], freedBytes: 0 });
  });
});
