// One opened comparison, answering first as the PDF's first page does: the configurations under
// their letters, the headline figures with who is ahead by how much, the warnings. Then per-step
// tables with the best values and the runs that were not steady marked, each run's bottleneck
// verdict, repeated-run intervals with the ratio verdicts, overlay charts (a sweep's against-load
// charts first; series labelled by letter, coloured by configuration) and the host diff.

import { useMemo, useState } from 'react';
import { formatMs, formatValue, missingNote, percentileTick, percentileX, sweepAxis } from '../../../../app/sessions/comparison-report.ts';
import { buildHeadline, configurationSeries, HEADLINE_LABELS, HEADLINE_METRICS, letterOf, sessionLabel, type HeadlineMetric } from '../../../../app/sessions/comparison-headline.ts';
import { MIN_RUNS_FOR_VERDICT } from '../../../../app/sessions/compare-stats.ts';
import { formatBytes } from '../../../../app/common/byte-size.ts';
import type { Comparison } from '../../../../app/sessions/comparison.ts';
import { BottleneckBanner } from '../runs/BottleneckBanner.tsx';
import { OverlayChart, type OverlaySeries } from './OverlayChart.tsx';
import { Banner } from '../../common/Banner.tsx';
import { seriesColor } from '../../common/chart-setup.ts';
import { TableHead } from '../../common/TableHead.tsx';
import { EndpointTable } from './EndpointTable.tsx';
import { CompareProfiles } from '../profiles/CompareProfiles.tsx';

type Verdict = Comparison['repeats'][number]['steps'][number]['rpsVsBaseline'];

/** A ratio verdict: bold where the interval shows a difference; the baseline row has none. */
function VerdictCell({ verdict, metric }: { verdict: Verdict; metric: 'rps' | 'p99' }) {
  if (!verdict) return <td className="muted">baseline</td>;
  const shown = verdict.kind === 'higher' || verdict.kind === 'lower';
  return (
    <td data-testid="verdict" data-metric={metric} data-kind={verdict.kind}>
      {shown ? <strong>{verdict.text}</strong> : verdict.text}
    </td>
  );
}

/** A pause between steps (a gap over 1.5 s) becomes a null point, where chart.js breaks the line. */
function withPauses(xs: readonly number[], ys: ReadonlyArray<number | null>): Array<{ x: number; y: number | null }> {
  return xs.flatMap((x, i) => {
    const point = { x, y: ys[i] ?? null };
    return i > 0 && x - xs[i - 1]! > 1.5 ? [{ x: xs[i - 1]! + 1, y: null }, point] : [point];
  });
}

function formatMetric(metric: HeadlineMetric, value: number | null): string {
  if (value === null) return '—';
  return metric === 'rps' ? formatValue({ unit: 'rps' }, value) : metric === 'errors' ? formatValue({ unit: 'count' }, value) : `${formatMs(value)} ms`;
}

type ServerMemory = NonNullable<Comparison['steps'][number]['rows'][number]['serverMemory']>;

/** A run's lowest, highest and last RSS reading of the server, in a line. */
function memoryText(memory: ServerMemory): string {
  return `${formatBytes(memory.minBytes)} min, ${formatBytes(memory.maxBytes)} max, ${formatBytes(memory.endBytes)} at the end`;
}

/** The answer first: configurations by letter, the headline figures and verdicts, the warnings. */
function ComparisonHeadline({ comparison }: { comparison: Comparison }) {
  const headline = useMemo(() => buildHeadline(comparison), [comparison]);
  const withEngine = headline.configurations.some((config) => config.engine !== null);
  const stepped = headline.steps.some((step) => step.rows.some((row) => row.step !== step.label));
  return (
    <section data-testid="compare-headline">
      {headline.warnings.map((warning) => (
        <Banner key={warning} tone="warning" role="alert" testId="compare-warning">
          {warning}
        </Banner>
      ))}
      <h2>What was compared</h2>
      <table className="table compact" data-testid="compare-configurations">
        <TableHead columns={['', 'Configuration', 'Server', 'Variant', 'Knobs', 'Client → server host', ...(withEngine ? ['Engine'] : []), 'Load']} />
        <tbody>
          {headline.configurations.map((config, g) => (
            <tr key={config.letter} data-testid="compare-configuration" data-letter={config.letter}>
              <td className="strong nowrap">
                <span className="swatch" style={{ background: seriesColor(g) }} /> {config.letter}
              </td>
              <td>{config.name}</td>
              <td>{config.server}</td>
              <td>{config.variant}</td>
              <td className="small">{config.knobs}</td>
              <td>{config.hosts}</td>
              {withEngine && <td data-testid="compare-engine">{config.engine ?? 'not recorded'}</td>}
              <td className="small">{config.load}</td>
            </tr>
          ))}
        </tbody>
      </table>
      <h2>Headline</h2>
      {headline.steps.map((step) => (
        <div key={step.label} data-testid="compare-headline-step" data-step={step.label}>
          {(headline.steps.length > 1 || stepped) && <h3>{step.label}</h3>}
          <table className="table compact summary-table">
            <TableHead columns={['', 'Configuration', ...(stepped ? ['Step'] : []), ...(headline.repeated ? ['Runs'] : []), ...HEADLINE_METRICS.map((metric) => HEADLINE_LABELS[metric])]} />
            <tbody>
              {step.rows.map((row) => {
                const config = headline.configurations[row.configuration]!;
                return (
                  <tr key={config.letter} data-testid="compare-headline-row" data-letter={config.letter}>
                    <td className="strong nowrap">
                      <span className="swatch" style={{ background: seriesColor(row.configuration) }} /> {config.letter}
                    </td>
                    <td className="wrap">{config.name}</td>
                    {stepped && <td>{row.step}</td>}
                    {headline.repeated && <td>{row.runs}</td>}
                    {HEADLINE_METRICS.map((metric) => (
                      <td key={metric} data-metric={metric} className={row.best[metric] ? 'best' : undefined}>
                        {formatMetric(metric, row.values[metric])}
                      </td>
                    ))}
                  </tr>
                );
              })}
            </tbody>
          </table>
          {step.verdicts.map((verdict) => (
            <p key={verdict} className="hint" data-testid="compare-verdict">
              {verdict}
            </p>
          ))}
        </div>
      ))}
      {headline.stepNote && <p className="hint">{headline.stepNote}</p>}
    </section>
  );
}

export function ComparisonView({ comparison }: { comparison: Comparison }) {
  const name = (i: number) => comparison.sessions[i]?.name ?? `#${i + 1}`;
  const [step, setStep] = useState(comparison.steps[0]?.label ?? '');
  const colorOf = (session: number) => seriesColor(comparison.sessions[session]?.group ?? session);
  const rps: OverlaySeries[] = useMemo(
    () => comparison.timelines.map((t) => ({ label: sessionLabel(comparison, t.session), color: colorOf(t.session), points: withPauses(t.t, t.rps) })),
    // eslint-disable-next-line react-hooks/exhaustive-deps
    [comparison],
  );
  const p99: OverlaySeries[] = useMemo(
    () =>
      comparison.timelines.map((t) => ({
        label: sessionLabel(comparison, t.session),
        color: colorOf(t.session),
        points: withPauses(
          t.t,
          t.p99Us.map((us) => (us === null ? null : us / 1000)),
        ),
      })),
    // eslint-disable-next-line react-hooks/exhaustive-deps
    [comparison],
  );
  const distribution: OverlaySeries[] = useMemo(
    () =>
      comparison.distributions
        .filter((d) => d.step === step)
        .map((d) => ({ label: sessionLabel(comparison, d.session), color: colorOf(d.session), points: d.points.map((p) => ({ x: percentileX(p.percentile), y: p.us / 1000 })) })),
    // eslint-disable-next-line react-hooks/exhaustive-deps
    [comparison, step],
  );
  const sweep = useMemo(() => sweepAxis(comparison), [comparison]);
  const sweepSeries = (metric: HeadlineMetric, scale = 1): OverlaySeries[] =>
    sweep
      ? configurationSeries(comparison, metric).map((ys, g) => ({
          label: metric === 'rps' ? letterOf(g) : `${letterOf(g)} ${metric}`,
          color: seriesColor(g),
          points: sweep.values.map((x, i) => ({ x, y: ys[i] === null ? null : ys[i]! / scale })),
        }))
      : [];
  const repeated = comparison.repeats.some((group) => group.sessions.length > 1);
  // The server's memory goes in a line under each step's table (three readings), keeping the table within 1280 px.
  const tableColumns = comparison.columns.flatMap((column, c) => (column.key === 'rssMax' ? [] : [c]));

  return (
    <div data-testid="comparison">
      <ComparisonHeadline comparison={comparison} />
      <EndpointTable comparison={comparison} />
      <h2>Sessions</h2>
      <table className="table compact" data-testid="compare-sessions">
        <TableHead columns={['', 'Session', 'Started', 'Status', 'Hosts', 'Templates', 'Load']} />
        <tbody>
          {comparison.sessions.map((session, i) => (
            <tr key={session.id}>
              <td className="strong nowrap">
                <span className="swatch" style={{ background: colorOf(i) }} /> {sessionLabel(comparison, i)}
              </td>
              <td className="strong wrap">{session.name}</td>
              <td>{new Date(session.startedAt ?? session.createdAt).toLocaleString()}</td>
              <td>{session.status}</td>
              <td>
                {session.clientHost ?? '—'} → {session.serverHost ?? '—'}
              </td>
              <td>
                {session.templates.join(', ') || '—'}
                {session.database && (
                  <div className="muted small" data-testid="compare-database">
                    database {session.database}
                  </div>
                )}
              </td>
              <td className="small">
                {session.configuration}
                {session.calibration && (
                  <div className="muted small" data-testid="compare-calibration">
                    {session.calibration}
                  </div>
                )}
              </td>
            </tr>
          ))}
        </tbody>
      </table>

      <h2>Results per step</h2>
      {comparison.steps.map((s) => (
        <div key={s.label} data-testid="compare-step" data-step={s.label}>
          <h3>{s.label}</h3>
          <table className="table compact summary-table">
            <TableHead columns={['Session', ...tableColumns.map((c) => comparison.columns[c]!.label)]} />
            <tbody>
              {s.rows.map((row) => (
                <tr key={row.runId} data-testid="compare-row" data-session={comparison.sessions[row.session]?.id}>
                  <td className="strong wrap">
                    {name(row.session)}
                    {row.status && row.status !== 'completed' && (
                      <span className="not-steady" data-testid="compare-row-status" title="It did not run to its end: its figures are partial, never best and in no median.">
                        {row.status}
                      </span>
                    )}
                    {row.steadiness?.steady === false && (
                      <span className="not-steady" data-testid="not-steady" title={row.steadiness.message}>
                        not steady
                      </span>
                    )}
                  </td>
                  {tableColumns.map((c) => (
                    <td
                      key={comparison.columns[c]!.key}
                      className={row.best[c] ? 'best' : undefined}
                      data-column={comparison.columns[c]!.key}
                      title={row.best[c] ? 'best of this step' : (row.missing?.[comparison.columns[c]!.key] ?? undefined)}
                    >
                      {formatValue(comparison.columns[c]!, row.values[c] ?? null)}
                    </td>
                  ))}
                </tr>
              ))}
            </tbody>
          </table>
          {s.rows.map((row) => {
            const note = missingNote(comparison.columns, row);
            return note ? (
              <p key={row.runId} className="hint" data-testid="compare-missing">
                — {name(row.session)}: {note}
              </p>
            ) : null;
          })}
          {s.rows.map((row) =>
            row.latency ? (
              <p key={row.runId} className="hint" data-testid="compare-latency">
                Latency, {name(row.session)}: {row.latency}
              </p>
            ) : null,
          )}
          {s.rows.map((row) =>
            row.serverMemory ? (
              <p key={row.runId} className="hint" data-testid="compare-memory" data-session={comparison.sessions[row.session]?.id}>
                Server memory (RSS), {name(row.session)}: {memoryText(row.serverMemory)}
              </p>
            ) : null,
          )}
          {s.rows.map((row) =>
            row.serverRuntime ? (
              <p key={row.runId} className="hint" data-testid="compare-runtime" data-session={comparison.sessions[row.session]?.id}>
                Server, {name(row.session)}: {row.serverRuntime}
              </p>
            ) : null,
          )}
          <BottleneckBanner steps={s.rows.map((row) => ({ label: name(row.session), bottleneck: row.bottleneck }))} labelled />
        </div>
      ))}
      <p className="hint">Highlighted: the best value of the column for that step, among the runs that completed (a failed or stopped run is never best). Latencies come from merged HDR histograms.</p>

      {repeated && (
        <>
          <h2>Repeated runs</h2>
          <table className="table compact" data-testid="compare-repeats">
            <TableHead columns={['Configuration', 'Step', 'Runs', 'Requests/s (median, 95 % CI)', 'p99 (median, 95 % CI)', 'Requests/s vs first', 'p99 vs first']} />
            <tbody>
              {comparison.repeats.flatMap((group) =>
                group.steps.map((s) => (
                  <tr key={`${group.label}-${s.label}`}>
                    <td>{group.label}</td>
                    <td>{s.label}</td>
                    <td>{s.rps.n}</td>
                    <td>
                      {formatValue({ unit: 'rps' }, s.rps.median)} [{formatValue({ unit: 'rps' }, s.rps.low)} – {formatValue({ unit: 'rps' }, s.rps.high)}]
                    </td>
                    <td>{s.p99Us ? `${formatMs(s.p99Us.median)} [${formatMs(s.p99Us.low)} – ${formatMs(s.p99Us.high)}] ms` : '—'}</td>
                    <VerdictCell verdict={s.rpsVsBaseline} metric="rps" />
                    <VerdictCell verdict={s.p99VsBaseline} metric="p99" />
                  </tr>
                )),
              )}
            </tbody>
          </table>
          <p className="hint">
            Against the first configuration: the ratio of the runs’ geometric means with its 95 % confidence interval (Welch’s t on the logarithms). A verdict needs at least {MIN_RUNS_FOR_VERDICT}{' '}
            runs a side; repeat each configuration (the plan’s Repeats) to get one.
          </p>
        </>
      )}

      <h2>Charts</h2>
      <div className="chart-grid">
        {sweep && (
          <>
            <OverlayChart id="sweep-rps" title={`Requests/s against ${sweep.axis === 'rate' ? 'target rate' : 'connections'}`} series={sweepSeries('rps')} xTitle={sweep.axis === 'rate' ? 'target req/s' : 'connections'} yTitle="req/s" showPoints />
            <OverlayChart
              id="sweep-latency"
              title={`p50 and p99 against ${sweep.axis === 'rate' ? 'target rate' : 'connections'}`}
              series={[...sweepSeries('p99', 1000), ...sweepSeries('p50', 1000)]}
              xTitle={sweep.axis === 'rate' ? 'target req/s' : 'connections'}
              yTitle="ms"
              yLog
              showPoints
            />
          </>
        )}
        <OverlayChart id="rps" title="Requests/s over time" series={rps} xTitle="s since the session started" yTitle="req/s" />
        <OverlayChart id="p99" title="p99 over time" series={p99} xTitle="s since the session started" yTitle="ms" yLog />
        <div>
          {comparison.steps.length > 1 && (
            <label className="chart-toolbar">
              Step{' '}
              <select value={step} data-testid="compare-distribution-step" onChange={(event) => setStep(event.target.value)}>
                {comparison.steps.map((s) => (
                  <option key={s.label}>{s.label}</option>
                ))}
              </select>
            </label>
          )}
          <OverlayChart id="distribution" title="Latency distribution" series={distribution} xTitle="percentile" yTitle="ms" xLog yLog xTick={percentileTick} showPoints />
        </div>
      </div>

      <CompareProfiles comparison={comparison} />

      <h2>Hosts and system info</h2>
      <p className="hint">As each session recorded its hosts when it started, never what they are now.</p>
      <table className="table compact" data-testid="compare-hosts">
        <TableHead columns={['Host', 'Fact', ...comparison.sessions.map((session, i) => `${sessionLabel(comparison, i)} · ${session.name}`)]} />
        <tbody>
          {comparison.hosts.rows.map((row) => (
            <tr key={`${row.role}-${row.clientIndex ?? ''}-${row.label}`} className={row.differs ? 'differs' : undefined} data-differs={row.differs}>
              <td>{row.clientIndex === undefined ? row.role : `client ${row.clientIndex + 1}`}</td>
              <td>{row.label}</td>
              {row.values.map((value, i) => (
                <td key={i} className="mono">
                  {value ?? <span className="muted">not recorded</span>}
                </td>
              ))}
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
