// `npm run bench`: prints Benchlab's speed and size figures. No pass/fail: goals are read, not asserted.
// `npm run bench -- --only profile-cost,runtime-bytes` runs only the sections named.

import { loadavg } from 'node:os';
import { median } from '../app/common/median.ts';
import { benchAgentStop } from '../bench/agent-stop.ts';
import { benchComparisonOpen } from '../bench/comparison-open.ts';
import { benchFlameOpen } from '../bench/flame-open.ts';
import { benchHeadless } from '../bench/headless.ts';
import { benchImports } from '../bench/imports.ts';
import { benchFrameworkTemplates, benchJvmTemplates } from '../bench/templates-build-deploy.ts';
import { benchChartLag } from '../bench/chart-lag.ts';
import { benchEngineEfficiency, GENERATORS, medianOf } from '../bench/engine-efficiency.ts';
import { benchLoadEngine } from '../bench/load-engine.ts';
import { benchConnectAgreement, CONNECT_AGREEMENT_LOAD, CONNECT_AGREEMENT_ROUNDS } from '../bench/connect-agreement.ts';
import { benchNewConnections, cpuUsPerRequest, NEW_CONNECTION_GENERATORS } from '../bench/new-connections.ts';
import { falsePositiveRate, verdictRate } from '../app/sessions/compare-calibration.ts';
import type { PairedRatio } from '../app/sessions/compare-stats.ts';
import { benchOpenAccounting, OVERLOAD } from '../bench/open-accounting.ts';
import { benchScaleOut, SCALE_OUT_LOAD, SCALE_OUT_ROUNDS } from '../bench/scale-out.ts';
import { benchProfileCost, PROFILE_COST_BLOCKS, PROFILE_COST_LOAD, PROFILE_SIZE_RUN_S, profileCostVerdict, profileCpuVerdict } from '../bench/profile-cost.ts';
import { benchProfileCostSideBySide, SIDE_BY_SIDE_CYCLES } from '../bench/profile-cost-side-by-side.ts';
import { benchRuntimeFiguresBytes, mostCoresWithinGoal } from '../bench/runtime-figures-bytes.ts';
import { benchSshConfigImport } from '../bench/ssh-config-import.ts';
import { benchStoreIngest } from '../bench/store-ingest.ts';
import { benchWebColdStart } from '../bench/web-cold-start.ts';

function print(title: string, figures: Record<string, number | string>): void {
  console.log(`\n${title}`);
  for (const [name, value] of Object.entries(figures)) console.log(`  ${name.padEnd(26)} ${value}`);
}

console.log(`Benchlab benchmarks — Node ${process.version}, ${process.platform}-${process.arch}`);

/** The sections to run: all, or those `--only a,b` names (each section's name is in its `wanted` call). */
const only = (() => {
  const at = process.argv.indexOf('--only');
  return at === -1 ? null : new Set((process.argv[at + 1] ?? '').split(',').filter(Boolean));
})();
const wanted = (section: string): boolean => only === null || only.has(section);

const percentOf = (value: number, of: number) => `${((value / of) * 100).toFixed(0)} %`;
const msText = (value: number | null) => (value === null ? 'n/a' : `${value.toFixed(2)} ms`);

if (wanted('cold-start')) {
  const coldStart = await benchWebColdStart();
  print('Web mode cold start (spawn → first answered app.info)', {
    'median ms': coldStart.medianMs.toFixed(0),
    'min ms': coldStart.minMs.toFixed(0),
    'max ms': coldStart.maxMs.toFixed(0),
  });
}

if (wanted('store-ingest')) {
  for (const [samples, batchSize] of [[36_000, 60], [3_600, 1]] as const) {
    const ingest = benchStoreIngest(samples, batchSize);
    print(`Store ingest (WAL, synchronous=FULL, ${batchSize === 1 ? 'one transaction per sample' : `batches of ${batchSize}`})`, {
      samples: ingest.samples,
      'samples per second': ingest.samplesPerSecond,
      'bytes per sample on disk': ingest.bytesPerSample,
      'of which HDR histogram': ingest.histogramBytesPerSample,
    });
  }
}

if (wanted('comparison-open')) {
  const compare = benchComparisonOpen();
  print(`Open a comparison of ${compare.sessions} sessions × ${compare.samplesPerSession} samples (goal < 300 ms)`, {
    'median ms': compare.medianMs.toFixed(0),
    'first (cold) ms': compare.firstMs.toFixed(0),
    'max ms': compare.maxMs.toFixed(0),
    'JSON to the UI KiB': (compare.jsonBytes / 1024).toFixed(0),
  });
}

if (wanted('flame-open')) {
  const flame = benchFlameOpen();
  print(`Open a stored profile as a flame graph: ${(flame.bytes / 1024 / 1024).toFixed(1)} MB of folded stacks, ${flame.samples.toLocaleString('en-US')} samples (goal < 1000 ms)`, {
    'median ms': `${flame.openMs.toFixed(0)} (${((flame.openMs / 1000) * 100).toFixed(0)} % of the goal; read, laid out at 1,200 px: ${flame.rects.toLocaleString('en-US')} frames drawn, top frames)`,
    'first ms': flame.firstOpenMs.toFixed(0),
    'differential of two, ms': flame.diffMs.toFixed(0),
  });
}

if (wanted('headless')) {
  const headless = await benchHeadless();
  print('Command line (a real CLI process on a store of 51 sessions)', {
    'start + sessions list': `${headless.listMs.toFixed(0)} ms (a bare node start: ${headless.nodeStartMs.toFixed(0)} ms, ${(headless.listMs / headless.nodeStartMs).toFixed(1)}×)`,
    [`import ${(headless.importRequests / 1e6).toFixed(1)} M requests`]: `${(headless.importMs / 1000).toFixed(1)} s for ${headless.importFileMiB.toFixed(0)} MiB of per-request CSV, ${(headless.importRequests / (headless.importMs / 1000) / 1000).toFixed(0)} k requests/s (wc -l reads it in ${headless.wcMs.toFixed(0)} ms)`,
    'export an hour-long session': `JSON ${headless.exportsMs.json.toFixed(0)} ms, CSV ${headless.exportsMs.csv.toFixed(0)} ms, HdrHistogram log ${headless.exportsMs['hdr-log'].toFixed(0)} ms`,
  });
}

if (wanted('imports')) {
  // Importing the largest per-request formats (each ~200 MB, a real CLI process; goal ≥ 20 MB/s).
  const imports = await benchImports(200);
  print('Import ~200 MB of per-request results (a real CLI process each; CPU past a one-line import)', Object.fromEntries(imports.map((figure) => [
    `${figure.format} ${figure.fileMb.toFixed(0)} MB`,
    `${figure.seconds.toFixed(1)} s, ${figure.mbPerSecond.toFixed(1)} MB/s (${figure.mbPerCpuSecond.toFixed(1)} MB per CPU second), peak ${figure.peakRssMb.toFixed(0)} MB RSS, ${(figure.lines / 1e6).toFixed(2)} M lines (wc -l ${figure.wcMs.toFixed(0)} ms)`,
  ])));
}

if (wanted('ssh-config')) {
  const sshConfig = benchSshConfigImport();
  print(`Import ~/.ssh/config of ${sshConfig.hosts} hosts (goal < 2000 ms)`, { 'median ms': sshConfig.medianMs.toFixed(0) });
}

if (wanted('repeat-statistics')) {
  const calibration: Record<string, string> = {};
  for (const noise of ['normal', 'lognormal', 'slow-tail'] as const) {
    for (const runs of [5, 10]) {
      const trials = 2000;
      calibration[`${noise}, ${runs} a side`] =
        `false positives ${(falsePositiveRate({ noise, runs, trials }) * 100).toFixed(1)} % (goal <= 6 %), a true 1.3× found ${(verdictRate({ noise, runs, trials, factor: 1.3 }) * 100).toFixed(0)} %`;
    }
  }
  print('Repeat statistics: the verdict on seeded runs drawn from one distribution (2000 trials each)', calibration);
}

if (wanted('templates')) {
  for (const [kind, templates] of [['JVM template', await benchJvmTemplates()], ['Template', await benchFrameworkTemplates()]] as const) {
    for (const row of templates.rows) {
      const lab = (value: number | null, unit: string) => (value === null ? `n/a (${templates.labSkipped ?? 'lab'})` : `${value.toFixed(0)} ${unit}`);
      print(`${kind} ${row.id} (build from a warm cache; deploy to the lab's server host)`, {
        'warm build s': (row.warmBuildMs / 1000).toFixed(1),
        [`${row.artifact} MiB`]: (row.artifactBytes / 2 ** 20).toFixed(1),
        'deploy to ready': lab(row.firstDeployMs, 'ms (uploads it)'),
        'again, nothing changed': lab(row.againDeployMs, 'ms'),
        ...(row.databaseDeployMs === null ? {} : { 'with the database knob on': lab(row.databaseDeployMs, 'ms (PostgreSQL started and seeded)') }),
        'server RSS after start': lab(row.rssKiB === null ? null : row.rssKiB / 1024, 'MiB'),
      });
    }
  }
}

if (wanted('engine-efficiency')) {
  const efficiency = await benchEngineEfficiency();
  if (efficiency.skipped) console.log(`\nLoad generators' efficiency: skipped (${efficiency.skipped})`);
  else {
    const wrkRps = medianOf(efficiency.runs.wrk, (run) => run.rps) ?? Number.NaN;
    const wrkP50 = medianOf(efficiency.runs.wrk, (run) => run.p50Ms);
    const wrkP99 = medianOf(efficiency.runs.wrk, (run) => run.p99Ms);
    const goals: Record<string, string> = { 'native engine': ' (goal >= 90 %)', 'Node engine': ' (goal >= 60 %)' };
    const figures: Record<string, string> = {
      'machine load': `load average ${efficiency.load!.loadAverage.toFixed(2)}, all cores ${percentOf(efficiency.load!.busy, 1)} busy over the ${efficiency.repeats} rounds`,
    };
    for (const generator of GENERATORS) {
      const runs = efficiency.runs[generator];
      const rps = medianOf(runs, (run) => run.rps) ?? Number.NaN;
      const p50 = medianOf(runs, (run) => run.p50Ms);
      const p99 = medianOf(runs, (run) => run.p99Ms);
      const cpuPerThousand = medianOf(runs, (run) => (run.answered > 0 ? (run.cpuS / run.answered) * 1000 : null));
      const rss = efficiency.rssAtManyConnections[generator];
      figures[`${generator} req/s`] = `${rps.toFixed(0)} (rounds ${runs.map((run) => run.rps.toFixed(0)).join(', ')}); ${percentOf(rps, wrkRps)} of wrk${goals[generator] ?? ''}`;
      figures[`${generator} p50 / p99`] = `${msText(p50)} / ${msText(p99)}${generator === 'wrk' || p50 === null || wrkP50 === null ? '' : ` (${percentOf(p50, wrkP50)} / ${wrkP99 && p99 !== null ? percentOf(p99, wrkP99) : 'n/a'} of wrk's${generator === 'native engine' ? '; p50 goal within 10 %' : ''})`}`;
      figures[`${generator} CPU`] = `${cpuPerThousand === null ? 'n/a' : `${(cpuPerThousand * 1000).toFixed(1)} ms`} per 1,000 requests; ${rss === null ? 'n/a' : `${(rss / 2 ** 20).toFixed(1)} MiB`} peak RSS at ${efficiency.manyConnections.toLocaleString('en')} connections`;
      figures[`${generator} errors`] = runs.map((run) => run.errors).join(', ');
    }
    print(`Load generators' efficiency: nginx (1 worker, core 1) ← each generator on core 0, GET /, ${efficiency.connections} keep-alive connections, ${efficiency.durationS} s × ${efficiency.repeats} interleaved rounds (medians)`, figures);
  }
}

if (wanted('new-connections')) {
  const newConnections = await benchNewConnections();
  if (newConnections.skipped) console.log(`\nA new connection per request: skipped (${newConnections.skipped})`);
  else {
    const measured = (values: (number | null)[]) => median(values.filter((value): value is number => value !== null && Number.isFinite(value)));
    const abRps = measured(newConnections.runs.ab.map((run) => run.rps));
    const abCpu = measured(newConnections.runs.ab.map(cpuUsPerRequest));
    const figures: Record<string, string> = {
      'machine load': `load average ${newConnections.load!.loadAverage.toFixed(2)}, all cores ${percentOf(newConnections.load!.busy, 1)} busy over the ${newConnections.repeats} rounds`,
    };
    for (const generator of NEW_CONNECTION_GENERATORS) {
      const runs = newConnections.runs[generator];
      const rps = measured(runs.map((run) => run.rps));
      const cpu = measured(runs.map(cpuUsPerRequest));
      const goal = generator.startsWith('native engine') ? ' (goal >= 100 %)' : '';
      figures[`${generator}`] =
        `${rps.toFixed(0)} req/s (rounds ${runs.map((run) => run.rps.toFixed(0)).join(', ')}), ${percentOf(rps, abRps)} of ab's; ` +
        `${cpu.toFixed(1)} µs CPU per request, ${(1e6 / cpu).toFixed(0)} req/s per core, ${percentOf(abCpu, cpu)} of ab's${goal}; errors ${runs.map((run) => run.errors).join(', ')}`;
    }
    const phasesText = (run: (typeof newConnections.runs.ab)[number] | undefined) => {
      const ms = (value: number | null | undefined) => (value === null || value === undefined ? 'n/a' : `${value.toFixed(2)}`);
      return run?.phasesMs ? `${ms(run.phasesMs.connect)} / ${ms(run.phasesMs.waiting)} / ${ms(run.phasesMs.processing)} / ${ms(run.phasesMs.total)} ms` : 'n/a';
    };
    figures['phases, last round'] =
      `connect / waiting / processing / total medians: ab ${phasesText(newConnections.runs.ab.at(-1))} (whole ms), ` +
      `native engine over HTTP/1.0 ${phasesText(newConnections.runs['native engine, HTTP/1.0'].at(-1))} (its total counts from the connect's start)`;
    print(
      `A new connection per request: nginx (1 worker, core 1) ← each generator on core 0, GET /, ${newConnections.concurrency} concurrent, ${newConnections.durationS} s × ${newConnections.repeats} interleaved rounds (medians; ab sends HTTP/1.0, wrk and the agent's runs Connection: close)`,
      figures,
    );
  }
}

if (wanted('connect-agreement')) {
  const agreement = await benchConnectAgreement();
  if (agreement.skipped) console.log(`\nConnect time on the lab, Benchlab against ab: skipped (${agreement.skipped})`);
  else {
    const ms = (value: number | null) => (value === null || !Number.isFinite(value) ? 'n/a' : value.toFixed(2));
    // ab prints whole ms: a ratio against a 0 is no ratio.
    const ratio = (ours: number | null, theirs: number | null) => (ours === null || theirs === null || theirs === 0 ? 'n/a (ab reads 0 ms)' : `${(ours / theirs).toFixed(2)}×`);
    const figures: Record<string, string> = {};
    agreement.rounds.forEach((round, index) => {
      const { ab, benchlab } = round;
      figures[`round ${index + 1}`] =
        `load average ${round.load.loadAverage.toFixed(2)}, ${percentOf(round.load.busy, 1)} busy; req/s ab ${ab.rps.toFixed(0)}, Benchlab (${benchlab.engine} engine) ${benchlab.rps.toFixed(0)} (${percentOf(benchlab.rps, ab.rps)} of ab's)`;
      for (const phase of ['connect', 'waiting', 'processing', 'total'] as const) {
        figures[`round ${index + 1} ${phase} median`] = `ab ${ms(ab.phasesMs[phase])} ms, Benchlab ${ms(benchlab.phasesMs[phase])} ms (${ratio(benchlab.phasesMs[phase], ab.phasesMs[phase])})`;
      }
    });
    print(
      `Connect time on the lab, Benchlab against ab: nginx (1 worker) on the server host, both from the client host, ${CONNECT_AGREEMENT_LOAD.requests} requests over ${CONNECT_AGREEMENT_LOAD.connections} connections, HTTP/1.0 without keep-alive, ${CONNECT_AGREEMENT_ROUNDS} interleaved rounds`,
      figures,
    );
  }
}

if (wanted('load-engine')) {
  const load = await benchLoadEngine();
  for (const run of load.runs) {
    print(`Load engine, ${run.where}, ${run.server}: GET ${run.path}, ${run.connections} connections, 5 s each (closed model; agent vs bare autocannon vs wrk)`, {
      'machine load': `load average ${run.load.loadAverage.toFixed(2)}, all cores ${percentOf(run.load.busy, 1)} busy over the pair`,
      'agent req/s': run.agent.rps.toFixed(0),
      'autocannon req/s': run.autocannon.rps.toFixed(0),
      'wrk req/s': run.wrk.rps.toFixed(0),
      'agent / autocannon': `${percentOf(run.agent.rps, run.autocannon.rps)} (goal >= 95 %)`,
      'agent / wrk': percentOf(run.agent.rps, run.wrk.rps),
      'p50 agent / wrk': `${msText(run.agent.p50Ms)} / ${msText(run.wrk.p50Ms)} (${run.wrk.p50Ms ? percentOf(run.agent.p50Ms ?? 0, run.wrk.p50Ms) : 'n/a'}; goal within 10 %)`,
      'p99 agent / wrk': `${msText(run.agent.p99Ms)} / ${msText(run.wrk.p99Ms)} (${run.wrk.p99Ms ? percentOf(run.agent.p99Ms ?? 0, run.wrk.p99Ms) : 'n/a'})`,
      'autocannon p50 / p99': `${msText(run.autocannon.p50Ms)} / ${msText(run.autocannon.p99Ms)} (whole ms)`,
      'errors agent/ac/wrk': [run.agent, run.autocannon, run.wrk].map((tool) => (tool.errorKinds ? `${tool.errors} (${tool.errorKinds})` : String(tool.errors))).join(' / '),
    });
  }
  if (load.labSkipped) console.log(`\nLoad engine on the lab: skipped (${load.labSkipped})`);
  print(`Open model at ${load.stall.rate} req/s for 6 s, the server stalls once for 1 s (loopback)`, {
    'agent p50 / p99': `${msText(load.stall.agent.p50Ms)} / ${msText(load.stall.agent.p99Ms)} (from intended send times)`,
    'agent achieved req/s': load.stall.agent.rps.toFixed(0),
    'autocannon p50 / p99': `${msText(load.stall.autocannon.p50Ms)} / ${msText(load.stall.autocannon.p99Ms)} (its own correction)`,
    'autocannon -C p50 / p99': `${msText(load.stall.autocannonWithoutCorrection.p50Ms)} / ${msText(load.stall.autocannonWithoutCorrection.p99Ms)} (correction off)`,
    'autocannon achieved req/s': load.stall.autocannon.rps.toFixed(0),
  });
}

if (wanted('open-accounting')) {
  for (const run of await benchOpenAccounting()) {
    const books = run.summary.books;
    const expected = OVERLOAD.rate * OVERLOAD.durationS;
    print(`Open model past the server's capacity (loopback): ${OVERLOAD.rate} req/s for ${OVERLOAD.durationS} s against ~${1000 / OVERLOAD.serviceMs} req/s, ${run.label}`, {
      scheduled: books ? `${books.scheduled} (the profile asks for ${expected})` : 'n/a',
      'answered / errors': books ? `${books.answered} / ${books.errors}` : 'n/a',
      'timeouts / not sent': books ? `${books.timeouts} / ${books.notSent} (${Object.entries(run.summary.notSent).filter(([, n]) => n > 0).map(([reason, n]) => `${reason} ${n}`).join(', ') || 'none'})` : 'n/a',
      'books balance': books ? `${books.balanced && books.inFlight === 0 ? 'yes' : 'NO'} (in flight at the end: ${books.inFlight})` : 'n/a',
      'achieved req/s': run.summary.requestsPerSecond.toFixed(0),
      'p50 / p99': `${msText(run.summary.p50Us === null ? null : run.summary.p50Us / 1000)} / ${msText(run.summary.p99Us === null ? null : run.summary.p99Us / 1000)} (timeouts in at ${OVERLOAD.timeoutMs} ms)`,
      'window + drain': `${run.summary.seconds.toFixed(1)} s + ${(run.summary.drainMs / 1000).toFixed(1)} s (wall ${run.wallS.toFixed(1)} s with start-up)`,
    });
  }
}

if (wanted('scale-out')) {
  const scaleOut = await benchScaleOut();
  if (scaleOut.skipped) console.log(`\nOne client against two: skipped (${scaleOut.skipped})`);
  else {
    const usText = (us: number | null) => msText(us === null ? null : us / 1000);
    const of = (clients: number) => scaleOut.runs.filter((run) => run.clients === clients);
    const medianRps = (clients: number) => {
      const sorted = of(clients).map((run) => run.summary.requestsPerSecond).sort((a, b) => a - b);
      return sorted[Math.floor((sorted.length - 1) / 2)] ?? Number.NaN;
    };
    const figures: Record<string, string> = {};
    for (const clients of [1, 2]) {
      const runs = of(clients);
      const label = clients === 1 ? '1 client' : '2 clients';
      figures[`${label} machine load`] = runs.map((run) => `load average ${run.load.loadAverage.toFixed(2)}, ${percentOf(run.load.busy, 1)} busy`).join('; ');
      figures[`${label} req/s`] = `${medianRps(clients).toFixed(0)} (rounds ${runs.map((run) => run.summary.requestsPerSecond.toFixed(0)).join(', ')}; engine ${runs[0]?.engines.join(' + ')})`;
      figures[`${label} p50 / p99`] = runs.map((run) => `${usText(run.summary.p50Us)} / ${usText(run.summary.p99Us)}`).join('; ');
    }
    figures['2 clients / 1 client'] = `${percentOf(medianRps(2), medianRps(1))} of the requests/s (the lab's hosts share this machine's cores)`;
    figures['2 clients: each client'] = of(2).map((run) => run.clientRps.map((rps) => rps.toFixed(0)).join(' + ') + ' req/s').join('; ');
    figures['start skew'] = `${of(2).map((run) => (run.startSkewMs === null ? 'n/a' : `${run.startSkewMs.toFixed(1)} ms`)).join(', ')} (latest minus earliest corrected end of each client's first measured second)`;
    figures['clock offsets'] = of(2)
      .map((run) => run.clocks.map((clock) => (clock ? `${clock.offsetMs.toFixed(2)} ± ${clock.uncertaintyMs.toFixed(2)} ms` : 'n/a')).join(', '))
      .join('; ');
    print(
      `One client against two (lab: nginx, 1 worker, on bl-server; closed model, ${SCALE_OUT_LOAD.connections} connections split by weight, ${SCALE_OUT_LOAD.durationS} s after ${SCALE_OUT_LOAD.warmupS} s warm-up, ${SCALE_OUT_ROUNDS} interleaved rounds)`,
      figures,
    );
  }
}

if (wanted('runtime-bytes')) {
  print(
    "The server's runtime figures per stored second (cores, run queue, switches, retransmits; a JVM's GC or a Node server's event loop), as stored (goal <= 1024 bytes added)",
    {
      ...Object.fromEntries(benchRuntimeFiguresBytes().map((row) => [`${row.cores} cores, ${row.runtime}`, `+${row.addedBytes} bytes (the reading ${row.readingBytes} bytes)`])),
      'within the goal': `hosts of up to ${mostCoresWithinGoal()} cores (each core's share is two bytes)`,
    },
  );
}

/** A ratio as a percentage, and a paired ratio with its 95 % interval: the profile-cost sections' words. */
const percent = (value: number) => `${(value * 100).toFixed(1)} %`;
const withInterval = (cost: PairedRatio | null) => (cost ? `${percent(cost.ratio)} (95 % interval ${percent(cost.low)}–${percent(cost.high)})` : 'n/a');

if (wanted('profile-cost')) {
  const profileCost = await benchProfileCost();
  if (profileCost.skipped) console.log(`\nThe server's CPU profile, its cost: skipped (${profileCost.skipped})`);
  else {
    const figures: Record<string, string> = {};
    for (const row of profileCost.rows) {
      const runs = row.runs.map((one) => `${one.profile ? 'on' : 'off'} ${one.rps.toFixed(0)}`).join(', ');
      figures[`${row.template} req/s`] = `on/off ${withInterval(row.cost.rps)} (goal >= 98 %); two alike runs apart by ${percent(row.sameSpread.rps)} (runs ${runs})`;
      figures[`${row.template} p99`] = `on/off ${withInterval(row.cost.p99)} (goal <= 102 %); two alike runs apart by ${percent(row.sameSpread.p99)}`;
      figures[`${row.template} goal`] = profileCostVerdict(row.cost);
      const cpu = row.runs.map((one) => `${one.profile ? 'on' : 'off'} ${one.cpuPerAnswerUs.toFixed(1)}`).join(', ');
      figures[`${row.template} server CPU per answer`] = `on/off ${withInterval(row.cost.cpu)} (within 2 %: ${profileCpuVerdict(row.cost)}); two alike runs apart by ${percent(row.sameSpread.cpu)} (µs: ${cpu})`;
      figures[`${row.template} ${PROFILE_SIZE_RUN_S} s stored`] = row.size
        ? `${(row.size.bytes / 1024).toFixed(0)} KB (${row.size.tool}: ${row.size.samples.toLocaleString('en-US')} samples, ${row.size.stacks.toLocaleString('en-US')} stacks; goal <= 2048 KB)`
        : 'no profile captured';
    }
    figures['machine load'] = `load average ${loadavg()[0]!.toFixed(2)} after the runs`;
    print(
      `The server's CPU profile, its cost (lab: ${PROFILE_COST_LOAD.path}, closed model, ${PROFILE_COST_LOAD.connections} connections, ${PROFILE_COST_LOAD.durationS} s after ${PROFILE_COST_LOAD.warmupS} s warm-up; client and server each pinned to a core; ${PROFILE_COST_BLOCKS} blocks of on, off, off, on; geometric means of adjacent on/off pairs)`,
      figures,
    );
  }
}

if (wanted('profile-cost-side-by-side')) {
  const sideBySide = await benchProfileCostSideBySide();
  const { cost, alike } = sideBySide;
  print(
    `The V8 profile's cost side by side (two Node template servers on one core, loaded at once on ${PROFILE_COST_LOAD.path}, one profiled as a run profiles it; ${SIDE_BY_SIDE_CYCLES} cycles: first profiled, second profiled, neither; profiled over unprofiled, geometric means)`,
    {
      'req/s': `${withInterval(cost.rps)} (goal >= 98 %); servers alike ${withInterval(alike.rps)}`,
      p99: `${withInterval(cost.p99)} (goal <= 102 %); servers alike ${withInterval(alike.p99)}`,
      goal: profileCostVerdict(cost),
      'CPU per answer': `${withInterval(cost.cpu)} (within 2 %: ${profileCpuVerdict(cost)}); servers alike ${withInterval(alike.cpu)}`,
      'main thread per answer': `${withInterval(cost.mainCpu)}; servers alike ${withInterval(alike.mainCpu)}`,
      'rounds profiled': `${sideBySide.rounds}, each profile at least ${sideBySide.fewestSamples} samples`,
      'machine load': `load average ${loadavg()[0]!.toFixed(2)} after the rounds`,
    },
  );
}

if (wanted('agent-stop')) {
  const stop = await benchAgentStop();
  print('Load agent stopping (loopback, closed model, 4 connections)', {
    'stop → last request ms': `${stop.stopToLastRequestMs} (goal < 1000)`,
    'stop → agent exit ms': `${stop.stopToExitMs} (goal < 1500)`,
    'stdin closed → exit ms': `${stop.stdinClosedToExitMs} (Benchlab gone; goal < 1500)`,
    'heard nothing → exit ms': `${stop.silenceToExitMs} (timeout ${stop.heartbeatTimeoutMs}; goal < 5000)`,
  });
}

if (wanted('chart-lag')) {
  const lag = await benchChartLag();
  print('Agent second boundary → Run page chart updated (web mode, Chromium, This machine)', {
    seconds: lag.seconds,
    'median ms': `${lag.medianMs} (goal < 250)`,
    'p90 ms': lag.p90Ms,
    'max ms': lag.maxMs,
  });
}
