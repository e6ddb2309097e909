// The one way the renderer reads something over the contract and keeps it fresh: loaded once the
// back end is reachable (again after a reconnect), reloaded on demand after a change, and, when an
// event carries updates, kept current by that event. The hosts, presets, templates, studies,
// sessions, host connections, deployments and the running plan all load this way.

import { useCallback, useEffect, useRef, useState } from 'react';
import type { BenchlabApi, EventName, EventPayload } from '../../../app/contract.ts';
import { errorMessage, useApi, useConnection } from '../api-context.tsx';

export interface Loaded<T> {
  /** Null until the first answer (or the first event). */
  value: T | null;
  error: string | null;
  setError: (error: string | null) => void;
  /** Replaces the value with one a request returned (the answer to a start or a cancel, say). */
  setValue: (value: T) => void;
  reload: () => void;
}

/** An event that carries the update itself, or one that only says when to load again. */
export type LiveUpdates<T, E extends EventName> =
  | {
      event: E;
      /** The value after one event; `current` is null while nothing arrived yet. */
      apply: (current: T | null, payload: EventPayload<E>) => T;
      /** How an answer joins what events brought before it; by default the answer replaces it. */
      merge?: (current: T | null, loaded: T) => T;
    }
  | { event: E; reloadWhen: (payload: EventPayload<E>) => boolean };

export function useLoaded<T, E extends EventName = never>(load: (api: BenchlabApi) => Promise<T>, live?: LiveUpdates<T, E>): Loaded<T> {
  const api = useApi();
  const link = useConnection();
  const [value, setValue] = useState<T | null>(null);
  const [error, setError] = useState<string | null>(null);
  // The latest loader and event handlers, so callers may pass inline functions without reloading
  // or resubscribing on every render.
  const latest = useRef({ load, live });
  useEffect(() => {
    latest.current = { load, live };
  });
  const event = live?.event;

  const reload = useCallback(() => {
    latest.current.load(api).then(
      (loaded) => {
        const updates = latest.current.live;
        const merge = updates && 'merge' in updates ? updates.merge : undefined;
        setValue((current) => (merge ? merge(current, loaded) : loaded));
        setError(null);
      },
      (failure: unknown) => setError(errorMessage(failure)),
    );
  }, [api]);

  // Subscribed before the first load (effects run in order), so no update falls between the two.
  useEffect(() => {
    if (link !== 'connected' || event === undefined) return;
    return api.subscribe(event, (payload) => {
      const updates = latest.current.live;
      if (!updates) return;
      if ('apply' in updates) setValue((current) => updates.apply(current, payload));
      else if (updates.reloadWhen(payload)) reload();
    });
  }, [api, link, event, reload]);

  useEffect(() => {
    if (link === 'connected') reload();
  }, [link, reload]);

  return { value, error, setError, setValue, reload };
}

const NOTHING_YET: ReadonlyMap<number, never> = new Map<number, never>();

/**
 * A list with one entry per id (per host, say), loaded once and then kept current by an event that
 * carries one entry at a time. An event that arrived before the list is newer than it, so it wins.
 */
export function useKeyedList<E extends EventName>(
  load: (api: BenchlabApi) => Promise<Array<EventPayload<E>>>,
  event: E,
  keyOf: (entry: EventPayload<E>) => number,
): ReadonlyMap<number, EventPayload<E>> {
  const { value } = useLoaded<ReadonlyMap<number, EventPayload<E>>, E>(async (api) => new Map((await load(api)).map((entry) => [keyOf(entry), entry])), {
    event,
    apply: (current, entry) => new Map(current).set(keyOf(entry), entry),
    merge: (current, loaded) => (current ? new Map([...loaded, ...current]) : loaded),
  });
  return value ?? NOTHING_YET;
}
