// Regenerates tests/fixtures/imports/tools/: results files made by running each load tool against
// a small Node server on 127.0.0.1 (nothing else is ever a target), each run bounded in requests or
// seconds, each file small. The importers' tests read the committed files; this script is how they
// were made, and its README.md (written here) records each file's command and the tool's version.
//
//   node scripts/make-import-fixtures.ts [tool...]      (default: every tool found)
//
// The tools are not the project's dependencies and npm test never runs them. Install them with
// their ordinary clients, then point the script at them if they are not on PATH:
//   ab, siege           apt-get install apache2-utils siege             (Debian: ab 2.3, siege 4.0.7)
//   jmeter              apt-get install jmeter jmeter-http (Debian: JMeter 2.13), and the XStream it was
//                       made with, which Debian's newer one replaces and which refuses its test plans:
//                       mvn dependency:get -Dartifact=com.thoughtworks.xstream:xstream:1.4.8
//   wrk                 apt-get install wrk
//   hey, vegeta,        GOBIN=$DIR go install github.com/rakyll/hey@latest github.com/tsenart/vegeta/v12@latest
//   bombardier            github.com/codesenberg/bombardier@latest
//   oha                 cargo install oha --locked --root $DIR
//   locust              python3 -m venv $DIR/venv && $DIR/venv/bin/pip install locust
//   artillery, loadtest npm install --prefix $DIR artillery loadtest
//   autocannon          the project's own devDependency
//   gatling             java, javac and mvn: the script fetches Gatling 3.9.5 with mvn and runs a
//                       Java simulation (Gatling 3.12+ writes a binary simulation.log)
// BENCHLAB_FIXTURE_TOOLS=$DIR/bin:$DIR/venv/bin:$DIR/node_modules/.bin is searched before PATH.
//   wrk2                in no package registry: build it from its source (`make`, which builds its own
//                       LuaJIT) and put its `wrk` binary on the search path as `wrk2`

import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, get, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { homedir, tmpdir } from 'node:os';
import { delimiter, join } from 'node:path';

const OUT = join(import.meta.dirname, '../tests/fixtures/imports/tools');
const SEARCH = [...(process.env.BENCHLAB_FIXTURE_TOOLS ?? '').split(delimiter).filter(Boolean), join(import.meta.dirname, '../node_modules/.bin'), ...(process.env.PATH ?? '').split(delimiter)];

/** The server's behaviour by path segment: /fail answers every 10th with 500, /reset closes every 100th socket unanswered, /len answers every 25th with a longer body, /assert every 20th with another body, /slow holds every 200th for 1.5 s. Every 7th answer is 3 ms late, every 50th 20 ms. */
function handler(counts: Map<string, number>) {
  return (request: IncomingMessage, response: ServerResponse) => {
    const path = (request.url ?? '/').split('?')[0]!;
    if (path === '/__reset') {
      counts.clear();
      return response.end('reset\n');
    }
    const n = (counts.get(path) ?? 0) + 1;
    counts.set(path, n);
    const has = (segment: string) => path.split('/').includes(segment);
    request.resume();
    if (has('reset') && n % 100 === 0) return request.socket.destroy();
    const status = has('fail') && n % 10 === 0 ? 500 : 200;
    const body = has('len') && n % 25 === 0 ? 'hello world, longer\n' : has('assert') && n % 20 === 0 ? 'oops world\n' : 'hello world\n';
    const delay = has('slow') && n % 200 === 0 ? 1500 : n % 50 === 0 ? 20 : n % 7 === 0 ? 3 : 0;
    const send = () => response.writeHead(status, { 'content-type': 'text/plain', 'content-length': Buffer.byteLength(body) }).end(body);
    if (delay === 0) send();
    else setTimeout(send, delay);
  };
}

function which(tool: string): string | null {
  if (tool === 'jmeter') return existsSync('/usr/share/jmeter/bin/ApacheJMeter.jar') ? '/usr/share/jmeter/bin/ApacheJMeter.jar' : null;
  if (tool === 'gatling') return which('mvn') && which('javac') ? 'mvn' : null;
  for (const dir of SEARCH) if (existsSync(join(dir, tool))) return join(dir, tool);
  return null;
}

interface Made {
  file: string;
  command: string;
  version: string;
}

const made: Made[] = [];

/** Runs a tool (at most `timeoutS` seconds), returns its stdout; a failure ends the script. */
function run(command: string[], options: { timeoutS?: number; cwd?: string; env?: Record<string, string>; okCodes?: number[] } = {}): { stdout: string; stderr: string } {
  const result = spawnSync(command[0]!, command.slice(1), { encoding: 'utf8', timeout: (options.timeoutS ?? 60) * 1000, cwd: options.cwd, env: { ...process.env, ...options.env }, maxBuffer: 64 * 1024 * 1024 });
  if (result.error) throw result.error;
  if (!(options.okCodes ?? [0]).includes(result.status ?? -1)) throw new Error(`${command.join(' ')} exited ${result.status}: ${result.stderr.slice(0, 400)}`);
  return { stdout: result.stdout, stderr: result.stderr };
}

/** A Go program's module version, as `go install` recorded it in the binary. */
function goVersion(binary: string): string {
  const line = /^\s+mod\s+(\S+)\s+(\S+)/m.exec(run(['go', 'version', '-m', binary]).stdout);
  return line ? `${line[1]!.split('/').slice(-2).join('/')} ${line[2]}` : '?';
}

function save(file: string, text: string, command: string, version: string): void {
  writeFileSync(join(OUT, file), text);
  made.push({ file, command, version });
  console.log(`${file}: ${text.length} bytes`);
}

/** A command line as written in the README: the tool's name, the loopback URL as $URL. */
function shown(command: string[], url: string): string {
  return command.map((part) => part.replaceAll(url, '$URL').replace(/^\/.*\//, '')).join(' ');
}

type Maker = (url: string, work: string) => void;

const MAKERS: Record<string, Maker> = {
  ab(url) {
    const ab = which('ab')!;
    const version = /Version (\S+)/.exec(run([ab, '-V']).stdout)![1]!;
    const hello = [ab, '-n', '2000', '-c', '10', `${url}/hello`];
    save('ab-hello.txt', run(hello).stdout, shown(hello, url), version);
    const closed = [ab, '-n', '3000', '-c', '10', `${url}/fail/reset`];
    save('ab-closed.txt', run(closed).stdout, shown(closed, url), version);
    const lengths = [ab, '-n', '1000', '-c', '5', `${url}/len`];
    save('ab-lengths.txt', run(lengths).stdout, shown(lengths, url), version);
    const tsv = join(OUT, 'ab-g.tsv');
    const withG = [ab, '-n', '3000', '-c', '2', '-g', tsv, `${url}/hello`];
    save('ab-g-run.txt', run(withG).stdout, shown(withG, url).replace(tsv, 'ab-g.tsv'), version);
    made.push({ file: 'ab-g.tsv', command: 'the same run', version });
  },
  hey(url) {
    const hey = which('hey')!;
    const command = [hey, '-n', '1000', '-c', '10', '-o', 'csv', `${url}/fail`];
    save('hey.csv', run(command).stdout, shown(command, url), goVersion(hey));
  },
  vegeta(url, work) {
    const vegeta = which('vegeta')!;
    const version = goVersion(vegeta);
    const bin = join(work, 'vegeta.bin');
    writeFileSync(join(work, 'targets'), `GET ${url}/fail/reset\n`);
    run([vegeta, 'attack', '-targets', join(work, 'targets'), '-rate', '200', '-duration', '2s', '-output', bin]);
    save('vegeta.csv', run([vegeta, 'encode', '--to', 'csv', bin]).stdout, `echo "GET $URL/fail/reset" | vegeta attack -rate 200 -duration 2s | vegeta encode --to csv`, version);
    save('vegeta.ndjson', run([vegeta, 'encode', '--to', 'json', bin]).stdout, 'the same attack | vegeta encode --to json', version);
  },
  bombardier(url) {
    const bombardier = which('bombardier')!;
    const version = goVersion(bombardier);
    const command = [bombardier, '-c', '10', '-n', '2000', '-l', '-p', 'r', '-o', 'json', `${url}/fail/reset`];
    save('bombardier.json', run(command).stdout, shown(command, url), version);
  },
  wrk2(url) {
    const wrk2 = which('wrk2')!;
    // wrk2 prints wrk's usage (with its version) for -v, on stderr, and exits 1.
    const version = /wrk (\S+)/.exec(run([wrk2, '-v'], { okCodes: [0, 1] }).stderr + run([wrk2, '-v'], { okCodes: [0, 1] }).stdout)?.[1] ?? 'unknown';
    const command = [wrk2, '-t1', '-c10', '-d3s', '-R500', '--latency', `${url}/fail`];
    save('wrk2-latency.txt', run(command, { timeoutS: 30 }).stdout, shown(command, url), `wrk2 (prints wrk ${version})`);
    const uncorrected = [wrk2, '-t1', '-c10', '-d3s', '-R500', '-U', '--latency', `${url}/fail`];
    save('wrk2-uncorrected.txt', run(uncorrected, { timeoutS: 30 }).stdout, shown(uncorrected, url), `wrk2 (prints wrk ${version})`);
  },
  oha(url) {
    const oha = which('oha')!;
    const version = run([oha, '--version']).stdout.trim();
    const json = [oha, '-n', '2000', '-c', '10', '--no-tui', '--output-format', 'json', `${url}/fail/reset`];
    save('oha.json', run(json).stdout, shown(json, url), version);
    // Nothing listens on port 9 of loopback here: every request is refused.
    const refused = [oha, '-z', '1s', '-c', '2', '--no-tui', '--output-format', 'json', 'http://127.0.0.1:9/'];
    save('oha-refused.json', run(refused).stdout, shown(refused, url), version);
    const csv = [oha, '-n', '2000', '-c', '10', '--no-tui', '--output-format', 'csv', `${url}/fail/reset`];
    save('oha.csv', run(csv).stdout, shown(csv, url), version);
  },
  siege(url, work) {
    const siege = which('siege')!;
    const version = /SIEGE (\S+)/.exec(run([siege, '--version']).stderr + run([siege, '--version']).stdout)?.[1] ?? '?';
    // siege reads ~/.siege/siege.conf, made from its template on first use: a fresh HOME keeps
    // the user's settings out; the template's json_output = true is siege 4.0's default.
    const env = { HOME: work };
    run([siege, '-C'], { env });
    const log = join(work, 'siege.log');
    const json = [siege, '-c', '5', '-r', '200', '-b', `--log=${log}`, `${url}/fail`];
    save('siege.json', run(json, { env, timeoutS: 60 }).stdout, shown(json, url).replace(log, 'siege.log'), version);
    const conf = join(work, '.siege/siege.conf');
    writeFileSync(conf, readFileSync(conf, 'utf8').replace(/^json_output = true$/m, 'json_output = false').replace(/^verbose = true$/m, 'verbose = false'));
    const text = [siege, '-c', '5', '-t', '2S', '-b', `--log=${log}`, `${url}/fail`];
    const result = run(text, { env, timeoutS: 60 });
    save('siege.txt', result.stdout + result.stderr, `${shown(text, url).replace(log, 'siege.log')} (json_output = false, verbose = false; stdout and stderr)`, version);
    save('siege.log', readFileSync(log, 'utf8'), 'the log of both runs above', version);
  },
  locust(url, work) {
    const locust = which('locust')!;
    const version = /locust (\S+)/.exec(run([locust, '--version']).stdout)![1]!;
    writeFileSync(join(work, 'locustfile.py'), 'from locust import HttpUser, task, constant\n\nclass Hello(HttpUser):\n    wait_time = constant(0.01)\n\n    @task\n    def fail(self):\n        self.client.get("/fail")\n');
    const command = [locust, '-f', 'locustfile.py', '--headless', '-u', '5', '-r', '5', '-t', '6s', '--csv', 'locust', '-H', url];
    // locust exits 1 when any request failed, as /fail's every 10th does.
    run(command, { cwd: work, timeoutS: 60, okCodes: [0, 1] });
    save('locust_stats.csv', readFileSync(join(work, 'locust_stats.csv'), 'utf8'), `${shown(command, url)} (5 users, 10 ms apart, on /fail)`, version);
    save('locust_stats_history.csv', readFileSync(join(work, 'locust_stats_history.csv'), 'utf8'), 'the same run', version);
    save('locust_failures.csv', readFileSync(join(work, 'locust_failures.csv'), 'utf8'), 'the same run', version);
  },
  autocannon(url) {
    const autocannon = which('autocannon')!;
    const version = JSON.parse(readFileSync(join(import.meta.dirname, '../node_modules/autocannon/package.json'), 'utf8')).version as string;
    const command = [autocannon, '-c', '10', '-a', '2000', '-j', `${url}/fail/reset`];
    save('autocannon.json', run(command).stdout, shown(command, url), version);
  },
  artillery(url, work) {
    const artillery = which('artillery')!;
    const version = /Artillery:?\s+(\S+)/i.exec(run([artillery, 'version'], { env: { ARTILLERY_DISABLE_TELEMETRY: 'true' } }).stdout)?.[1] ?? '?';
    writeFileSync(join(work, 'artillery.yml'), `config:\n  target: "${url}"\n  phases:\n    - duration: 3\n      arrivalRate: 50\nscenarios:\n  - flow:\n      - get:\n          url: "/fail/reset"\n`);
    const report = join(work, 'artillery.json');
    run([artillery, 'run', '--output', report, join(work, 'artillery.yml')], { env: { ARTILLERY_DISABLE_TELEMETRY: 'true' }, timeoutS: 120 });
    save('artillery.json', readFileSync(report, 'utf8'), 'artillery run --output artillery.json artillery.yml (3 s at 50 arrivals/s, GET $URL/fail/reset)', version);
  },
  loadtest(url) {
    const loadtest = which('loadtest')!;
    const version = JSON.parse(readFileSync(join(loadtest, '../../loadtest/package.json'), 'utf8')).version as string;
    const command = [loadtest, '-n', '2000', '-c', '10', '--rps', '500', `${url}/fail`];
    save('loadtest.txt', run(command, { timeoutS: 60 }).stdout, shown(command, url), version);
  },
  gatling(url, work) {
    const version = GATLING_VERSION;
    writeFileSync(join(work, 'pom.xml'), `<project xmlns="http://maven.apache.org/POM/4.0.0"><modelVersion>4.0.0</modelVersion><groupId>fixture</groupId><artifactId>gatling-fixture</artifactId><version>1</version>
<dependencies><dependency><groupId>io.gatling.highcharts</groupId><artifactId>gatling-charts-highcharts</artifactId><version>${version}</version></dependency></dependencies></project>\n`);
    run(['mvn', '-q', 'dependency:build-classpath', '-Dmdep.outputFile=classpath.txt'], { cwd: work, timeoutS: 600 });
    const classpath = readFileSync(join(work, 'classpath.txt'), 'utf8').trim();
    mkdirSync(join(work, 'src/fixture'), { recursive: true });
    mkdirSync(join(work, 'classes'));
    writeFileSync(join(work, 'src/fixture/Fixture.java'), `package fixture;
import static io.gatling.javaapi.core.CoreDsl.*;
import static io.gatling.javaapi.http.HttpDsl.*;
import io.gatling.javaapi.core.*;
public class Fixture extends Simulation {
  { setUp(scenario("fixture").exec(http("fail").get("/fail/reset")).injectOpen(constantUsersPerSec(50).during(3))).protocols(http.baseUrl(System.getProperty("url"))); }
}
`);
    // Gatling logs at DEBUG without a configuration: the console keeps its own blocks only.
    writeFileSync(join(work, 'classes/logback.xml'), '<configuration><root level="WARN"/></configuration>\n');
    run(['javac', '-cp', classpath, '-d', join(work, 'classes'), join(work, 'src/fixture/Fixture.java')], { timeoutS: 120 });
    const results = join(work, 'results');
    const command = ['java', `-Durl=${url}`, '-cp', `${join(work, 'classes')}:${classpath}`, 'io.gatling.app.Gatling', '-s', 'fixture.Fixture', '-rf', results];
    const console = run(command, { timeoutS: 180 }).stdout;
    const what = '(a Java simulation: 50 users/s for 3 s, each one GET $URL/fail/reset)';
    save('gatling-console.txt', console, `java -cp … io.gatling.app.Gatling -s fixture.Fixture ${what}, its console`, version);
    const runDir = readdirSync(results).find((name) => name.startsWith('fixture-'))!;
    save('gatling-simulation.log', readFileSync(join(results, runDir, 'simulation.log'), 'utf8'), 'the same run, its simulation.log', version);
  },
  jmeter(url, work) {
    const jmeter = jmeterCommand();
    const version = /Version (\S+)/.exec(run([...jmeter, '--version'], { timeoutS: 120, cwd: work }).stdout)?.[1] ?? '?';
    const { port } = new URL(url);
    const plan = (transaction: boolean) => join(work, transaction ? 'transaction.jmx' : 'plan.jmx');
    writeFileSync(plan(false), jmxPlan(Number(port), false));
    writeFileSync(plan(true), jmxPlan(Number(port), true));
    const jtl = (name: string, transaction: boolean, properties: string[]) => {
      const out = join(work, name);
      rmSync(out, { force: true });
      run([...jmeter, '-n', '-t', plan(transaction), '-l', out, ...properties.map((p) => `-J${p}`)], { cwd: work, timeoutS: 180 });
      const what = transaction ? 'a transaction controller (parent sample) of two requests, 2 threads × 100 loops' : '2 threads × 300 loops of GET /assert/reset with a response assertion "hello"';
      save(name, readFileSync(out, 'utf8'), `jmeter -n -t plan.jmx -l ${name} ${properties.map((p) => `-J${p}`).join(' ')} (${what})`.replace('  ', ' '), version);
    };
    jtl('jmeter-default.csv', false, []);
    jtl('jmeter-header.csv', false, ['jmeter.save.saveservice.print_field_names=true']);
    jtl('jmeter-transaction.csv', true, []);
    jtl('jmeter.xml', false, ['jmeter.save.saveservice.output_format=xml']);
  },
};

/** The last Gatling whose simulation.log is text (3.12 made it binary). */
const GATLING_VERSION = '3.9.5';

const XSTREAM_1_4_8 = join(homedir(), '.m2/repository/com/thoughtworks/xstream/xstream/1.4.8/xstream-1.4.8.jar');

/** Debian's JMeter 2.13 run with the XStream it was made with, ahead of Debian's, on a current JVM. */
function jmeterCommand(): string[] {
  if (!existsSync(XSTREAM_1_4_8)) throw new Error(`JMeter 2.13 needs XStream 1.4.8 at ${XSTREAM_1_4_8}: mvn dependency:get -Dartifact=com.thoughtworks.xstream:xstream:1.4.8`);
  const opens = ['java.base/java.util', 'java.base/java.lang', 'java.base/java.lang.reflect', 'java.base/java.text', 'java.desktop/java.awt.font'].flatMap((module) => ['--add-opens', `${module}=ALL-UNNAMED`]);
  return ['java', ...opens, '-cp', `${XSTREAM_1_4_8}:/usr/share/jmeter/bin/ApacheJMeter.jar`, '-Djmeter.home=/usr/share/jmeter', 'org.apache.jmeter.NewDriver'];
}

/** A JMeter 2.x test plan: 2 threads against 127.0.0.1, a response assertion; or a transaction controller with a parent sample. */
function jmxPlan(port: number, transaction: boolean): string {
  const sampler = (name: string, path: string) => `<HTTPSamplerProxy guiclass="HttpTestSampleGui" testclass="HTTPSamplerProxy" testname="${name}" enabled="true">
          <elementProp name="HTTPsampler.Arguments" elementType="Arguments"><collectionProp name="Arguments.arguments"/></elementProp>
          <stringProp name="HTTPSampler.domain">127.0.0.1</stringProp>
          <stringProp name="HTTPSampler.port">${port}</stringProp>
          <stringProp name="HTTPSampler.protocol">http</stringProp>
          <stringProp name="HTTPSampler.path">${path}</stringProp>
          <stringProp name="HTTPSampler.method">GET</stringProp>
          <boolProp name="HTTPSampler.use_keepalive">true</boolProp>
        </HTTPSamplerProxy>
        <hashTree>
          <ResponseAssertion guiclass="AssertionGui" testclass="ResponseAssertion" testname="says hello" enabled="true">
            <collectionProp name="Asserion.test_strings"><stringProp name="99047">hello</stringProp></collectionProp>
            <stringProp name="Assertion.test_field">Assertion.response_data</stringProp>
            <boolProp name="Assertion.assume_success">false</boolProp>
            <intProp name="Assertion.test_type">2</intProp>
          </ResponseAssertion>
          <hashTree/>
        </hashTree>`;
  const body = transaction
    ? `<TransactionController guiclass="TransactionControllerGui" testclass="TransactionController" testname="login" enabled="true">
          <boolProp name="TransactionController.parent">true</boolProp>
          <boolProp name="TransactionController.includeTimers">false</boolProp>
        </TransactionController>
        <hashTree>
        ${sampler('hello', '/hello')}
        ${sampler('fail', '/fail')}
        </hashTree>`
    : sampler('assert', '/assert/reset');
  return `<?xml version="1.0" encoding="UTF-8"?>
<jmeterTestPlan version="1.2" properties="2.8" jmeter="2.13">
  <hashTree>
    <TestPlan guiclass="TestPlanGui" testclass="TestPlan" testname="fixture" enabled="true">
      <elementProp name="TestPlan.user_defined_variables" elementType="Arguments"><collectionProp name="Arguments.arguments"/></elementProp>
    </TestPlan>
    <hashTree>
      <ThreadGroup guiclass="ThreadGroupGui" testclass="ThreadGroup" testname="users" enabled="true">
        <stringProp name="ThreadGroup.on_sample_error">continue</stringProp>
        <elementProp name="ThreadGroup.main_controller" elementType="LoopController" guiclass="LoopControlPanel" testclass="LoopController" enabled="true">
          <boolProp name="LoopController.continue_forever">false</boolProp>
          <stringProp name="LoopController.loops">${transaction ? 100 : 300}</stringProp>
        </elementProp>
        <stringProp name="ThreadGroup.num_threads">2</stringProp>
        <stringProp name="ThreadGroup.ramp_time">0</stringProp>
        <boolProp name="ThreadGroup.scheduler">false</boolProp>
      </ThreadGroup>
      <hashTree>
        ${body}
      </hashTree>
    </hashTree>
  </hashTree>
</jmeterTestPlan>
`;
}

/** The server runs in a child process of its own: the tools run through spawnSync, which blocks this one. */
async function startServer(): Promise<{ url: string; stop: () => void }> {
  const child = spawn(process.execPath, [import.meta.filename, '--serve'], { stdio: ['ignore', 'pipe', 'inherit'] });
  const url = await new Promise<string>((resolve, reject) => {
    child.stdout.setEncoding('utf8').once('data', (line: string) => resolve(line.trim()));
    child.once('exit', (code) => reject(new Error(`the fixture server exited ${code}`)));
  });
  return { url, stop: () => child.kill() };
}

async function serve(): Promise<void> {
  const server = createServer(handler(new Map()));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  process.stdout.write(`http://127.0.0.1:${(server.address() as AddressInfo).port}\n`);
}

async function main(): Promise<void> {
  if (process.argv[2] === '--serve') return serve();
  const asked = process.argv.slice(2);
  const tools = (asked.length > 0 ? asked : Object.keys(MAKERS)).filter((tool) => {
    if (!MAKERS[tool]) throw new Error(`no such tool: ${tool} (known: ${Object.keys(MAKERS).join(', ')})`);
    if (which(tool)) return true;
    console.warn(`${tool}: not found on BENCHLAB_FIXTURE_TOOLS or PATH, its files are left as they are`);
    return false;
  });
  mkdirSync(OUT, { recursive: true });
  const server = await startServer();
  try {
    for (const tool of tools) {
      const work = mkdtempSync(join(tmpdir(), `fixture-${tool}-`));
      // Every tool meets the server as new: the every-Nth counts start again.
      await new Promise((resolve, reject) => get(`${server.url}/__reset`, { agent: false }, (response) => response.resume().on('end', resolve)).on('error', reject));
      try {
        MAKERS[tool]!(server.url, work);
      } finally {
        rmSync(work, { recursive: true, force: true });
      }
    }
  } finally {
    server.stop();
  }
  writeReadme();
}

function writeReadme(): void {
  const path = join(OUT, 'README.md');
  const old = existsSync(path) ? readFileSync(path, 'utf8') : '';
  const rows = new Map<string, string>();
  for (const match of old.matchAll(/^\| `([^`]+)` \| (.*) \|$/gm)) rows.set(match[1]!, `| \`${match[1]}\` | ${match[2]} |`);
  for (const entry of made) rows.set(entry.file, `| \`${entry.file}\` | ${entry.version.replaceAll('|', '/')} | \`${entry.command.replaceAll('|', '\\|')}\` |`);
  writeFileSync(
    path,
    `# Import fixtures made by the real tools

Written by \`node scripts/make-import-fixtures.ts\`: each tool run against a small Node server on
127.0.0.1 (see the script for what each path does), bounded in requests or seconds.

| file | tool version | command |
|---|---|---|
${[...rows.keys()].sort().map((file) => rows.get(file)).join('\n')}
`,
  );
}

await main();
