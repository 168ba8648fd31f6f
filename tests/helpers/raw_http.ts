/**
 * One HTTP/1.1 request written by hand on a TCP socket, for headers `fetch` will not send as
 * given (it always writes its own `Host`): a test that forges the Host header uses this.
 */

/** The status, headers and body text of one raw exchange. */
export interface RawResponse {
  status: number;
  headers: Headers;
  body: string;
}

/** Sends `method path` to `baseUrl`'s host and port with exactly `headers` (Host included). */
export async function rawRequest(
  baseUrl: string,
  method: string,
  path: string,
  headers: Record<string, string>,
  body = "",
): Promise<RawResponse> {
  const url = new URL(baseUrl);
  const conn = await Deno.connect({ hostname: url.hostname, port: Number(url.port) });
  try {
    const bytes = new TextEncoder().encode(body);
    const lines = [`${method} ${path} HTTP/1.1`, ...Object.entries(headers).map(([k, v]) => `${k}: ${v}`)];
    lines.push(`content-length: ${bytes.byteLength}`, "connection: close", "", "");
    const head = new TextEncoder().encode(lines.join("\r\n"));
    const request = new Uint8Array(head.byteLength + bytes.byteLength);
    request.set(head);
    request.set(bytes, head.byteLength);
    await conn.write(request);
    return parse(new Uint8Array(await new Response(conn.readable).arrayBuffer()));
  } finally {
    try {
      conn.close();
    } catch { /* closed by reading to the end */ }
  }
}

/** Splits a whole HTTP/1.1 answer (Content-Length or chunked body). */
function parse(bytes: Uint8Array): RawResponse {
  const decoder = new TextDecoder();
  let split = 0;
  while (split < bytes.length && !(bytes[split] === 13 && bytes[split + 1] === 10 && bytes[split + 2] === 13 && bytes[split + 3] === 10)) split++;
  const [statusLine, ...headerLines] = decoder.decode(bytes.subarray(0, split)).split("\r\n");
  const headers = new Headers(headerLines.map((line) => {
    const at = line.indexOf(":");
    return [line.slice(0, at).trim(), line.slice(at + 1).trim()] as [string, string];
  }));
  let body = bytes.subarray(split + 4);
  if (headers.get("transfer-encoding")?.includes("chunked")) body = unchunk(body);
  return { status: Number(statusLine.split(" ")[1]), headers, body: decoder.decode(body) };
}

/** The data of a chunked body (sizes in hex, each chunk followed by CRLF, a 0 ends it). */
function unchunk(bytes: Uint8Array): Uint8Array {
  const parts: number[] = [];
  let at = 0;
  for (;;) {
    let end = at;
    while (end < bytes.length && bytes[end] !== 13) end++;
    const size = parseInt(new TextDecoder().decode(bytes.subarray(at, end)), 16);
    if (!size) return new Uint8Array(parts);
    parts.push(...bytes.subarray(end + 2, end + 2 + size));
    at = end + 2 + size + 2;
  }
}
