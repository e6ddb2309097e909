// Why the server ran as it did, one line per ended step under the Run page's summary (and in replay):
// its threads, busiest core, run queue, context switches, TCP trouble, GC and event-loop delay over
// the step, as Compare sets them side by side (app/runs/server-runtime.ts words them). A step still
// running has none yet (its charts show the seconds), nor does a step of a session stored before
// Benchlab kept the figures.

import type { LiveStep } from '../../../../app/runs/runs.ts';
import { describeServerRuntime } from '../../../../app/runs/server-runtime.ts';

export function ServerRuntimeLines(props: { steps: readonly LiveStep[] }) {
  const read = props.steps.filter((step) => step.summary?.serverRuntime);
  return read.map((step) => (
    <p key={step.index} className="hint" data-testid="run-runtime" data-step={step.index}>
      Server, {step.label}: {describeServerRuntime(step.summary!.serverRuntime!)}
    </p>
  ));
}
