// `--json` output written in pieces (issue 18: peak RSS of `cost --json`): the bytes of
// `JSON.stringify(value, null, 2)`, but never one string of the whole report. A report of tens of MB held as one
// string (two-byte as soon as it holds one non-Latin-1 char) plus its UTF-8 Buffer was ~60 MB of the process's
// peak. Each top-level member is stringified inside a one-member object, so it is indented exactly as in the
// whole; a long array member goes CHUNK elements at a time the same way. Anything that is not a plain object
// at the top (an array, a `toJSON`, a primitive) is stringified whole.

const CHUNK = 512;

function isPlainObject(v: unknown): v is Record<string, unknown> {
  if (typeof v !== "object" || v === null || Array.isArray(v)) return false;
  const proto: unknown = Object.getPrototypeOf(v);
  return (proto === Object.prototype || proto === null) && !("toJSON" in v);
}

/** `JSON.stringify({ [key]: value }, null, 2)` without its braces; null when the member is left out. */
function member(key: string, value: unknown): string | null {
  const s = JSON.stringify({ [key]: value }, null, 2);
  return s === "{}" ? null : s.slice(2, -2);
}

/** A long array member, `"key": [ … ]`, CHUNK elements per piece. */
function writeArrayMember(key: string, items: readonly unknown[], write: (s: string) => void): void {
  const head = `{\n  ${JSON.stringify(key)}: [\n`;
  const tail = "\n  ]\n}";
  write(head.slice(2));
  for (let i = 0; i < items.length; i += CHUNK) {
    const s = JSON.stringify({ [key]: items.slice(i, i + CHUNK) }, null, 2);
    if (i > 0) write(",\n");
    // a slice of the stringified chunk is a view, not a copy (joined to the comma it would be copied once more)
    write(s.slice(head.length, -tail.length));
  }
  write("\n  ]");
}

/** Write `JSON.stringify(value, null, 2)` through `write` in pieces; returns false when that is `undefined`. */
export function writeJson(value: unknown, write: (s: string) => void): boolean {
  if (!isPlainObject(value)) {
    const s = JSON.stringify(value, null, 2);
    if (s === undefined) return false;
    write(s);
    return true;
  }
  let first = true;
  for (const key of Object.keys(value)) {
    const v = value[key];
    const long = Array.isArray(v) && v.length > CHUNK;
    const text = long ? "" : member(key, v);
    if (text === null) continue;
    write(first ? "{\n" : ",\n");
    first = false;
    if (long) writeArrayMember(key, v, write);
    else write(text);
  }
  write(first ? "{}" : "\n}");
  return true;
}

/**
 * Pieces gathered to ~1 MB before each write (one syscall per MB to a file, not one per member). A piece of
 * a quarter of that or more goes out as it is, after what was gathered: joining it would copy it once more
 * (~24 ms of the 22 MB of `cost --json` on the 100 MB bench session).
 */
export class BufferedWriter {
  private parts: string[] = [];
  private size = 0;

  constructor(
    private readonly sink: (s: string) => void,
    private readonly limit = 1 << 20,
  ) {}

  readonly write = (s: string): void => {
    if (s.length >= this.limit / 4) {
      this.flush();
      this.sink(s);
      return;
    }
    this.parts.push(s);
    this.size += s.length;
    if (this.size >= this.limit) this.flush();
  };

  flush(): void {
    if (this.parts.length === 0) return;
    this.sink(this.parts.join(""));
    this.parts = [];
    this.size = 0;
  }
}

/** What `writeJson` and a final newline write, as one string (a small output that is also kept, e.g. cached). */
export function jsonText(value: unknown): string {
  const parts: string[] = [];
  writeJson(value, (s) => parts.push(s));
  parts.push("\n");
  return parts.join("");
}
