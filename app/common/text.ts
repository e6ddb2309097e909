// Small text checks shared by the models' validation.

/** True when text holds a C0 control character (line breaks, NUL, escape…) or DEL. */
export function hasControlCharacters(text: string): boolean {
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (code < 0x20 || code === 0x7f) return true;
  }
  return false;
}
