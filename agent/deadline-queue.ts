// A load thread's request deadlines, oldest first. A thread writes requests in the order of the
// time their timeout runs from (the write in the closed model, the intended time in the open one,
// whose slots leave their queue in order), so the deadlines arrive sorted and a FIFO is a priority
// queue: one timer for the head, no timer per request. Entries of requests already settled are
// skipped when they reach the head.

import type { HttpConnection } from './http-client.ts';

export class DeadlineQueue {
  #connections: Array<HttpConnection | null> = [];
  #seqs: number[] = [];
  #deadlines: number[] = [];
  #head = 0;

  push(connection: HttpConnection, seq: number, deadline: number): void {
    this.#connections.push(connection);
    this.#seqs.push(seq);
    this.#deadlines.push(deadline);
  }

  /** Deadline of the oldest request still on the wire, or null. */
  nextDeadline(): number | null {
    this.#skipSettled();
    return this.#head < this.#deadlines.length ? this.#deadlines[this.#head]! : null;
  }

  /** Removes and returns the oldest request (its connection and sequence number) if its deadline is at or before `now`. */
  popExpired(now: number): { connection: HttpConnection; seq: number } | null {
    const deadline = this.nextDeadline();
    if (deadline === null || deadline > now) return null;
    const connection = this.#connections[this.#head]!;
    const seq = this.#seqs[this.#head]!;
    this.#connections[this.#head++] = null;
    this.#compact();
    return { connection, seq };
  }

  #skipSettled(): void {
    while (this.#head < this.#deadlines.length) {
      const connection = this.#connections[this.#head]!;
      if (connection.isOutstanding(this.#seqs[this.#head]!)) return;
      this.#connections[this.#head++] = null;
    }
    this.#compact();
  }

  #compact(): void {
    if (this.#head === this.#deadlines.length) {
      this.#connections.length = this.#seqs.length = this.#deadlines.length = 0;
      this.#head = 0;
    } else if (this.#head > 4096 && this.#head * 2 > this.#deadlines.length) {
      this.#connections = this.#connections.slice(this.#head);
      this.#seqs = this.#seqs.slice(this.#head);
      this.#deadlines = this.#deadlines.slice(this.#head);
      this.#head = 0;
    }
  }
}
