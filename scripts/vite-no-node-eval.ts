// A build plugin for the renderer (web mode and Electron): hdr-histogram-js looks for Node's zlib
// with eval('require("zlib")…') when its module loads and falls back to pako when that throws.
// Under the app's CSP (no 'unsafe-eval') each eval is refused and reported as a violation, so the
// bundle gets a plain throw instead: the same fallback, with no eval and nothing reported.

import type { Plugin } from 'vite';

const NODE_ZLIB_EVAL = /eval\('require\("zlib"\)\.\w+'\)/g;

export function noNodeEval(): Plugin {
  return {
    name: 'benchlab-no-node-eval',
    transform(code, id) {
      if (!id.includes('hdr-histogram-js')) return null;
      const replaced = code.replace(NODE_ZLIB_EVAL, '(() => { throw new Error("no zlib in the browser"); })()');
      return replaced === code ? null : { code: replaced, map: null };
    },
  };
}
