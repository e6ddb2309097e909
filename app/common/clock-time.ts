// An instant as the wall-clock time people read it, HH:MM:SS in local time: how fault messages
// ("client link lost at 14:03:07") and the banners that show them name the moment.

export function clockTime(at: number | string | Date): string {
  const date = new Date(at);
  if (Number.isNaN(date.getTime())) return String(at);
  const pad = (value: number) => String(value).padStart(2, '0');
  return `${pad(date.getHours())}:${pad(date.getMinutes())}:${pad(date.getSeconds())}`;
}
