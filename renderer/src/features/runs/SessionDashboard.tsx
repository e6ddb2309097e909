// What a session shows, live on the Run page and again in replay: the bottleneck verdict (per client
// too), a step that lost a client, the noise findings stored at its start (with the Run page's
// pre-flight for the next run in the same box, each figure saying when it was read), the load clients,
// the summary table with each ended step's server runtime line beneath it, each step's
// connect/waiting/processing/total (as ab's report) with what its latency includes, and the charts
// with their step markers (each client's requests/s and p99 on demand; a server's GC, a JVM's or a
// Node server's, and a Node server's event loop when the readings have them).
// One component, so replay shows what the user saw live.

import { useMemo, useState } from 'react';
import type { LiveClient, LivePoint, LiveStep } from '../../../../app/runs/runs.ts';
import { BottleneckBanner, type JudgedStep } from './BottleneckBanner.tsx';
import { ClientsTable } from './ClientsTable.tsx';
import { DegradedBanner } from './DegradedBanner.tsx';
import type { StepMarker } from '../../common/chart-series.ts';
import { LiveChart } from './LiveChart.tsx';
import { NoiseFindings, type NoiseReading } from './NoiseFindings.tsx';
import { PhasesTable } from './PhasesTable.tsx';
import { perClientCharts, RUN_CHARTS, withRuntimeCharts, withServerCores, type RuntimeFigures } from './run-charts.ts';
import { ServerRuntimeLines } from './ServerRuntimeLines.tsx';
import { SummaryTable } from './SummaryTable.tsx';
import type { PointBuffer } from './use-live-run.ts';
import { useSessionNoise } from './use-preflight.ts';

export function SessionDashboard(props: {
  sessionId: number;
  steps: LiveStep[];
  /** The session's load clients (live, or as the session recorded them). */
  clients: readonly LiveClient[];
  bucketsMs: readonly number[];
  /** The session's load model: what its latency runs from. */
  model: 'closed' | 'open';
  buffer: PointBuffer;
  version: number;
  markers: StepMarker[];
  /** The test id of the noise findings (run-session-noise, replay-noise). */
  noiseTestId: string;
  /** The log-axis switch for latency, where the page offers one. */
  logLatency?: { on: boolean; set: (on: boolean) => void };
  /** The Run page's pre-flight for its next run, shown in the one hosts box beside the session's own reading. */
  preflight?: { reading: NoiseReading; recheck: () => void };
}) {
  const noise = useSessionNoise(props.sessionId);
  const { logLatency, clients, steps } = props;
  const [perClient, setPerClient] = useState(false);
  const several = clients.length > 1;
  // Keyed by the clients' names, not the live state's new arrays: new series rebuild the charts.
  const clientNames = JSON.stringify(clients.map((client) => [client.index, client.name]));
  // The server host's cores, from the latest point that read them: a new count rebuilds the charts.
  const serverCores = latestCoreCount(props.buffer.points);
  // The server's GC and a Node server's event loop get their charts once a reading has them.
  const { gc, eventLoop } = latestRuntimeFigures(props.buffer.points);
  const charts = useMemo(
    () =>
      withRuntimeCharts(
        withServerCores(several && perClient ? perClientCharts((JSON.parse(clientNames) as Array<[number, string]>).map(([index, name]) => ({ index, name }))) : RUN_CHARTS, serverCores),
        { gc, eventLoop },
      ),
    [several, perClient, clientNames, serverCores, gc, eventLoop],
  );
  const judged = useMemo<JudgedStep[]>(() => {
    const nameOf = (index: number) => clients.find((client) => client.index === index)?.name ?? `client ${index + 1}`;
    return steps.map((step) => ({ label: step.label, bottleneck: step.bottleneck, clients: step.clientVerdicts.map((verdict) => ({ name: nameOf(verdict.clientIndex), bottleneck: verdict.bottleneck })) }));
  }, [steps, clients]);
  return (
    <>
      <DegradedBanner steps={steps} />
      <BottleneckBanner steps={judged} />
      <NoiseFindings
        title="Hosts"
        readings={[...(props.preflight ? [props.preflight.reading] : []), { when: 'start', ...noise, ...(noise.recorded ? {} : { quiet: 'not recorded for this session.' }) }]}
        onRecheck={props.preflight?.recheck}
        testId={props.noiseTestId}
      />
      <ClientsTable clients={clients} />
      <SummaryTable steps={props.steps} bucketsMs={props.bucketsMs} />
      <ServerRuntimeLines steps={props.steps} />
      <PhasesTable steps={props.steps} model={props.model} />
      {(logLatency || several) && (
        <div className="chart-toolbar">
          {logLatency && (
            <label>
              <input type="checkbox" checked={logLatency.on} data-testid="latency-log" onChange={(event) => logLatency.set(event.target.checked)} /> Latency on a log axis
            </label>
          )}
          {several && (
            <label title="Each client's requests/s and p99 beside the merged series">
              <input type="checkbox" checked={perClient} data-testid="charts-per-client" onChange={(event) => setPerClient(event.target.checked)} /> Per client
            </label>
          )}
        </div>
      )}
      <div className="chart-grid">
        {charts.map((chart) => (
          <LiveChart
            key={chart.id}
            id={chart.id}
            title={chart.title}
            unit={chart.unit}
            series={chart.series}
            buffer={props.buffer}
            version={props.version}
            markers={props.markers}
            logScale={chart.log && logLatency ? logLatency.on : false}
          />
        ))}
      </div>
    </>
  );
}

/** How many cores the server's latest reading had (0: none read yet, or a session of older Benchlab). */
function latestCoreCount(points: readonly LivePoint[]): number {
  for (let index = points.length - 1; index >= 0 && index >= points.length - 30; index--) {
    const cores = points[index]!.server?.coreCpu.length;
    if (cores) return cores;
  }
  return 0;
}

/** Which runtime figures the latest readings carry (GC, a JVM's or a Node server's; a Node server's event-loop delay). */
function latestRuntimeFigures(points: readonly LivePoint[]): RuntimeFigures {
  const figures = { gc: false, eventLoop: false };
  for (let index = points.length - 1; index >= 0 && index >= points.length - 30; index--) {
    const server = points[index]!.server;
    if (server?.gcPauses !== null && server?.gcPauses !== undefined) figures.gc = true;
    if (server?.eventLoopDelayP99Ms !== null && server?.eventLoopDelayP99Ms !== undefined) figures.eventLoop = true;
  }
  return figures;
}
