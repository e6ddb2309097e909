// A capacity calibration as a session records it, for tests that show or read one back: Node's sync
// variant measured at 1,240 req/s by a ramp whose last step fell short, and steps at ×1.52 and ×3.48
// of it.

import type { RecordedCalibration } from '../../app/runs/calibration-record.ts';

export const RECORDED_CALIBRATION: RecordedCalibration = {
  reference: { templateId: 'node', variant: 'sync', knobs: {}, label: 'Node.js · sync' },
  measuredAt: '2026-03-01T09:58:00.000Z',
  capacity: 1240,
  atLeast: false,
  times: [1.52, 3.48],
  rates: [1885, 4315],
  probeAnswersPerS: 1300,
  ramp: [
    { rate: 1170, answeredShare: 1, p99Us: 4000, sustained: true },
    { rate: 1240, answeredShare: 1, p99Us: 9000, sustained: true },
    { rate: 1300, answeredShare: 0.97, p99Us: 412_000, sustained: false },
  ],
  sessionIds: [7, 8],
};
