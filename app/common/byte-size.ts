// Sizes in words, one way each: decimal units for what is downloaded or stored on disk (the units
// Maven prints), binary units for a machine's memory (the units the kernel and free(1) use).

/** "3.4 MB": a download or file size, in decimal units. */
export function formatBytes(bytes: number): string {
  if (bytes < 1e3) return `${bytes} B`;
  const [value, unit] = bytes < 1e6 ? [bytes / 1e3, 'kB'] : bytes < 1e9 ? [bytes / 1e6, 'MB'] : [bytes / 1e9, 'GB'];
  return `${value < 10 ? value.toFixed(1) : value.toFixed(0)} ${unit}`;
}

/** "23.4 GiB" or "512 MiB": a machine's memory, in binary units. */
export function formatMemory(bytes: number): string {
  const gib = bytes / 1024 ** 3;
  return gib >= 1 ? `${gib.toFixed(1)} GiB` : `${Math.round(bytes / 1024 ** 2)} MiB`;
}
