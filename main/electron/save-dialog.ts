// The desktop app's "where to save" for an exported PDF: Electron's native save dialog, over the
// window that asked, starting in the Documents folder with the report's name. Thin on purpose (the
// Electron binary cannot run in CI): the PDF itself is printed and kept by pdf-export.ts.

import { app, BrowserWindow, dialog } from 'electron';
import { join } from 'node:path';
import type { SaveDialog } from '../services/sessions/pdf-export.ts';

export const electronSaveDialog: SaveDialog = async (fileName) => {
  const options: Electron.SaveDialogOptions = {
    title: 'Save the comparison report',
    defaultPath: join(app.getPath('documents'), fileName),
    filters: [{ name: 'PDF', extensions: ['pdf'] }],
  };
  const parent = BrowserWindow.getFocusedWindow();
  const result = parent ? await dialog.showSaveDialog(parent, options) : await dialog.showSaveDialog(options);
  return result.canceled || !result.filePath ? null : result.filePath;
};
