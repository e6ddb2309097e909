// The native engine's second against the TypeScript definition of it: the generated kinds
// (second_gen.go) are what scripts/generate-engine-second.ts writes from app/runs/second-kinds.ts,
// and the fields of the engine's interval line (output.go's json tags) are the keys of
// EngineIntervalLine (app/runs/agent-protocol.ts). A kind or a field added on one side only fails
// here, before any run reads a line the other side does not write.

import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { EngineIntervalLine, RequestPhases } from '../../app/runs/agent-protocol.ts';
import { ENGINE_SECOND_FILE, engineSecondSource } from '../../scripts/generate-engine-second.ts';

const OUTPUT_GO = readFileSync(join(import.meta.dirname, 'output.go'), 'utf8');

/** The json tags of a Go struct type declared in output.go, in order. */
function jsonTags(typeName: string): string[] {
  const body = new RegExp(`type ${typeName} struct \\{([^}]*)\\}`).exec(OUTPUT_GO)?.[1];
  assert.ok(body !== undefined, `output.go declares no struct ${typeName}`);
  return [...body.matchAll(/`json:"([^",]+)[^"]*"`/g)].map((match) => match[1]!);
}

const sorted = (keys: Iterable<string>) => [...keys].sort();

test('second_gen.go is what the generator writes from app/runs/second-kinds.ts (run `npm run build:engine`)', () => {
  assert.equal(readFileSync(ENGINE_SECOND_FILE, 'utf8'), engineSecondSource());
});

test("the engine's interval line has exactly EngineIntervalLine's fields", () => {
  assert.deepEqual(sorted(jsonTags('intervalLine')), sorted(Object.keys(EngineIntervalLine.shape)));
  assert.deepEqual(sorted(jsonTags('engineFigures')), sorted(Object.keys(EngineIntervalLine.shape.engine.shape)));
  assert.deepEqual(sorted(jsonTags('phaseFigures')), sorted(Object.keys(RequestPhases.shape)));
});

test('the drift check reads the Go side for real', () => {
  // A field the TypeScript side lacks is seen: the parse is of the struct, not of the whole file.
  assert.ok(jsonTags('intervalLine').includes('inFlight'));
  assert.ok(!jsonTags('intervalLine').includes('cpuS'));
  assert.ok(jsonTags('engineFigures').includes('cpuS'));
});
