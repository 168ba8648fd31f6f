/** Typed access to the browser-local values the app keeps (token, theme, volume, drafts…). */

/** Reads a value, or `fallback` when absent or when storage is unavailable. */
export function readLocal(key: string, fallback = ""): string {
  try {
    return localStorage.getItem(key) ?? fallback;
  } catch {
    return fallback;
  }
}

/** Whether `key` is stored at all (whatever its value; false when storage is unavailable). */
export function hasLocal(key: string): boolean {
  try {
    return localStorage.getItem(key) !== null;
  } catch {
    return false;
  }
}

/** Stores a value (removes it when null). */
export function writeLocal(key: string, value: string | null): void {
  try {
    if (value === null) localStorage.removeItem(key);
    else localStorage.setItem(key, value);
  } catch { /* storage full or blocked: the value is only a convenience */ }
}

/** The stored volume 0–1 (default 1, spec 000 §2). */
export function readVolume(): number {
  const v = Number(readLocal("volume", "1"));
  return Number.isFinite(v) && v >= 0 && v <= 1 ? v : 1;
}

/** Sets a cookie the server reads when rendering (theme, language). */
export function writeCookie(name: string, value: string): void {
  document.cookie = `${name}=${encodeURIComponent(value)}; path=/; max-age=31536000; samesite=lax`;
}
