// Renderer entry: finds `window.benchlab` (Electron's preload) or builds it over a WebSocket (web mode).

import './zod-setup.ts';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { buildApi } from '../../app/contract.ts';
import { App } from './App.tsx';
import { ApiProvider } from './api-context.tsx';
import { createWebTransport, type ConnectionState } from './transport/web-transport.ts';
import './styles.css';

let onConnectionState: ((listener: (state: ConnectionState) => void) => () => void) | undefined;
if (!window.benchlab) {
  const transport = createWebTransport();
  window.benchlab = buildApi('web', transport);
  onConnectionState = transport.onStateChange;
}

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <ApiProvider api={window.benchlab} onConnectionState={onConnectionState}>
      <App />
    </ApiProvider>
  </StrictMode>,
);
