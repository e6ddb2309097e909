// Test-run global setup (node --test-global-setup): brings the default two-host lab up for the
// tests that need real hosts, and takes it down afterwards only if this run brought it up.

import { labDown, labUnsupportedReason, labUp } from './lab/lab.ts';

let broughtUp = false;

export async function globalSetup(): Promise<void> {
  const unsupported = labUnsupportedReason();
  if (unsupported) {
    console.log(`lab: not available (${unsupported}); tests that need real hosts will skip`);
    return;
  }
  const result = await labUp();
  broughtUp = !result.alreadyUp;
  console.log(`lab: ${result.alreadyUp ? 'already up' : `up in ${result.seconds.toFixed(2)} s`}`);
}

/** Lab instances that only tests use (pulled links, regenerated keys, plans): always taken down. */
const TEST_ONLY_INSTANCES = ['disruptive', 'rekey', 'loadlink', 'plans', 'wizard', 'engine', 'studies', 'hostfacts'] as const;

export async function globalTeardown(): Promise<void> {
  if (labUnsupportedReason()) return;
  for (const instance of TEST_ONLY_INSTANCES) {
    const result = await labDown({ instance });
    if (result.leftovers.length > 0) console.log(`lab ${instance}: left behind: ${result.leftovers.join(', ')}`);
  }
  if (!broughtUp) return;
  const result = await labDown();
  if (result.leftovers.length > 0) console.log(`lab: left behind: ${result.leftovers.join(', ')}`);
}
