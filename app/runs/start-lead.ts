// How far ahead a coordinated start is set: far enough for the slowest client to get its load agent
// ready, measured rather than guessed. Each client's clock measurement starts an agent on it, so it
// times what a step's start costs there: the SSH exec, Node's start-up and the first answer
// (ClockOffset.readyMs). A load agent does that and more (its load threads or the native engine's
// process), so the lead is twice the slowest client's measured time plus a margin, never below the
// floor that has always sufficed on quiet hosts, and capped so a host that answered once very slowly
// cannot hold a run back for long.

/** The lead with fast (or unmeasured) clients: what every coordinated start used before it was measured. */
export const START_LEAD_FLOOR_MS = 2000;
/** A start further ahead than this waits longer than a slow host's setup deserves. */
export const START_LEAD_CEILING_MS = 15_000;
/** A load agent readies more than the clock agent did: its setup is taken as this many times the measured one. */
const SETUP_FACTOR = 2;
/** For the instant's message to reach each agent and for scheduling jitter on a busy host. */
const MARGIN_MS = 500;

/** The lead for clients whose agents took `readyMs` each to answer first (undefined: not measured). */
export function coordinatedStartLeadMs(readyMs: ReadonlyArray<number | undefined>): number {
  const measured = readyMs.filter((ms): ms is number => ms !== undefined && Number.isFinite(ms) && ms >= 0);
  if (measured.length === 0) return START_LEAD_FLOOR_MS;
  const wanted = Math.ceil(Math.max(...measured) * SETUP_FACTOR + MARGIN_MS);
  return Math.min(START_LEAD_CEILING_MS, Math.max(START_LEAD_FLOOR_MS, wanted));
}
