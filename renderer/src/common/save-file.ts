// Saving a file the page made (a plan file, an export): a Blob handed to the browser's download,
// which Electron's renderer turns into its save dialog.

/** Long enough for the browser to have read the file before its object URL goes. */
const OBJECT_URL_LIFETIME_MS = 60_000;

export function saveFile(fileName: string, content: string | Uint8Array<ArrayBuffer>, mediaType: string): void {
  const url = URL.createObjectURL(new Blob([content], { type: mediaType }));
  const link = document.createElement('a');
  link.href = url;
  link.download = fileName;
  document.body.append(link);
  link.click();
  link.remove();
  window.setTimeout(() => URL.revokeObjectURL(url), OBJECT_URL_LIFETIME_MS);
}
