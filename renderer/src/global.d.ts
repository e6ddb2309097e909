// `window.benchlab` is the renderer's only door to the back end (preload in Electron, WebSocket in web mode).

import type { BenchlabApi } from '../../app/contract.ts';

declare global {
  interface Window {
    benchlab?: BenchlabApi;
  }
}
