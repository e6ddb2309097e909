// The log's backlog in memory: the last lines of each topic (each deploy, build and run, named by
// app/common/log-contract.ts logTopic), so a log panel opened later or a reloaded page shows what
// happened. Bounded twice: lines per topic, and topics (the one quiet the longest is forgotten).
// A progress line replaces its topic's previous one; the next ordinary line of the topic ends it.

import { logTopic, type LogBacklog, type LogLine } from '../../app/common/log-contract.ts';

export const BACKLOG_LINES_PER_TOPIC = 200;
export const BACKLOG_TOPICS = 40;

interface Topic {
  lines: LogLine[];
  progress: LogLine | null;
}

export class LogBacklogBuffer {
  readonly #linesPerTopic: number;
  readonly #maxTopics: number;
  /** Insertion order is recency: a topic that gets a line moves to the end. */
  readonly #topics = new Map<string, Topic>();

  constructor(options: { linesPerTopic?: number; topics?: number } = {}) {
    this.#linesPerTopic = options.linesPerTopic ?? BACKLOG_LINES_PER_TOPIC;
    this.#maxTopics = options.topics ?? BACKLOG_TOPICS;
  }

  add(line: LogLine): void {
    const name = logTopic(line);
    const topic = this.#topics.get(name) ?? { lines: [], progress: null };
    this.#topics.delete(name);
    this.#topics.set(name, topic);
    if (line.progress) {
      topic.progress = line;
    } else {
      topic.progress = null;
      topic.lines.push(line);
      if (topic.lines.length > this.#linesPerTopic) topic.lines.splice(0, topic.lines.length - this.#linesPerTopic);
    }
    for (const oldest of this.#topics.keys()) {
      if (this.#topics.size <= this.#maxTopics) break;
      this.#topics.delete(oldest);
    }
  }

  snapshot(): LogBacklog {
    return { topics: [...this.#topics].map(([topic, { lines, progress }]) => ({ topic, lines: [...lines], progress })) };
  }
}
