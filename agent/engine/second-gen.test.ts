// The native engine's second against the TypeScript definition of it: the generated kinds
// (second_gen.go) are what scripts/generate-engine-second.ts writes from app/runs/second-kinds.ts,
// and the fields of the engine's interval line (output.go's json tags, with those of the structs it
// embeds, such as the generated second's own counts) are the keys of EngineIntervalLine (app/runs/agent-protocol.ts). A kind or a field added on one side only fails
// here, before any run reads a line the other side does not write.

import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { EngineIntervalLine, RequestPhases } from '../../app/runs/agent-protocol.ts';
import { ENGINE_SECOND_FILE, engineSecondSource } from '../../scripts/generate-engine-second.ts';

const GO_SOURCES = ['output.go', 'second_gen.go'].map((file) => readFileSync(join(import.meta.dirname, file), 'utf8')).join('\n');

/** The json tags of a Go struct type declared in output.go or second_gen.go, in order, an embedded struct's in its place. */
function jsonTags(typeName: string): string[] {
  const body = new RegExp(`type ${typeName} struct \\{([^}]*)\\}`).exec(GO_SOURCES)?.[1];
  assert.ok(body !== undefined, `output.go declares no struct ${typeName}`);
  return body.split('\n').flatMap((line) => {
    const field = line.trim();
    if (/^[a-z]\w*$/.test(field)) return jsonTags(field);
    const tag = /`json:"([^",]+)[^"]*"`/.exec(field);
    return tag ? [tag[1]!] : [];
  });
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
  // The embedded second's own counts are read from the generated struct.
  assert.ok(jsonTags('intervalLine').includes('requests'));
  assert.ok(!jsonTags('intervalLine').includes('cpuS'));
  assert.ok(jsonTags('engineFigures').includes('cpuS'));
});
