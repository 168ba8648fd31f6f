/**
 * Which addresses the server may call on a tenant's behalf (issue #38): the one rule behind
 * link previews, outbound webhooks and every integration URL a tenant sets (n8n, Typebot, the
 * AI module's endpoint, a connection's webhook). Only public unicast addresses pass; loopback,
 * private, link-local (the cloud metadata address among them), CGNAT, multicast, reserved and
 * documentation ranges are refused, also in their IPv4-mapped and NAT64 IPv6 forms. Pure: the
 * DNS lookups and the fetch that use it are in server/http/public_fetch.ts.
 */

function ipv4Parts(ip: string): number[] | null {
  const parts = ip.split(".");
  if (parts.length !== 4 || parts.some((p) => !/^\d{1,3}$/.test(p))) return null;
  const nums = parts.map(Number);
  return nums.every((n) => n <= 255) ? nums : null;
}

function publicV4([a, b, c]: number[]): boolean {
  if (a === 0 || a === 10 || a === 127 || a >= 224) return false;
  if (a === 100 && b >= 64 && b <= 127) return false;
  if (a === 169 && b === 254) return false;
  if (a === 172 && b >= 16 && b <= 31) return false;
  if (a === 192 && b === 168) return false;
  if (a === 192 && b === 0 && (c === 0 || c === 2)) return false;
  if (a === 198 && (b === 18 || b === 19)) return false;
  if (a === 198 && b === 51 && c === 100) return false;
  if (a === 203 && b === 0 && c === 113) return false;
  return true;
}

/** Expands an IPv6 text to 8 groups, or null when it is not IPv6. */
function ipv6Groups(ip: string): number[] | null {
  let text = ip.replace(/^\[|\]$/g, "").split("%")[0].toLowerCase();
  const tailV4 = /(\d+\.\d+\.\d+\.\d+)$/.exec(text);
  if (tailV4) {
    const v4 = ipv4Parts(tailV4[1]);
    if (!v4) return null;
    text = text.slice(0, -tailV4[1].length) +
      `${((v4[0] << 8) | v4[1]).toString(16)}:${((v4[2] << 8) | v4[3]).toString(16)}`;
  }
  if (!/^[0-9a-f:]+$/.test(text) || !text.includes(":")) return null;
  const halves = text.split("::");
  if (halves.length > 2) return null;
  const head = halves[0] ? halves[0].split(":") : [];
  const tail = halves.length === 2 && halves[1] ? halves[1].split(":") : [];
  const fill = halves.length === 2 ? 8 - head.length - tail.length : 0;
  if (fill < 0 || (halves.length === 1 && head.length !== 8)) return null;
  const groups = [...head, ...Array(fill).fill("0"), ...tail].map((g) => parseInt(g, 16));
  return groups.length === 8 && groups.every((g) => g >= 0 && g <= 0xffff) ? groups : null;
}

/** Whether `host` (without brackets) is an IPv4 or IPv6 literal rather than a name. */
export function isIpLiteral(host: string): boolean {
  return ipv4Parts(host) !== null || ipv6Groups(host) !== null;
}

/** Whether `ip` (v4 or v6 text) is a public unicast address the server may call. */
export function isPublicAddress(ip: string): boolean {
  const v4 = ipv4Parts(ip);
  if (v4) return publicV4(v4);
  const g = ipv6Groups(ip);
  if (!g) return false;
  const embeddedV4 = [g[6] >> 8, g[6] & 0xff, g[7] >> 8, g[7] & 0xff];
  if (g.slice(0, 5).every((x) => x === 0) && (g[5] === 0xffff || g[5] === 0)) {
    // ::ffff:a.b.c.d (mapped), ::a.b.c.d (compatible), ::1 and :: fall here.
    return g[5] === 0xffff ? publicV4(embeddedV4) : false;
  }
  if (g[0] === 0x64 && g[1] === 0xff9b) return publicV4(embeddedV4);
  if ((g[0] & 0xfe00) === 0xfc00) return false; // unique local
  if ((g[0] & 0xffc0) === 0xfe80) return false; // link-local
  if ((g[0] & 0xff00) === 0xff00) return false; // multicast
  if (g[0] === 0x2001 && g[1] === 0x0db8) return false; // documentation
  return true;
}

/**
 * Whether `hostname` is known to be internal before any DNS lookup: an address literal that
 * is not public, or a name of the local network (`localhost`, `*.localhost`, `*.local`,
 * `*.internal`). Other names are decided after resolution (server/http/public_fetch.ts); this
 * lets a form refuse `http://127.0.0.1/` when it is saved.
 */
export function isPrivateHost(hostname: string): boolean {
  const host = hostname.toLowerCase().replace(/^\[|\]$/g, "").replace(/\.$/, "");
  if (host === "localhost" || host.endsWith(".localhost") || host.endsWith(".local") || host.endsWith(".internal")) {
    return true;
  }
  return isIpLiteral(host) && !isPublicAddress(host);
}
