/** Small helpers for records keyed by untrusted strings (safe against "__proto__", "constructor" …). */

/** The record's own property `key`, or undefined. */
export function own<T>(obj: Record<string, T>, key: string): T | undefined {
  return Object.prototype.hasOwnProperty.call(obj, key) ? obj[key] : undefined;
}

/** Set an own, enumerable property even when `key` is "__proto__". */
export function setOwn<T>(obj: Record<string, T>, key: string, value: NoInfer<T>): void {
  if (key === "__proto__") {
    Object.defineProperty(obj, key, { value, enumerable: true, writable: true, configurable: true });
  } else {
    obj[key] = value;
  }
}
