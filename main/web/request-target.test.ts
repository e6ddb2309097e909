// Unit tests of parseRequestTarget and describeRequest: which targets web mode reads, and how a
// refused one is named in a log line.

import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { MAX_TARGET_LENGTH, describeRawRequest, describeRequest, parseRequestTarget } from './request-target.ts';

describe('parseRequestTarget', () => {
  test('origin-form targets are read into a path (still encoded) and a query', () => {
    const target = parseRequestTarget('/assets/a%20b.js?token=abc&x=[1]');
    assert.ok(target.ok);
    assert.equal(target.path, '/assets/a%20b.js');
    assert.equal(target.query.get('token'), 'abc');
    for (const fine of ['/', '//index.html', "/x;y=1,z!$&'()*+~@:.js", '/%C3%A9', '/../secret.txt', '/%2e%2e%2fsecret.txt', `/${'a'.repeat(MAX_TARGET_LENGTH - 1)}`]) {
      assert.equal(parseRequestTarget(fine).ok, true, fine);
    }
  });

  test('malformed targets are refused with a reason', () => {
    const refused: Array<[string | undefined, RegExp]> = [
      [undefined, /no request target/],
      ['', /no request target/],
      ['*', /not a path/],
      ['http://127.0.0.1:1234/', /not a path/],
      ['127.0.0.1:1234', /not a path/],
      ['index.html', /not a path/],
      ['//[', /characters a URL path/],
      ['/#top', /characters a URL path/],
      ['/a b', /characters a URL path/],
      ['/é', /characters a URL path/],
      ['/%', /characters a URL path/],
      ['/%zz', /characters a URL path/],
      ['/?a b', /characters a URL query/],
      ['/?\u0001', /characters a URL query/],
      ['/%E0%A4%A', /characters a URL path/],
      ['/%E0%A4%41', /not valid percent-encoded UTF-8/],
      ['/%ff', /not valid percent-encoded UTF-8/],
      ['/a%00b', /NUL/],
      [`/${'a'.repeat(MAX_TARGET_LENGTH)}`, /longer than 2048/],
    ];
    for (const [target, reason] of refused) {
      const parsed = parseRequestTarget(target);
      assert.equal(parsed.ok, false, JSON.stringify(target));
      if (!parsed.ok) assert.match(parsed.reason, reason, JSON.stringify(target));
    }
  });
});

describe('describeRequest', () => {
  test('escapes what is not printable ASCII, and backslashes, so a line cannot be forged', () => {
    assert.equal(describeRequest('GET', '/a\nb\r\0\\x€é'), 'GET /a\\x0ab\\x0d\\x00\\\\x\\u20ac\\xe9');
  });

  test('cuts a long target short and says so', () => {
    const line = describeRequest('GET', `/${'a'.repeat(5000)}`);
    assert.equal(line, `GET /${'a'.repeat(119)}...`);
    assert.equal(describeRequest(undefined, undefined), '(no method) (no target)');
  });

  test('reads method and target from the raw bytes node:http could not parse', () => {
    assert.equal(describeRawRequest(Buffer.from('GET /a\0b HTTP/1.1\r\nHost: x\r\n\r\n', 'latin1')), 'GET /a\\x00b');
    assert.equal(describeRawRequest(Buffer.from('GARBAGE\r\n\r\n')), 'GARBAGE (no target)');
    assert.equal(describeRawRequest(undefined), '(no method) (no target)');
    assert.equal(describeRawRequest(Buffer.from(`GET /${'a'.repeat(20_000)} HTTP/1.1\r\n`)), `GET /${'a'.repeat(119)}...`);
  });
});
