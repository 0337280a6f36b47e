// In-memory LRU cache of tokenizer counts, keyed by the SHA-1 of the counted text, so the same tool result or
// workspace file is tokenised once per process however many sessions, views or ids refer to it.

import { createHash } from "node:crypto";

/** Cache key of a text: SHA-1 hex of its UTF-8 bytes. */
export function textKey(text: string): string {
  return createHash("sha1").update(text, "utf8").digest("hex");
}

/** Least-recently-used map with a fixed entry budget (Map keeps insertion order; a hit re-inserts the key). */
export class LruCache<K, V> {
  private readonly map = new Map<K, V>();

  constructor(readonly maxEntries: number) {
    if (!Number.isInteger(maxEntries) || maxEntries < 1)
      throw new RangeError("maxEntries must be a positive integer");
  }

  get size(): number {
    return this.map.size;
  }

  has(key: K): boolean {
    return this.map.has(key);
  }

  /** The value, marking it most recently used; undefined when absent. */
  get(key: K): V | undefined {
    if (!this.map.has(key)) return undefined;
    const value = this.map.get(key);
    this.map.delete(key);
    if (value !== undefined) this.map.set(key, value);
    return value;
  }

  /** Inserts or refreshes, evicting the least recently used entries beyond the budget. */
  set(key: K, value: V): void {
    this.map.delete(key);
    this.map.set(key, value);
    while (this.map.size > this.maxEntries) {
      const oldest = this.map.keys().next();
      if (oldest.done) break;
      this.map.delete(oldest.value);
    }
  }

  clear(): void {
    this.map.clear();
  }
}

/** A text's count: tokenizer tokens for the tokenised parts + chars/4 for the parts too risky to tokenise. */
export interface TokenCount {
  tokens: number;
  /** Chars that were estimated (ceil(chars/4)) instead of tokenised: long unbroken runs such as base64. */
  estimatedChars: number;
}
