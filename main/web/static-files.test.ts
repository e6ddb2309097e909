// Unit tests of resolveStaticPath: URL paths map inside the static root, never outside it.

import assert from 'node:assert/strict';
import { join, resolve, sep } from 'node:path';
import { describe, test } from 'node:test';
import { resolveStaticPath } from './static-files.ts';

const root = resolve('/srv/benchlab/web');

function inside(path: string | null): boolean {
  return path !== null && (path === root || path.startsWith(root + sep));
}

describe('resolveStaticPath', () => {
  test('the root path is index.html', () => {
    assert.equal(resolveStaticPath(root, '/'), join(root, 'index.html'));
  });

  test('ordinary paths map under the root', () => {
    assert.equal(resolveStaticPath(root, '/index.html'), join(root, 'index.html'));
    assert.equal(resolveStaticPath(root, '/assets/app-1a2b.js'), join(root, 'assets', 'app-1a2b.js'));
    assert.equal(resolveStaticPath(root, '/assets/a%20b.css'), join(root, 'assets', 'a b.css'));
    assert.equal(resolveStaticPath(root, '/assets/./x/../y.js'), join(root, 'assets', 'y.js'));
    assert.equal(resolveStaticPath(root, '//assets//y.js'), join(root, 'assets', 'y.js'));
  });

  test('a root given with a trailing separator or relative parts behaves the same', () => {
    assert.equal(resolveStaticPath(`${root}${sep}`, '/a.js'), join(root, 'a.js'));
    assert.equal(resolveStaticPath(`${root}${sep}sub${sep}..`, '/a.js'), join(root, 'a.js'));
  });

  test('dot-dot segments, raw or encoded, never leave the root', () => {
    for (const urlPath of [
      '/../etc/passwd',
      '/../../../../etc/passwd',
      '/%2e%2e/etc/passwd',
      '/%2E%2E/%2E%2E/etc/passwd',
      '/..%2f..%2fetc%2fpasswd',
      '/assets/../../../etc/passwd',
      '/assets/%2e%2e%2f%2e%2e%2f%2e%2e%2fetc/passwd',
      '/%2fetc%2fpasswd',
      '/..',
      '/../',
      '/.%2e/web2/secret',
    ]) {
      const resolved = resolveStaticPath(root, urlPath);
      assert.ok(resolved === null || inside(resolved), `${urlPath} resolved to ${resolved}`);
    }
  });

  test('paths that would escape are refused', () => {
    // Without a leading slash the path is relative, and `..` would climb out.
    assert.equal(resolveStaticPath(root, '../etc/passwd'), null);
    assert.equal(resolveStaticPath(root, '%2e%2e/etc/passwd'), null);
    assert.equal(resolveStaticPath(root, '..%2f..%2fetc'), null);
    // A sibling folder whose name starts like the root is outside too.
    assert.equal(resolveStaticPath(root, `../${root.split(sep).at(-1)}2/secret`), null);
  });

  test('NUL bytes and malformed escapes are refused', () => {
    assert.equal(resolveStaticPath(root, '/index.html%00.js'), null);
    assert.equal(resolveStaticPath(root, '/a\0b'), null);
    assert.equal(resolveStaticPath(root, '/%'), null);
    assert.equal(resolveStaticPath(root, '/%E0%A4%A'), null);
    assert.equal(resolveStaticPath(root, '/%zz'), null);
  });

  test('the resolved path is always absolute and normalized', () => {
    for (const urlPath of ['/a/b/../c', '/./a', '/a/./b/', '/%2e/a']) {
      const resolved = resolveStaticPath(root, urlPath);
      assert.ok(resolved && inside(resolved), urlPath);
      assert.equal(resolved, resolve(resolved));
    }
  });
});
