// The one memo idiom (architecture review §1.5, §4.4 step 6): results remembered per key OBJECT, each under a
// name. The WeakMap lets an object's results go with the object — a Transcript the reader replaced, a MapNode
// tree of an old DTO — so no cache needs an explicit drop for that. `limit` bounds the names per object: the
// names can be unbounded (one per what-if query); past the limit the object's results start over.
// What is memoised where, and why, is listed in server/service/report-memo.ts and docs/performance.md.

export class MemoByObject<K extends object, V> {
  private readonly byObject = new WeakMap<K, Map<string, V>>();

  constructor(private readonly limit = 32) {}

  /** The result remembered for (object, name), without computing one. */
  peek(obj: K, name: string): V | undefined {
    return this.byObject.get(obj)?.get(name);
  }

  /** The result for (object, name): remembered, or made now and remembered. */
  get(obj: K, name: string, make: () => V): V {
    let named = this.byObject.get(obj);
    if (!named) {
      named = new Map();
      this.byObject.set(obj, named);
    }
    const hit = named.get(name);
    if (hit !== undefined) return hit;
    const value = make();
    if (named.size > this.limit) named.clear();
    named.set(name, value);
    return value;
  }
}

export const memoByObject = <K extends object, V>(limit?: number): MemoByObject<K, V> =>
  new MemoByObject<K, V>(limit);
