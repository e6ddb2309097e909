import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, writeFileSync, mkdirSync, cpSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, test } from 'node:test';
import { generatePayload, PAYLOAD_BYTES } from '../../../scripts/generate-payload.ts';
import { bundledPaths, loadCatalog } from './catalog.ts';

describe('template catalog', () => {
  const scratch = mkdtempSync(join(tmpdir(), 'benchlab-catalog-'));
  after(() => rmSync(scratch, { recursive: true, force: true }));

  test('the bundled catalog holds every template, nothing broken', async () => {
    const catalog = await loadCatalog(bundledPaths().templatesDir);
    assert.deepEqual(catalog.broken, []);
    assert.deepEqual(catalog.entries.map((entry) => entry.manifest.id), ['apache-static', 'jetty', 'node', 'node-0-8', 'node-express', 'node-fastify', 'node-restify', 'spray', 'spring-boot', 'spring-boot-3', 'tomcat', 'undertow', 'vertx']);
  });

  test('the committed payload is the generator output: 44032 bytes', () => {
    const payload = readFileSync(bundledPaths().payloadFile);
    assert.equal(payload.length, PAYLOAD_BYTES);
    assert.ok(payload.equals(generatePayload()));
  });

  test('broken folders are listed with their reason and do not hide the good ones', async () => {
    // The node template with the folder its build shares with the other Node templates.
    for (const folder of ['node', 'node-common']) cpSync(join(bundledPaths().templatesDir, folder), join(scratch, folder), { recursive: true });
    mkdirSync(join(scratch, 'no-manifest'));
    mkdirSync(join(scratch, 'bad-json'));
    writeFileSync(join(scratch, 'bad-json', 'template.json'), '{ "schema": 1,');
    mkdirSync(join(scratch, 'missing-file'));
    const manifest = JSON.parse(readFileSync(join(scratch, 'node', 'template.json'), 'utf8')) as Record<string, unknown>;
    writeFileSync(join(scratch, 'missing-file', 'template.json'), JSON.stringify({ ...manifest, id: 'missing-file' }));
    const catalog = await loadCatalog(scratch);
    assert.deepEqual(catalog.entries.map((entry) => entry.manifest.id), ['node']);
    assert.deepEqual(
      catalog.broken.map((entry) => entry.folder),
      ['bad-json', 'missing-file', 'no-manifest'],
    );
    assert.match(catalog.broken[0]!.error, /template\.json is not valid JSON/);
    assert.match(catalog.broken[1]!.error, /files: README\.md does not exist in the folder/);
    assert.equal(catalog.broken[2]!.error, 'template.json is missing');
  });

  test('a folder the templates share is no template; a template whose shared folder is missing is broken', async () => {
    const dir = join(scratch, 'sharing');
    const node = JSON.parse(readFileSync(join(bundledPaths().templatesDir, 'node', 'template.json'), 'utf8')) as Record<string, unknown>;
    const sharing = (id: string, shared: string) => ({
      ...node,
      id,
      files: ['server.mjs'],
      build: [{ name: 'compile', command: ['true'], artifacts: ['out/app.jar'], inputs: ['src', `../${shared}`] }],
      components: null,
    });
    for (const [id, shared] of [['uses-common', 'common'], ['uses-absent', 'absent']] as const) {
      mkdirSync(join(dir, id), { recursive: true });
      writeFileSync(join(dir, id, 'server.mjs'), '');
      writeFileSync(join(dir, id, 'template.json'), JSON.stringify(sharing(id, shared)));
    }
    mkdirSync(join(dir, 'common', 'src'), { recursive: true });
    mkdirSync(join(dir, 'stray'));
    const catalog = await loadCatalog(dir);
    assert.deepEqual(catalog.entries.map((entry) => entry.manifest.id), ['uses-common']);
    assert.deepEqual(catalog.broken, [
      { folder: 'stray', error: 'template.json is missing' },
      { folder: 'uses-absent', error: 'template.json: build inputs: ../absent is not a folder beside the template' },
    ]);
  });
});
