// Tests of untrusted JSON parsing: forbidden keys at any depth, the byte cap (UTF-8 aware), malformed text.

import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { apiError } from '../../tests/support/api-error.ts';
import { MAX_JSON_DEPTH, MAX_PAYLOAD_BYTES, nestingDepth, parseUntrustedJson, utf8ByteLength } from './safe-json.ts';

/** Deterministic pseudo-random generator, so a failure can be reproduced from its seed. */
function generator(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state * 1664525 + 1013904223) >>> 0;
    return state / 2 ** 32;
  };
}

const CODE_POINT_RANGES: Array<[number, number]> = [
  [0x20, 0x7e], // ASCII
  [0x80, 0x7ff], // 2-byte
  [0x800, 0xd7ff], // 3-byte below the surrogates
  [0xe000, 0xffff], // 3-byte above the surrogates
  [0x1f300, 0x1faff], // emoji (4-byte, surrogate pairs in UTF-16)
  [0x10000, 0x10ffff], // any astral plane
];

function randomText(random: () => number, length: number, withLoneSurrogates: boolean): string {
  let text = '';
  for (let i = 0; i < length; i++) {
    if (withLoneSurrogates && random() < 0.15) {
      text += String.fromCharCode(0xd800 + Math.floor(random() * 0x800)); // a high or low half, alone
      continue;
    }
    const [low, high] = CODE_POINT_RANGES[Math.floor(random() * CODE_POINT_RANGES.length)]!;
    text += String.fromCodePoint(low + Math.floor(random() * (high - low + 1)));
  }
  return text;
}

describe('utf8ByteLength', () => {
  test('known lengths', () => {
    assert.equal(utf8ByteLength(''), 0);
    assert.equal(utf8ByteLength('abc'), 3);
    assert.equal(utf8ByteLength('é'), 2);
    assert.equal(utf8ByteLength('€'), 3);
    assert.equal(utf8ByteLength('😀'), 4);
    assert.equal(utf8ByteLength('👩‍👩‍👧'), Buffer.byteLength('👩‍👩‍👧'));
  });

  test('matches Buffer.byteLength on random well-formed text including emoji', () => {
    for (let seed = 1; seed <= 300; seed++) {
      const random = generator(seed);
      const text = randomText(random, Math.floor(random() * 200), false);
      assert.equal(utf8ByteLength(text), Buffer.byteLength(text, 'utf8'), `seed ${seed}: ${JSON.stringify(text)}`);
    }
  });

  test('matches Buffer.byteLength on text with lone surrogates (encoded as U+FFFD, 3 bytes)', () => {
    for (const text of ['\ud800', 'a\ud800', '\udc00a', '\ud800\ud800a', '\ud83d\ud83d\ude00', '\ude00\ud83d']) {
      assert.equal(utf8ByteLength(text), Buffer.byteLength(text, 'utf8'), JSON.stringify(text));
    }
    for (let seed = 1; seed <= 300; seed++) {
      const random = generator(seed * 7919);
      const text = randomText(random, Math.floor(random() * 200), true);
      assert.equal(utf8ByteLength(text), Buffer.byteLength(text, 'utf8'), `seed ${seed}: ${JSON.stringify(text)}`);
    }
  });
});

describe('parseUntrustedJson', () => {
  test('nesting thousands of levels deep is refused as too deep, not as invalid JSON from a stack overflow', () => {
    const deep = (levels: number, open = '[', close = ']') => `{"name":"app.info","args":${open.repeat(levels)}${close.repeat(levels)}}`;
    assert.throws(() => parseUntrustedJson(deep(4000)), apiError('invalid_args', /^payload is nested too deep: more than 100 levels of \[ \] or \{ \}$/));
    assert.throws(() => parseUntrustedJson(`${'{"a":'.repeat(4000)}1${'}'.repeat(4000)}`), apiError('invalid_args', /nested too deep/));
    assert.equal((parseUntrustedJson(deep(MAX_JSON_DEPTH - 1)) as { name: string }).name, 'app.info', 'the top map plus 99 levels is within the cap');
    // Brackets inside strings are text, not nesting.
    assert.equal(nestingDepth(`{"a":"${'['.repeat(500)}\\"[["}`), 1);
  });

  test('parses ordinary JSON', () => {
    assert.deepEqual(parseUntrustedJson('{"name":"hosts.add","args":{"port":22,"tags":["a","b"],"x":null}}'), {
      name: 'hosts.add',
      args: { port: 22, tags: ['a', 'b'], x: null },
    });
    assert.equal(parseUntrustedJson('42'), 42);
    assert.equal(parseUntrustedJson('null'), null);
    assert.deepEqual(parseUntrustedJson('{"proto":1,"__proto":2,"constructors":3,"v":"__proto__"}'), {
      proto: 1,
      __proto: 2,
      constructors: 3,
      v: '__proto__',
    });
  });

  for (const key of ['__proto__', 'constructor', 'prototype']) {
    const documents = [
      `{"${key}":{"polluted":true}}`,
      `{"a":1,"${key}":{"polluted":true}}`,
      `{"args":{"host":{"${key}":{"polluted":true}}}}`,
      `{"args":[1,{"deep":[{"${key}":1}]}]}`,
      `[[[[{"${key}":null}]]]]`,
      // The same key written with JSON escapes.
      `{"a":{${JSON.stringify(key).replace(/_/g, '\\u005f').replace(/o/g, '\\u006f')}:1}}`,
    ];
    for (const text of documents) {
      test(`refuses ${key} in ${text}`, () => {
        assert.throws(() => parseUntrustedJson(text), apiError('invalid_args', new RegExp(`"${key}"`)));
        assert.equal(({} as Record<string, unknown>).polluted, undefined);
        assert.equal(Object.prototype.hasOwnProperty.call(Object.prototype, 'polluted'), false);
      });
    }
  }

  for (const text of ['', ' ', '{', '{"a":1,}', "{'a':1}", 'undefined', 'NaN', '{"a":01}', '[1,2', '"unterminated', '{"a" 1}']) {
    test(`refuses malformed ${JSON.stringify(text)}`, () => {
      assert.throws(() => parseUntrustedJson(text), apiError('invalid_args', /not valid JSON/));
    });
  }

  test('the cap is exact in bytes for ASCII', () => {
    const text = JSON.stringify('x'.repeat(98)); // 100 bytes
    assert.equal(parseUntrustedJson(text, 100), 'x'.repeat(98));
    assert.throws(() => parseUntrustedJson(text, 99), apiError('too_large', /99 bytes/));
  });

  test('the cap counts UTF-8 bytes, not UTF-16 units, for multibyte text', () => {
    for (const [char, width] of [
      ['é', 2],
      ['€', 3],
      ['😀', 4],
    ] as const) {
      const text = JSON.stringify(char.repeat(50));
      const bytes = 2 + 50 * width;
      assert.equal(Buffer.byteLength(text), bytes);
      assert.equal(parseUntrustedJson(text, bytes), char.repeat(50), char);
      assert.throws(() => parseUntrustedJson(text, bytes - 1), apiError('too_large', /larger than/), char);
    }
  });

  test('random multibyte payloads are capped exactly at their UTF-8 size', () => {
    for (let seed = 1; seed <= 100; seed++) {
      const random = generator(seed * 31);
      const text = JSON.stringify({ v: randomText(random, 1 + Math.floor(random() * 100), false) });
      const bytes = Buffer.byteLength(text);
      assert.doesNotThrow(() => parseUntrustedJson(text, bytes), `seed ${seed}`);
      assert.throws(() => parseUntrustedJson(text, bytes - 1), apiError('too_large', /larger than/), `seed ${seed}`);
    }
  });

  test('the default cap is 1 MiB', () => {
    assert.equal(MAX_PAYLOAD_BYTES, 1024 * 1024);
    const fits = JSON.stringify('a'.repeat(MAX_PAYLOAD_BYTES - 2));
    assert.equal((parseUntrustedJson(fits) as string).length, MAX_PAYLOAD_BYTES - 2);
    assert.throws(() => parseUntrustedJson(JSON.stringify('a'.repeat(MAX_PAYLOAD_BYTES - 1))), apiError('too_large', /larger than/));
    // Fewer UTF-16 units than the cap, but more bytes.
    const wide = JSON.stringify('€'.repeat(Math.ceil(MAX_PAYLOAD_BYTES / 3)));
    assert.ok(wide.length < MAX_PAYLOAD_BYTES);
    assert.throws(() => parseUntrustedJson(wide), apiError('too_large', /larger than/));
  });

  test('size is checked before content: an oversized document with a forbidden key is too_large', () => {
    const text = `{"__proto__":"${'a'.repeat(200)}"}`;
    assert.throws(() => parseUntrustedJson(text, 100), apiError('too_large', /larger than/));
  });
});
