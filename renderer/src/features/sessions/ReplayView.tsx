// Replay of a saved session through the Run page's own dashboard (its charts, step markers and
// summary table): the stored seconds appear as they did live, at 1×, 5× or 20×, with pause and seek.
// "Run again" starts the same configuration as a new session linked to this one.

import { useEffect, useMemo, useState } from 'react';
import { pause, play, positionAt, REPLAY_SPEEDS, seek, setSpeed, startClock, visibleCount, type ReplayClock, type ReplayData } from '../../../../app/sessions/replay.ts';
import { errorMessage, useApi } from '../../api-context.tsx';
import { ErrorBanner } from '../../common/Banner.tsx';
import { stepMarkers } from '../runs/run-charts.ts';
import { EngineLabel } from '../runs/EngineLabel.tsx';
import { SessionDashboard } from '../runs/SessionDashboard.tsx';
import { PointBuffer } from '../runs/use-live-run.ts';
import { RunProfiles } from '../profiles/RunProfiles.tsx';

function clockText(seconds: number): string {
  const s = Math.floor(seconds);
  return `${Math.floor(s / 60)}:${String(s % 60).padStart(2, '0')}`;
}

export function ReplayView({ sessionId, onClose, onRunAgain }: { sessionId: number; onClose: () => void; onRunAgain: () => void }) {
  const api = useApi();
  const [data, setData] = useState<ReplayData | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [clock, setClock] = useState<ReplayClock>(() => startClock(1));
  const [position, setPosition] = useState(0);
  const [version, setVersion] = useState(0);
  const [buffer] = useState(() => new PointBuffer());
  const [busy, setBusy] = useState(false);

  useEffect(() => {
    let cancelled = false;
    api.replay.load({ sessionId }).then(
      (loaded) => {
        if (cancelled) return;
        buffer.adopt(sessionId);
        buffer.points = [];
        setData(loaded);
        setClock((current) => play(current, performance.now(), loaded.durationS));
      },
      (failure: unknown) => !cancelled && setError(errorMessage(failure)),
    );
    return () => {
      cancelled = true;
    };
  }, [api, sessionId, buffer]);

  // Shows the points whose second has passed: appended while playing, redrawn from scratch on a seek back.
  useEffect(() => {
    if (!data) return;
    let frame = 0;
    const tick = () => {
      const now = positionAt(clock, performance.now(), data.durationS);
      const count = visibleCount(data.points, now);
      if (count < buffer.points.length) buffer.points = data.points.slice(0, count);
      else if (count > buffer.points.length) buffer.points.push(...data.points.slice(buffer.points.length, count));
      setPosition(now);
      setVersion((value) => value + 1);
      if (clock.playingSinceMs !== null) frame = window.setTimeout(tick, 100);
    };
    tick();
    return () => window.clearTimeout(frame);
  }, [data, clock, buffer]);

  const markers = useMemo(() => stepMarkers(data?.run.steps ?? [], position), [data, position]);
  // A step's summary and verdict show once the replay has passed its end.
  const steps = useMemo(() => (data?.run.steps ?? []).filter((step) => (step.startedAtS ?? 0) <= position).map((step) => ((step.endedAtS ?? 0) <= position ? step : { ...step, status: 'running' as const, summary: null, bottleneck: null, clientVerdicts: [], degraded: null })), [data, position]);

  const runAgain = async () => {
    setBusy(true);
    try {
      await api.sessions.runAgain({ id: sessionId });
      onRunAgain();
    } catch (failure) {
      setError(errorMessage(failure));
    } finally {
      setBusy(false);
    }
  };

  const now = () => performance.now();
  const duration = data?.durationS ?? 0;
  const playing = clock.playingSinceMs !== null && position < duration;
  // Whole seconds while playing; at the end exactly the duration, which ends where the last stored
  // second did (not always on a whole second).
  const shownPosition = position >= duration ? duration : Math.floor(position);
  return (
    <div className="card" data-testid="replay" data-position={shownPosition} data-duration={duration}>
      <div className="page-header">
        <h2>Replay: {data?.run.name ?? '…'}</h2>
        {data && <EngineLabel engine={data.run.engine} testId="replay-engine" />}
        <div className="actions">
          <button type="button" data-testid="replay-run-again" disabled={busy || !data} onClick={() => void runAgain()}>
            {busy ? 'Starting…' : 'Run again'}
          </button>
          <button type="button" data-testid="replay-close" onClick={onClose}>
            Close
          </button>
        </div>
      </div>
      <ErrorBanner error={error} testId="replay-error" />
      {data && (
        <>
          <div className="replay-bar">
            <button type="button" data-testid="replay-toggle" onClick={() => setClock((c) => (playing ? pause(c, now(), duration) : play(c, now(), duration)))}>
              {playing ? 'Pause' : 'Play'}
            </button>
            <input
              type="range"
              min={0}
              max={duration}
              step={1}
              value={Math.floor(position)}
              aria-label="Seek"
              data-testid="replay-seek"
              onChange={(event) => setClock((c) => seek(c, Number(event.target.value), now(), duration))}
            />
            <span className="mono" data-testid="replay-time">
              {clockText(position)} / {clockText(duration)}
            </span>
            {REPLAY_SPEEDS.map((speed) => (
              <button key={speed} type="button" className={clock.speed === speed ? 'primary' : undefined} data-testid={`replay-speed-${speed}`} onClick={() => setClock((c) => setSpeed(c, speed, now(), duration))}>
                {speed}×
              </button>
            ))}
          </div>
          <p className="muted small">{data.run.latencyMeaning}</p>
          {data.run.calibration && (
            <p className="muted small" data-testid="replay-calibration">
              {data.run.calibration}
            </p>
          )}
          <SessionDashboard sessionId={sessionId} steps={steps} clients={data.run.clients} bucketsMs={data.run.profile.bucketsMs} model={data.run.profile.load.model} buffer={buffer} version={version} markers={markers} noiseTestId="replay-noise" />
          <RunProfiles sessionId={sessionId} />
        </>
      )}
    </div>
  );
}
