// Figure: a stored profile opens as a flame graph (goal: under 1 s). A 60 s server profile at its
// largest (~2 MB of folded stacks: a JVM's deep stacks over a few thousand distinct frames) is read
// into the tree, laid out at 1,200 px (what the page draws) and ranked for the top frames table;
// the differential of two such profiles beside it. Made from a seeded generator: the same every run.

import { performance } from 'node:perf_hooks';
import { diffProfiles } from '../app/profiles/flame-diff.ts';
import { layoutFlame, flameTree, topFrames } from '../app/profiles/flame-graph.ts';
import { median } from '../app/common/median.ts';

function random(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (Math.imul(state, 1664525) + 1013904223) >>> 0;
    return state / 4294967296;
  };
}

/** Folded stacks of about `bytes`: stacks grow from a few roots through a skewed vocabulary, as real servers' do. */
export function syntheticFolded(bytes: number, seed = 1): string {
  const next = random(seed);
  const packages = ['io.netty.channel', 'org.springframework.web.servlet', 'org.apache.catalina.core', 'com.fasterxml.jackson.databind', 'java.util.concurrent', 'sun.nio.ch', 'com.example.server'];
  const vocabulary = Array.from({ length: 3000 }, (_, i) => `${packages[i % packages.length]}.Class${i % 97}.method${i}`);
  const pick = () => vocabulary[Math.floor(next() ** 3 * vocabulary.length)]!;
  const roots = ['java.lang.Thread.run', 'java.util.concurrent.ThreadPoolExecutor$Worker.run', 'io.netty.util.concurrent.FastThreadLocalRunnable.run'];
  const lines: string[] = [];
  let size = 0;
  while (size < bytes) {
    const depth = 15 + Math.floor(next() * 45);
    const frames = [roots[Math.floor(next() * roots.length)]!];
    // Shared prefixes: most stacks run through the same few callers for a while.
    for (let i = 1; i < depth; i++) frames.push(i < 8 ? vocabulary[(i * 31 + Math.floor(next() * 3)) % 200]! : pick());
    const line = `${frames.join(';')} ${1 + Math.floor(next() ** 4 * 400)}`;
    lines.push(line);
    size += line.length + 1;
  }
  return `${lines.join('\n')}\n`;
}

export function benchFlameOpen(rounds = 5) {
  const folded = syntheticFolded(2 * 1024 * 1024, 1);
  const other = syntheticFolded(2 * 1024 * 1024, 2);
  const open: number[] = [];
  const diff: number[] = [];
  let rects = 0;
  let samples = 0;
  for (let round = 0; round < rounds; round++) {
    let started = performance.now();
    const tree = flameTree(folded);
    rects = layoutFlame(tree.root, [], 1 / 1200).length;
    topFrames(tree, 15);
    samples = tree.samples;
    open.push(performance.now() - started);
    started = performance.now();
    const diffed = diffProfiles(tree, flameTree(other));
    layoutFlame(diffed.root, [], 1 / 1200);
    diff.push(performance.now() - started);
  }
  return { bytes: folded.length, lines: folded.split('\n').length - 1, samples, rects, openMs: median(open), firstOpenMs: open[0]!, diffMs: median(diff) };
}
