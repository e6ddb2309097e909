import assert from 'node:assert/strict';
import { test } from 'node:test';
import { biggestChanges, deltaColor, deltaText, diffProfiles, frameChanges } from './flame-diff.ts';
import { flameTree as parseFolded, foldedOf, frameTotals, layoutDepth, layoutFlame, nodeAt, searchFrames, shareText, topFrames } from './flame-graph.ts';
import { fitLabel, flameSvg } from './flame-svg.ts';

const FOLDED = ['main;serve;parse 30', 'main;serve;handle;query 50', 'main;serve;handle 10', 'main;gc 10', ''].join('\n');

test('the same stack on several lines adds up; lines that are no stack are left out', () => {
  const tree = parseFolded('a;b 2\nnot a line\n\na;b 3\n');
  assert.equal(tree.samples, 5);
  assert.equal(nodeAt(tree.root, ['a', 'b'])!.self, 5);
});

test('the tree holds each frame self and total, children sorted, totals adding up', () => {
  const tree = parseFolded(FOLDED);
  assert.equal(tree.samples, 100);
  const serve = nodeAt(tree.root, ['main', 'serve'])!;
  assert.equal(serve.total, 90);
  assert.equal(serve.self, 0);
  assert.deepEqual(
    serve.children.map((c) => c.name),
    ['handle', 'parse'],
  );
  const handle = nodeAt(tree.root, ['main', 'serve', 'handle'])!;
  assert.deepEqual([handle.self, handle.total], [10, 60]);
  assert.equal(nodeAt(tree.root, ['main', 'nothing']), null);
  // Written back, the text reads into the same tree.
  assert.deepEqual(parseFolded(foldedOf(tree.root)).root, tree.root);
});

test('top frames by self time, over every place a frame is called from; recursion counted once', () => {
  const tree = parseFolded('a;x 5\nb;x 3\na;a;y 2\n');
  const top = topFrames(tree, 2);
  assert.deepEqual(
    top.map((f) => [f.name, f.self, f.total]),
    [
      ['x', 8, 8],
      ['y', 2, 2],
    ],
  );
  assert.equal(top[0]!.selfShare, 0.8);
  const a = frameTotals(tree).find((f) => f.name === 'a')!;
  assert.equal(a.total, 7, 'a;a;y is one sample under a, not two');
  assert.equal(a.self, 0);
  assert.equal(topFrames(tree).some((f) => f.name === 'a'), false, 'a frame that is never a leaf has no self time to show');
});

test('search: text anywhere in a name, case-insensitive, or /regex/; its share counts each sample once', () => {
  const tree = parseFolded(FOLDED);
  const found = searchFrames(tree, 'HAND');
  assert.deepEqual(found.frames, ['handle']);
  assert.equal(found.samples, 60);
  assert.equal(found.share, 0.6);
  // serve and handle both match, but handle's samples are serve's already.
  assert.equal(searchFrames(tree, '/^(serve|handle)$/').samples, 90);
  assert.deepEqual(searchFrames(tree, '/[/').frames, [], 'an invalid expression matches nothing');
  assert.deepEqual(searchFrames(tree, '  ').frames, []);
});

test('layout: widths by samples, children inside their parent, a zoom spreads the frame over the width', () => {
  const tree = parseFolded(FOLDED);
  const rects = layoutFlame(tree.root);
  const at = (path: string) => rects.find((r) => r.path.join(';') === path)!;
  assert.deepEqual([at('main').x, at('main').width, at('main').depth], [0, 1, 1]);
  assert.deepEqual([at('main;gc').x, at('main;gc').width], [0, 0.1], 'gc sorts before serve');
  assert.deepEqual([at('main;serve').x, at('main;serve').width], [0.1, 0.9]);
  assert.ok(Math.abs(at('main;serve;parse').x - 0.7) < 1e-9);
  assert.equal(layoutDepth(rects), 5);
  const zoomed = layoutFlame(tree.root, ['main', 'serve', 'handle']);
  assert.deepEqual(
    zoomed.map((r) => [r.path.join(';'), r.x, r.width]),
    [
      ['', 0, 1],
      ['main', 0, 1],
      ['main;serve', 0, 1],
      ['main;serve;handle', 0, 1],
      ['main;serve;handle;query', 0, 50 / 60],
    ],
  );
  assert.equal(
    layoutFlame(tree.root, [], 0.15).some((r) => r.node.name === 'gc'),
    false,
    'narrower than the minimum is left out',
  );
});

test('the differential is normalised by each run samples: twice the samples at the same shares is no change', () => {
  const before = parseFolded(FOLDED);
  const doubled = parseFolded(FOLDED.replace(/ (\d+)$/gm, (_, n: string) => ` ${Number(n) * 2}`));
  const same = diffProfiles(before, doubled);
  const walk = (node: typeof same.root): number[] => [node.delta, ...node.children.flatMap(walk)];
  assert.ok(
    walk(same.root).every((d) => Math.abs(d) < 1e-12),
    'no frame moved',
  );
  assert.deepEqual(frameChanges(before, doubled).filter((c) => c.delta !== 0), []);
});

test('the differential says where the time went up and down, and keeps frames of either run', () => {
  const before = parseFolded('main;parse 50\nmain;query 50\n');
  const after = parseFolded('main;parse 20\nmain;query 60\nmain;gc 20\n');
  const diff = diffProfiles(before, after);
  const node = (name: string) => diff.root.children[0]!.children.find((c) => c.name === name)!;
  assert.ok(Math.abs(node('parse').delta - -0.3) < 1e-9);
  assert.ok(Math.abs(node('query').delta - 0.1) < 1e-9);
  assert.ok(Math.abs(node('gc').delta - 0.2) < 1e-9);
  assert.deepEqual(node('gc').before, { self: 0, total: 0 }, 'a frame new in the after run is in the tree');
  // Widths are the mean of the two shares, so the children still fill their parent.
  const rects = layoutFlame(diff.root);
  const main = rects.find((r) => r.path.join(';') === 'main')!;
  const children = rects.filter((r) => r.depth === 2);
  assert.ok(Math.abs(children.reduce((sum, r) => sum + r.width, 0) - main.width) < 1e-9);
  const { up, down } = biggestChanges(before, after);
  assert.deepEqual(
    up.map((c) => c.name),
    ['gc', 'query'],
  );
  assert.deepEqual(
    down.map((c) => c.name),
    ['parse'],
  );
  assert.equal(deltaText(0.2), '+20.0 pts');
  assert.equal(deltaText(-0.004), '−0.4 pts');
  assert.match(deltaColor(0.2), /^hsl\(0, 85%/);
  assert.match(deltaColor(-0.2), /^hsl\(220, 85%/);
  assert.notEqual(deltaColor(0.01), deltaColor(0.04), 'small changes are told apart');
});

test('the SVG picture: one bar per frame wide enough, labels cut to fit, deep stacks cut with a note', () => {
  const tree = parseFolded(FOLDED);
  const svg = flameSvg(tree.root, { width: 500 });
  assert.equal((svg.match(/<rect /g) ?? []).length, 7);
  assert.match(svg, /<title>main;?.*\(100\.0 %\)<\/title>/);
  assert.match(svg, /<title>query \(50\.0 %\)<\/title>/);
  assert.equal(fitLabel('com.example.VeryLongFrameName', 60), 'com.exa…');
  assert.equal(fitLabel('abc', 10), '');
  const deep = parseFolded(`${Array.from({ length: 60 }, (_, i) => `f${i}`).join(';')} 1\n`);
  assert.match(flameSvg(deep.root, { maxRows: 10 }), /51 deeper rows not drawn/);
  assert.match(flameSvg(parseFolded('a;<b&c> 1').root), /&lt;b&amp;c&gt;/);
  assert.equal(shareText(0.0004), '< 0.1 %');
});
