/**
 * Reads a Prometheus text-format scrape (what `GET /metrics` answers) into samples, and sums
 * them by name and labels, so a test can compare two scrapes.
 */

/** One sample line: `name{label="value",…} number`. */
export interface Sample {
  name: string;
  labels: Record<string, string>;
  value: number;
}

const LINE = /^([a-zA-Z_:][\w:]*)(?:\{(.*)\})?\s+(\S+)$/;
const LABEL = /([a-zA-Z_]\w*)="((?:[^"\\]|\\.)*)"/g;

/** Parses a scrape; comment lines (HELP, TYPE) are skipped, a malformed line throws. */
export function parseScrape(text: string): Sample[] {
  const samples: Sample[] = [];
  for (const line of text.split("\n")) {
    if (line === "" || line.startsWith("#")) continue;
    const match = LINE.exec(line);
    if (!match) throw new Error(`Not a sample line: ${line}`);
    const labels: Record<string, string> = {};
    for (const [, key, value] of (match[2] ?? "").matchAll(LABEL)) labels[key] = value.replace(/\\(.)/g, "$1");
    samples.push({ name: match[1], labels, value: Number(match[3]) });
  }
  return samples;
}

/** The scrape as a reader: `value(name, labels)` sums the samples whose labels include `labels`. */
export class Scrape {
  constructor(readonly samples: Sample[]) {}

  static parse(text: string): Scrape {
    return new Scrape(parseScrape(text));
  }

  value(name: string, labels: Record<string, string> = {}): number {
    let sum = 0;
    for (const s of this.samples) {
      if (s.name !== name) continue;
      if (Object.entries(labels).every(([k, v]) => s.labels[k] === v)) sum += s.value;
    }
    return sum;
  }

  /** Whether any sample has this name. */
  has(name: string): boolean {
    return this.samples.some((s) => s.name === name);
  }

  /** Every label value of every sample. */
  labelValues(): string[] {
    return this.samples.flatMap((s) => Object.values(s.labels));
  }
}

/** Scrapes `url`'s /metrics with `token`; throws unless it answers 200. */
export async function scrape(url: string, token: string): Promise<Scrape> {
  const response = await fetch(`${url}/metrics`, { headers: { authorization: `Bearer ${token}` } });
  const text = await response.text();
  if (response.status !== 200) throw new Error(`GET /metrics: ${response.status} ${text}`);
  return Scrape.parse(text);
}
