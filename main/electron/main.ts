// Electron's main process, kept thin on purpose (the Electron binary cannot run on the build
// machines, so everything behind it is tested through web mode). It owns only: opening the same
// services and dispatcher web mode uses, locking the window down (sandbox, CSP, no navigation, no
// new windows, no permissions), and carrying the contract over IPC to our own renderer frame only.

import { app, BrowserWindow, dialog, ipcMain, session, type IpcMainEvent, type IpcMainInvokeEvent, type WebContents } from 'electron';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { isEventName, type EventName } from '../../app/contract.ts';
import { createDispatcher, type Dispatcher, type DispatchOutcome } from '../api/dispatch.ts';
import { createHandlers } from '../api/handlers.ts';
import { createServices, type Services } from '../services/services.ts';
import { electronPdfRenderer } from './print-pdf.ts';
import { electronSaveDialog } from './save-dialog.ts';
import { NewerSchemaError } from '../services/store/database.ts';
import { CONTENT_SECURITY_POLICY } from '../web/security.ts';
import { CALL_CHANNEL, EVENT_CHANNEL, SUBSCRIBE_CHANNEL, UNSUBSCRIBE_CHANNEL } from './channels.ts';

// Built layout (electron-vite): out/main/index.js, out/preload/index.cjs, out/renderer/index.html.
const PRELOAD_FILE = join(import.meta.dirname, '..', 'preload', 'index.cjs');
const RENDERER_FILE = join(import.meta.dirname, '..', 'renderer', 'index.html');
const RENDERER_FILE_URL = pathToFileURL(RENDERER_FILE).href;
// The dev server is honoured only unpackaged: in a shipped app an environment variable must not be
// able to point the privileged window (and its IPC) at another page.
const DEV_SERVER_URL = app.isPackaged ? undefined : process.env.ELECTRON_RENDERER_URL;

let mainWindow: BrowserWindow | null = null;

/** Same folder web mode uses by default, so both front doors share one store. */
function dataDir(): string {
  const override = process.env.BENCHLAB_DATA_DIR?.trim();
  return override ? resolve(override) : app.getPath('userData');
}

function isRendererUrl(url: string): boolean {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return false;
  }
  if (DEV_SERVER_URL) return parsed.origin === new URL(DEV_SERVER_URL).origin;
  // The hash carries the page (#/hosts); the document itself must be our index.html.
  parsed.hash = '';
  parsed.search = '';
  return parsed.href === RENDERER_FILE_URL;
}

/** Only the top frame of our window, showing our renderer, may talk to the back end. */
function isTrustedSender(event: IpcMainEvent | IpcMainInvokeEvent): boolean {
  const frame = event.senderFrame;
  if (!mainWindow || mainWindow.isDestroyed() || frame === null) return false;
  const contents = mainWindow.webContents;
  if (event.sender !== contents) return false;
  const top = contents.mainFrame;
  if (frame.processId !== top.processId || frame.routingId !== top.routingId) return false;
  return isRendererUrl(frame.url);
}

function lockDownWebContents(): void {
  app.on('web-contents-created', (_event, contents) => {
    contents.setWindowOpenHandler(() => ({ action: 'deny' }));
    // The UI is one page with hash routing (in-page navigation does not emit will-navigate).
    contents.on('will-navigate', (event) => event.preventDefault());
    contents.on('will-attach-webview', (event) => event.preventDefault());
  });
}

function lockDownSession(): void {
  const ses = session.defaultSession;
  ses.setPermissionRequestHandler((_contents, _permission, callback) => callback(false));
  ses.setPermissionCheckHandler(() => false);
  // The header also covers the dev server; for file:// the meta tag in index.html is the fallback.
  // CSP governs documents only, so other responses (and DevTools' own pages) pass untouched.
  ses.webRequest.onHeadersReceived((details, callback) => {
    const isDocument = details.resourceType === 'mainFrame' || details.resourceType === 'subFrame';
    if (!isDocument || details.url.startsWith('devtools:')) {
      callback({});
      return;
    }
    const headers: Record<string, string[]> = {};
    for (const [name, value] of Object.entries(details.responseHeaders ?? {})) {
      if (name.toLowerCase() !== 'content-security-policy') headers[name] = value;
    }
    headers['Content-Security-Policy'] = [CONTENT_SECURITY_POLICY];
    callback({ responseHeaders: headers });
  });
}

function serveContract(services: Services, dispatch: Dispatcher): void {
  const refused: DispatchOutcome = {
    ok: false,
    error: { code: 'unavailable', message: 'refused: only the Benchlab window may call the back end' },
  };
  ipcMain.handle(CALL_CHANNEL, (event, name: unknown, args: unknown) => (isTrustedSender(event) ? dispatch(name, args) : refused));

  // Per window: event name → unsubscribe from the bus. Subscribing twice is a no-op, so a reloaded
  // page that subscribes again does not get each event twice.
  const subscriptions = new Map<WebContents, Map<EventName, () => void>>();
  const subscriptionsOf = (contents: WebContents) => {
    let mine = subscriptions.get(contents);
    if (!mine) {
      const created = new Map<EventName, () => void>();
      subscriptions.set(contents, created);
      contents.once('destroyed', () => {
        for (const stop of created.values()) stop();
        subscriptions.delete(contents);
      });
      mine = created;
    }
    return mine;
  };

  ipcMain.on(SUBSCRIBE_CHANNEL, (event, name: unknown) => {
    if (!isTrustedSender(event) || !isEventName(name)) return;
    const contents = event.sender;
    const mine = subscriptionsOf(contents);
    if (mine.has(name)) return;
    const stop = services.bus.subscribe(name, (payload) => {
      if (!contents.isDestroyed()) contents.send(EVENT_CHANNEL, name, payload);
    });
    mine.set(name, stop);
  });

  ipcMain.on(UNSUBSCRIBE_CHANNEL, (event, name: unknown) => {
    if (!isTrustedSender(event) || !isEventName(name)) return;
    const mine = subscriptions.get(event.sender);
    mine?.get(name)?.();
    mine?.delete(name);
  });
}

function createWindow(notices: readonly string[]): BrowserWindow {
  const win = new BrowserWindow({
    width: 1280,
    height: 840,
    minWidth: 900,
    minHeight: 600,
    title: 'Benchlab',
    show: false,
    webPreferences: {
      preload: PRELOAD_FILE,
      contextIsolation: true,
      sandbox: true,
      nodeIntegration: false,
      webSecurity: true,
      webviewTag: false,
    },
  });
  win.once('ready-to-show', () => {
    win.show();
    if (notices.length > 0) {
      const message = 'Benchlab started with a warning';
      void dialog.showMessageBox(win, { type: 'warning', title: 'Benchlab', message, detail: notices.join('\n\n') });
    }
  });
  win.on('closed', () => {
    if (mainWindow === win) mainWindow = null;
  });
  const loading = DEV_SERVER_URL ? win.loadURL(DEV_SERVER_URL) : win.loadFile(RENDERER_FILE);
  loading.catch((error: unknown) => console.error('benchlab: the window failed to load:', error));
  return win;
}

/** The services, or null after telling the user why the store cannot be opened. */
function openServices(): Services | null {
  try {
    return createServices({ dataDir: dataDir(), transport: 'electron', version: app.getVersion() });
  } catch (error) {
    // A data file from a newer Benchlab is refused untouched; say so plainly and stop rather than
    // run without a store. Any other failure also gets its message (never a stack) in the box.
    if (!(error instanceof NewerSchemaError)) console.error('benchlab: cannot open the data store:', error);
    dialog.showErrorBox('Benchlab cannot open its data', error instanceof Error ? error.message : String(error));
    return null;
  }
}

async function start(): Promise<void> {
  lockDownWebContents();
  await app.whenReady();
  lockDownSession();

  const services = openServices();
  if (!services) {
    app.exit(1);
    return;
  }
  services.reports.useRenderer(electronPdfRenderer);
  services.reports.useSaveDialog(electronSaveDialog);
  // Quitting waits for the services to shut down in order (the work in flight ended or awaited,
  // then the store closed), then quits for real.
  let shutdown: 'none' | 'closing' | 'closed' = 'none';
  app.on('before-quit', (event) => {
    if (shutdown === 'closed') return;
    event.preventDefault();
    if (shutdown === 'closing') return;
    shutdown = 'closing';
    services
      .close()
      .catch((error: unknown) => console.error('benchlab: shutting down failed:', error))
      .finally(() => {
        shutdown = 'closed';
        app.quit();
      });
  });

  const notices = services.info().notices;
  for (const notice of notices) console.warn(`benchlab: ${notice}`);
  const dispatch = createDispatcher(createHandlers(services), (error, name) => {
    console.error(`benchlab: ${name} failed:`, error);
  }, services.requests);
  serveContract(services, dispatch);

  mainWindow = createWindow(notices);
  app.on('activate', () => {
    // macOS keeps the app running without windows; the dock icon brings one back.
    if (BrowserWindow.getAllWindows().length === 0) mainWindow = createWindow([]);
  });
  app.on('window-all-closed', () => {
    if (process.platform !== 'darwin') app.quit();
  });
}

start().catch((error: unknown) => {
  console.error('benchlab: failed to start:', error);
  app.exit(1);
});
