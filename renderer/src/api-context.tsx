// React access to `window.benchlab` and to the web transport's connection state.

import { createContext, useContext, useEffect, useState, type ReactNode } from 'react';
import type { BenchlabApi } from '../../app/contract.ts';
import type { ConnectionState } from './transport/web-transport.ts';

interface ApiContextValue {
  api: BenchlabApi;
  connection: ConnectionState;
}

const ApiContext = createContext<ApiContextValue | null>(null);

export function ApiProvider(props: {
  api: BenchlabApi;
  onConnectionState?: ((listener: (state: ConnectionState) => void) => () => void) | undefined;
  children: ReactNode;
}) {
  const { api, onConnectionState } = props;
  // Electron IPC has no connection to lose; the web transport reports its own.
  const [connection, setConnection] = useState<ConnectionState>(onConnectionState ? 'connecting' : 'connected');
  useEffect(() => onConnectionState?.(setConnection), [onConnectionState]);
  return <ApiContext.Provider value={{ api, connection }}>{props.children}</ApiContext.Provider>;
}

export function useApi(): BenchlabApi {
  const value = useContext(ApiContext);
  if (!value) throw new Error('useApi outside ApiProvider');
  return value.api;
}

export function useConnection(): ConnectionState {
  return useContext(ApiContext)?.connection ?? 'connecting';
}

/** The message to show for any rejected call (one rule with the back end's). */
export { messageOf as errorMessage } from '../../app/common/errors.ts';
