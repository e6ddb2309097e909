// Types for the one part of autocannon the agent drives directly: its HTTP/1.1 keep-alive client
// (lib/httpClient.js), one per connection. Only what agent/http-connection.ts touches is declared.

declare module 'autocannon/lib/httpClient.js' {
  import type { EventEmitter } from 'node:events';

  export interface AutocannonClientOptions {
    hostname: string;
    port: number;
    protocol: 'http:' | 'https:';
    path: string;
    method: string;
    headers: Record<string, string>;
    body?: string | undefined;
    pipelining: number;
    /** Seconds. */
    timeout: number;
    setupClient?: (client: AutocannonClient) => void;
  }

  export interface AutocannonClient extends EventEmitter {
    reqsMade: number;
    destroyed: boolean;
    pipelinedRequests: { clear(): void; size(): number };
    _doRequest(): void;
    destroy(): void;
  }

  const Client: {
    new (options: AutocannonClientOptions): AutocannonClient;
    prototype: AutocannonClient;
  };
  export default Client;
}
