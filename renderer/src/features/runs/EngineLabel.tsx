// Which load engine ran a session (live on the Run page, and in replay), with auto's fallback notice
// as its tooltip and a line beside it; "engine not recorded" for sessions from before it was kept.

import { engineLabel, type RecordedEngine } from '../../../../app/runs/engine-choice.ts';

export function EngineLabel({ engine, testId }: { engine: RecordedEngine | null; testId: string }) {
  if (!engine) {
    return (
      <span className="muted small" data-testid={testId} data-engine="">
        engine not recorded
      </span>
    );
  }
  return (
    <>
      <span className="badge" data-testid={testId} data-engine={engine.kind} title={engine.notice ?? `chosen: ${engine.choice}`}>
        {engineLabel(engine.kind)}
      </span>
      {engine.notice && (
        <span className="muted small" data-testid={`${testId}-notice`}>
          {engine.notice}
        </span>
      )}
    </>
  );
}
