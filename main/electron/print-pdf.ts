// The app's PDF printer: Electron's own Chromium (webContents.printToPDF) in a hidden, sandboxed
// window with JavaScript off, loading the self-contained report page. Thin on purpose: the Electron
// binary cannot run in CI, so everything it prints is built and tested behind it in web mode.

import { BrowserWindow } from 'electron';
import type { PdfRenderer } from '../services/sessions/pdf-export.ts';

export const electronPdfRenderer: PdfRenderer = async (html) => {
  const win = new BrowserWindow({ show: false, webPreferences: { javascript: false, sandbox: true, contextIsolation: true, partition: 'benchlab-print' } });
  try {
    // Its own session (partition), so closing the network here leaves the main window's alone.
    win.webContents.session.webRequest.onBeforeRequest({ urls: ['http://*/*', 'https://*/*'] }, (_details, respond) => respond({ cancel: true }));
    await win.loadURL(`data:text/html;charset=utf-8,${encodeURIComponent(html)}`);
    const pdf = await win.webContents.printToPDF({ landscape: true, printBackground: true, pageSize: 'A4' });
    return new Uint8Array(pdf);
  } finally {
    win.destroy();
  }
};
