// The live load session as the Run page shows it: its state (`runs.state`) and its chart points
// (`runs.points`), loaded once from `runs.live` for a page opened mid-run. Points live in a
// PointBuffer the charts append from, with a version number bumped once per frame; each batch is
// acknowledged after the frame that draws it, which is what paces the back end's stream.

import { useCallback, useEffect, useState } from 'react';
import type { LivePoint, LiveRun } from '../../../../app/runs/runs.ts';
import { useApi, useConnection } from '../../api-context.tsx';

/** The points of one session at a time; `generation` changes when another session takes over. */
export class PointBuffer {
  points: LivePoint[] = [];
  sessionId: number | null = null;
  generation = 0;

  /** Switches to a session (dropping another's points). */
  adopt(sessionId: number): void {
    if (this.sessionId === sessionId) return;
    this.sessionId = sessionId;
    this.points = [];
    this.generation++;
  }

  /** Adds points in time order, each second once (a batch may overlap what runs.live returned). */
  add(incoming: readonly LivePoint[]): void {
    for (const point of incoming) {
      const last = this.points[this.points.length - 1];
      if (!last || point.t > last.t) this.points.push(point);
    }
  }
}

/** One redraw per frame, and the acknowledgements of what it drew sent after that frame. */
class FramePacer {
  #frame: number | null = null;
  #acks: Array<{ sessionId: number; seq: number }> = [];

  queueAck(ack: { sessionId: number; seq: number }): void {
    this.#acks.push(ack);
  }

  schedule(redraw: () => void, acknowledge: (ack: { sessionId: number; seq: number }) => void): void {
    if (this.#frame !== null) return;
    this.#frame = requestAnimationFrame(() => {
      this.#frame = null;
      redraw();
      // Acknowledge after the frame that draws these points, so a busy UI slows the stream.
      requestAnimationFrame(() => this.#acks.splice(0).forEach(acknowledge));
    });
  }

  cancel(): void {
    if (this.#frame !== null) cancelAnimationFrame(this.#frame);
    this.#frame = null;
  }
}

export interface LiveRunView {
  run: LiveRun | null;
  buffer: PointBuffer;
  version: number;
  setRun: (run: LiveRun) => void;
}

export function useLiveRun(): LiveRunView {
  const api = useApi();
  const link = useConnection();
  const [run, setRunState] = useState<LiveRun | null>(null);
  const [version, setVersion] = useState(0);
  const [buffer] = useState(() => new PointBuffer());
  const [pacer] = useState(() => new FramePacer());

  const scheduleFrame = useCallback(
    () =>
      pacer.schedule(
        () => setVersion((value) => value + 1),
        (ack) => void api.runs.ack(ack).catch(() => undefined),
      ),
    [api, pacer],
  );

  const setRun = useCallback(
    (next: LiveRun) => {
      buffer.adopt(next.sessionId);
      setRunState(next);
      scheduleFrame();
    },
    [buffer, scheduleFrame],
  );

  useEffect(() => {
    if (link !== 'connected') return;
    const offState = api.subscribe('runs.state', (state) => {
      if (buffer.sessionId !== null && state.sessionId < buffer.sessionId) return;
      buffer.adopt(state.sessionId);
      setRunState(state);
    });
    const offPoints = api.subscribe('runs.points', (batch) => {
      if (buffer.sessionId !== null && batch.sessionId < buffer.sessionId) return;
      buffer.adopt(batch.sessionId);
      buffer.add(batch.points);
      pacer.queueAck({ sessionId: batch.sessionId, seq: batch.seq });
      scheduleFrame();
    });
    api.runs.live().then(
      (live) => {
        const current = live.run;
        if (!current || (buffer.sessionId !== null && current.sessionId < buffer.sessionId)) return;
        const arrived = buffer.sessionId === current.sessionId ? buffer.points : [];
        buffer.adopt(current.sessionId);
        buffer.points = [];
        buffer.add(live.points);
        buffer.add(arrived);
        setRunState((shown) => (shown && shown.sessionId === current.sessionId ? shown : current));
        scheduleFrame();
      },
      () => undefined,
    );
    return () => {
      offState();
      offPoints();
    };
  }, [api, link, buffer, pacer, scheduleFrame]);

  useEffect(() => () => pacer.cancel(), [pacer]);

  return { run, buffer, version, setRun };
}
