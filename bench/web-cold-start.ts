// Figure: web mode cold start, from process spawn to the first answered authenticated request.

import { performance } from 'node:perf_hooks';
import { startWebApp } from '../tests/support/web-app.ts';

async function firstAnsweredRequestMs(): Promise<number> {
  const started = performance.now();
  const app = await startWebApp();
  try {
    const login = await fetch(app.url, { redirect: 'manual' });
    const cookie = login.headers.get('set-cookie')?.split(';')[0] ?? '';
    const response = await fetch(`${app.origin}/api/call`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', Cookie: cookie },
      body: JSON.stringify({ name: 'app.info', args: {} }),
    });
    if (!response.ok) throw new Error(`app.info answered ${response.status}`);
    await response.json();
    return performance.now() - started;
  } finally {
    await app.stop();
  }
}

export async function benchWebColdStart(rounds = 5): Promise<{ medianMs: number; minMs: number; maxMs: number }> {
  const times: number[] = [];
  for (let i = 0; i < rounds; i++) times.push(await firstAnsweredRequestMs());
  times.sort((a, b) => a - b);
  return { medianMs: times[Math.floor(times.length / 2)]!, minMs: times[0]!, maxMs: times[times.length - 1]! };
}
