// A `--pricing FILE` price list (JSON5; issue 14 §3): read once at start-up. A file that cannot be read or parsed,
// or a bad entry, is an error with its location — the CLI exits non-zero rather than price with half a list.

import JSON5 from "json5";
import { type PricingOverrides, parsePricingOverrides } from "../../shared/pricing.ts";
import { readRegularFileSync } from "./regular-file.ts";

export function readPricingFile(file: string): { prices: PricingOverrides; errors: string[] } {
  let text: string;
  try {
    text = readRegularFileSync(file, "utf8");
  } catch (e) {
    return { prices: {}, errors: [`${file}: cannot read: ${e instanceof Error ? e.message : String(e)}`] };
  }
  let value: unknown;
  try {
    value = JSON5.parse(text);
  } catch (e) {
    return {
      prices: {},
      errors: [`${file}: not valid JSON5: ${e instanceof Error ? e.message : String(e)}`],
    };
  }
  return parsePricingOverrides(value, file);
}
