import assert from 'node:assert/strict';
import { test } from 'node:test';
import { svgLineChart } from './svg-chart.ts';

const options = { title: 'Requests/s over time', xLabel: 's', yLabel: 'req/s', breakOverX: 1.5 };

test('a one-second run shows: its lone point is drawn as a dot', () => {
  const svg = svgLineChart([{ label: 'A', color: '#000', xs: [0], ys: [1200] }], options);
  assert.equal(svg.match(/<circle data-series="A"/g)?.length, 1);
  assert.doesNotMatch(svg, /no data/);
});

test('a lone point after a pause gets a dot, the lines of several points none', () => {
  const svg = svgLineChart([{ label: 'A', color: '#000', xs: [0, 1, 2, 8], ys: [10, 11, 12, 13] }], options);
  assert.equal(svg.match(/<circle/g)?.length, 1);
  const two = svgLineChart([{ label: 'B', color: '#000', xs: [0, 1], ys: [10, 11] }], options);
  assert.equal(two.match(/<circle/g), null);
  assert.match(two, /d="M[\d.,]+L[\d.,]+"/);
});
