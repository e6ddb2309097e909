// Figures for the server templates with a build step (the JVM ones: Maven; the Node ones: npm ci and
// esbuild): the build from a warm cache (a full build of a fresh copy, after one untimed build that
// warms the local Maven repository or npm cache), the artifact's size (the runnable jar, the
// bundle), and on the lab's server host the time from "deploy" to ready (the deploy pipeline's own
// readyMs: check, cached build, upload, start, readiness), again with nothing changed, with the
// database knob on where the template has one (the private PostgreSQL's start included), and the
// server's resident memory once ready, before any load.

import { spawnSync } from 'node:child_process';
import { cpSync, mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, dirname, join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { sharedFolders } from '../app/templates/templates.ts';
import { bundledPaths, loadCatalog } from '../main/services/templates/catalog.ts';
import { labSkipReason } from '../tests/support/lab-hosts.ts';
import { templateLab } from '../tests/support/template-lab.ts';

export const JVM_TEMPLATES = ['tomcat', 'undertow', 'vertx', 'spray'] as const;
/** The templates issue 18 added: Spring Boot, Jetty and the Node frameworks. */
export const FRAMEWORK_TEMPLATES = ['spring-boot', 'jetty', 'node-express', 'node-fastify', 'node-restify'] as const;
const PORT = 18195;

export interface TemplateFigures {
  id: string;
  warmBuildMs: number;
  /** The build step's first artifact: the jar, or the bundle. */
  artifact: string;
  artifactBytes: number;
  /** Deploy to ready with the artifact to upload, then again with nothing changed; null without the lab. */
  firstDeployMs: number | null;
  againDeployMs: number | null;
  /** Deploy to ready with the database knob on; null without the lab or a database. */
  databaseDeployMs: number | null;
  /** VmRSS of the server process right after it answered its readiness check. */
  rssKiB: number | null;
}

/**
 * One timed `mvn package` of a copy of the template's folder (without its build output), with the
 * folders it shares (jvm-common) copied beside it as in server-templates/.
 */
function timedBuild(dir: string, shared: readonly string[], command: string[], artifact: string): { ms: number; bytes: number } {
  const root = mkdtempSync(join(tmpdir(), 'benchlab-bench-build-'));
  const copy = join(root, basename(dir));
  const withoutOutput = (from: string) => (source: string) => !['target', 'node_modules', 'dist'].some((output) => source.startsWith(join(from, output)));
  try {
    cpSync(dir, copy, { recursive: true, filter: withoutOutput(dir) });
    for (const folder of shared) {
      const from = join(dirname(dir), folder);
      cpSync(from, join(root, folder), { recursive: true, filter: withoutOutput(from) });
    }
    const started = performance.now();
    const result = spawnSync(command[0]!, command.slice(1), { cwd: copy, encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 });
    const ms = performance.now() - started;
    if (result.status !== 0) throw new Error(`${command.join(' ')} failed in ${dir}:\n${(result.stdout + result.stderr).split('\n').slice(-15).join('\n')}`);
    return { ms, bytes: statSync(join(copy, artifact)).size };
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
}

export async function benchTemplates(ids: readonly string[]): Promise<{ rows: TemplateFigures[]; labSkipped: string | null }> {
  const catalog = await loadCatalog(bundledPaths().templatesDir);
  const rows: TemplateFigures[] = [];
  const databaseKnobs = new Map<string, string>();
  for (const id of ids) {
    const entry = catalog.entries.find((candidate) => candidate.manifest.id === id);
    const step = entry?.manifest.build[0];
    if (!entry || !step) throw new Error(`template ${id} is missing or has no build step`);
    const artifact = step.artifacts[0]!;
    const shared = sharedFolders(entry.manifest);
    timedBuild(entry.dir, shared, step.command, artifact); // warms the local Maven repository or npm cache
    const build = timedBuild(entry.dir, shared, step.command, artifact);
    rows.push({ id, warmBuildMs: build.ms, artifact, artifactBytes: build.bytes, firstDeployMs: null, againDeployMs: null, databaseDeployMs: null, rssKiB: null });
    if (entry.manifest.database) databaseKnobs.set(id, entry.manifest.database.knob);
  }

  const labSkipped = labSkipReason();
  if (labSkipped) return { rows, labSkipped };
  const lab = await templateLab('bench');
  try {
    const transport = lab.connections.transportFor(lab.hostId);
    // Start from an empty template folder on the host, so the first deploy uploads the jar.
    await transport.exec(`rm -rf '${lab.root}/templates'`);
    for (const row of rows) {
      const first = await lab.service.deploy(lab.hostId, row.id, { port: PORT });
      row.firstDeployMs = first.readyMs;
      const rss = await transport.exec(`awk '/^VmRSS:/ { print $2 }' "/proc/$(cat '${lab.run}/server.pid')/status"`);
      row.rssKiB = /^\d+$/.test(rss.stdout.trim()) ? Number(rss.stdout.trim()) : null;
      const again = await lab.service.deploy(lab.hostId, row.id, { port: PORT });
      row.againDeployMs = again.readyMs;
      const knob = databaseKnobs.get(row.id);
      if (knob) row.databaseDeployMs = (await lab.service.deploy(lab.hostId, row.id, { port: PORT, knobs: { [knob]: true } })).readyMs;
      await lab.service.stop(lab.hostId);
    }
  } finally {
    await lab.service.stop(lab.hostId).catch(() => undefined);
    await lab.close();
  }
  return { rows, labSkipped: null };
}

export function benchJvmTemplates(): Promise<{ rows: TemplateFigures[]; labSkipped: string | null }> {
  return benchTemplates(JVM_TEMPLATES);
}

export function benchFrameworkTemplates(): Promise<{ rows: TemplateFigures[]; labSkipped: string | null }> {
  return benchTemplates(FRAMEWORK_TEMPLATES);
}
