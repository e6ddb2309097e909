// What a session shows, live on the Run page and again in replay: the bottleneck verdict, the noise
// findings stored at its start, the summary table and the charts with their step markers. One
// component, so replay shows what the user saw live.

import type { LiveStep } from '../../../../app/runs/runs.ts';
import { BottleneckBanner } from './BottleneckBanner.tsx';
import type { StepMarker } from '../../common/streaming-chart.ts';
import { LiveChart } from './LiveChart.tsx';
import { NoiseFindings } from './NoiseFindings.tsx';
import { RUN_CHARTS } from './run-charts.ts';
import { SummaryTable } from './SummaryTable.tsx';
import type { PointBuffer } from './use-live-run.ts';
import { useSessionNoise } from './use-preflight.ts';

export function SessionDashboard(props: {
  sessionId: number;
  steps: LiveStep[];
  bucketsMs: readonly number[];
  buffer: PointBuffer;
  version: number;
  markers: StepMarker[];
  /** The test id of the noise findings (run-session-noise, replay-noise). */
  noiseTestId: string;
  /** The log-axis switch for latency, where the page offers one. */
  logLatency?: { on: boolean; set: (on: boolean) => void };
}) {
  const noise = useSessionNoise(props.sessionId);
  const { logLatency } = props;
  return (
    <>
      <BottleneckBanner steps={props.steps} />
      <NoiseFindings title="Hosts at this session's start" findings={noise.findings} quiet={noise.recorded ? undefined : 'not recorded for this session.'} error={noise.error} testId={props.noiseTestId} />
      <SummaryTable steps={props.steps} bucketsMs={props.bucketsMs} />
      {logLatency && (
        <div className="chart-toolbar">
          <label>
            <input type="checkbox" checked={logLatency.on} data-testid="latency-log" onChange={(event) => logLatency.set(event.target.checked)} /> Latency on a log axis
          </label>
        </div>
      )}
      <div className="chart-grid">
        {RUN_CHARTS.map((chart) => (
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
