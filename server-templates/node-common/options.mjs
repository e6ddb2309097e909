// The command line every Node template takes (the start command of its template.json), checked:
// --port, --variant async|sync, --workers N (node:cluster when N > 1), --cache-file true|false and
// --payload <file>. The database comes from the environment (BENCHLAB_DB_URL), not from here.

import process from 'node:process';

export function parseOptions(argv) {
  const options = { port: 8080, variant: 'async', workers: 1, payload: null, cacheFile: false };
  for (let i = 0; i < argv.length; i += 2) {
    const [name, value] = [argv[i], argv[i + 1]];
    if (name === '--port') options.port = Number(value);
    else if (name === '--variant') options.variant = value;
    else if (name === '--workers') options.workers = Number(value);
    else if (name === '--payload') options.payload = value;
    else if (name === '--cache-file') options.cacheFile = value === 'true';
    else throw new Error(`unknown option ${name}`);
  }
  if (!Number.isInteger(options.port) || options.port < 1 || options.port > 65535) throw new Error(`--port must be 1-65535`);
  if (options.variant !== 'async' && options.variant !== 'sync') throw new Error(`--variant must be async or sync`);
  if (!Number.isInteger(options.workers) || options.workers < 1) throw new Error(`--workers must be a positive whole number`);
  if (!options.payload) throw new Error('--payload is required');
  return options;
}

/** The options of this process's command line; a bad one ends the process with its reason (exit code 2). */
export function optionsFromCommandLine() {
  try {
    return parseOptions(process.argv.slice(2));
  } catch (error) {
    process.stderr.write(`${error.message}\n`);
    process.exit(2);
  }
}
