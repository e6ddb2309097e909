// A static chart.js line chart overlaying one series per compared session: numbers as {x, y} (no
// parsing), no animation, LTTB decimation for hour-long timelines, linear or log axes.

import { Chart } from '../../common/chart-setup.ts';
import { useEffect, useRef } from 'react';

export interface OverlaySeries {
  label: string;
  color: string;
  points: Array<{ x: number; y: number | null }>;
}

export function OverlayChart(props: {
  id: string;
  title: string;
  series: OverlaySeries[];
  xTitle: string;
  yTitle: string;
  xLog?: boolean;
  yLog?: boolean;
  xTick?: (value: number) => string;
  showPoints?: boolean;
}) {
  const { id, title, series, xTitle, yTitle, xLog = false, yLog = false, xTick, showPoints = false } = props;
  const canvasRef = useRef<HTMLCanvasElement>(null);

  useEffect(() => {
    if (!canvasRef.current) return;
    const chart = new Chart(canvasRef.current, {
      type: 'line',
      data: {
        datasets: series.map((s) => ({
          label: s.label,
          // A log axis has no zero: such values become gaps.
          data: s.points.map((p) => ({ x: p.x, y: p.y !== null && (!yLog || p.y > 0) ? p.y : null })),
          borderColor: s.color,
          backgroundColor: s.color,
          borderWidth: 1.5,
          pointRadius: showPoints ? 2 : 0,
          spanGaps: false,
        })),
      },
      options: {
        animation: false,
        parsing: false,
        normalized: true,
        responsive: true,
        maintainAspectRatio: false,
        interaction: { mode: 'nearest', axis: 'x', intersect: false },
        scales: {
          x: { type: xLog ? 'logarithmic' : 'linear', title: { display: true, text: xTitle }, ticks: { maxTicksLimit: 8, ...(xTick ? { callback: (value) => xTick(Number(value)) } : {}) } },
          y: { type: yLog ? 'logarithmic' : 'linear', beginAtZero: !yLog, title: { display: true, text: yTitle }, ticks: { maxTicksLimit: 6 } },
        },
        plugins: {
          legend: { display: true, labels: { boxWidth: 10, boxHeight: 2 } },
          decimation: { enabled: true, algorithm: 'lttb', samples: 500, threshold: 800 },
          tooltip: { animation: false },
        },
      },
    });
    return () => chart.destroy();
  }, [series, xTitle, yTitle, xLog, yLog, xTick, showPoints]);

  return (
    <div className="chart-card" data-testid={`compare-chart-${id}`} data-series={series.length}>
      <div className="chart-title">{title}</div>
      <div className="chart-canvas" style={{ height: 220 }}>
        <canvas ref={canvasRef} aria-label={title} role="img" />
      </div>
    </div>
  );
}
