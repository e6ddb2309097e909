// Figure: the lag from the agent's second boundary (the `at` of a sample, on this machine's clock)
// to the Run page's chart showing that second, in web mode and real Chromium, with "This machine"
// as the client. A MutationObserver in the page notes when each chart's data-last-at changes (set
// right after chart.update). Goal: median under 250 ms.

import { startTestServer } from '../agent/agent-harness.ts';
import { launchChromium } from '../tests/support/browser.ts';
import { startWebApp } from '../tests/support/web-app.ts';

export interface ChartLagFigures {
  seconds: number;
  medianMs: number;
  p90Ms: number;
  maxMs: number;
}

const OBSERVE = `(() => {
  const lags = [];
  window.__benchlabChartLags = lags;
  const watch = () => {
    const chart = document.querySelector('[data-testid="chart-rps"]');
    if (!chart) return setTimeout(watch, 20);
    let last = 0;
    new MutationObserver(() => {
      const at = Number(chart.getAttribute('data-last-at'));
      // Redraws of the same second (a state change) are not a new second.
      if (at > 0 && at !== last) lags.push(Date.now() - at);
      last = at;
    }).observe(chart, { attributes: true, attributeFilter: ['data-last-at'] });
  };
  watch();
})()`;

export async function benchChartLag(seconds = 12): Promise<ChartLagFigures> {
  const server = await startTestServer();
  const app = await startWebApp();
  const browser = await launchChromium();
  try {
    const page = await browser.newPage();
    await page.goto(app.url);
    await page.getByTestId('status-connection').filter({ hasText: 'Connected' }).waitFor();
    await page.evaluate('location.hash = "/run"');
    await page.getByTestId('page-run').waitFor();
    const profile = { target: `http://127.0.0.1:${server.port}`, request: { path: '/' }, load: { model: 'closed', connections: 2, durationS: seconds } };
    await page.evaluate(`(async () => {
      const host = await window.benchlab.hosts.addLocal();
      await window.benchlab.runs.start({ clientHostId: host.id, profile: ${JSON.stringify(profile)} });
    })()`);
    await page.getByTestId('chart-rps').waitFor();
    await page.evaluate(OBSERVE);
    await page.getByTestId('run-status').and(page.locator('[data-status="completed"]')).waitFor({ timeout: (seconds + 30) * 1000 });
    const lags = ((await page.evaluate('window.__benchlabChartLags')) as number[]).slice(1).sort((a, b) => a - b);
    if (lags.length === 0) throw new Error('the chart drew no second');
    const at = (share: number) => lags[Math.min(lags.length - 1, Math.floor(share * lags.length))]!;
    return { seconds: lags.length, medianMs: at(0.5), p90Ms: at(0.9), maxMs: lags[lags.length - 1]! };
  } finally {
    await browser.close();
    await app.stop();
    await server.close();
  }
}
