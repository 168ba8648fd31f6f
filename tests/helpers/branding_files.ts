/**
 * Real files for the branding upload tests: a valid PNG drawn here (a colour banner with a
 * white stripe, so a logo is visible in screenshots), a minimal PDF, and bytes shaped like a
 * PKCS#12 file (an ASN.1 SEQUENCE with a long-form length), plus a multipart body builder.
 */

const CRC_TABLE = Array.from({ length: 256 }, (_, n) => {
  let c = n;
  for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  return c >>> 0;
});

function crc32(bytes: Uint8Array): number {
  let c = 0xffffffff;
  for (const b of bytes) c = CRC_TABLE[(c ^ b) & 0xff] ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
}

function chunk(type: string, data: Uint8Array<ArrayBuffer>): Uint8Array<ArrayBuffer> {
  const out = new Uint8Array(12 + data.length);
  const view = new DataView(out.buffer);
  view.setUint32(0, data.length);
  out.set(new TextEncoder().encode(type), 4);
  out.set(data, 8);
  view.setUint32(8 + data.length, crc32(out.subarray(4, 8 + data.length)));
  return out;
}

async function deflate(bytes: Uint8Array<ArrayBuffer>): Promise<Uint8Array<ArrayBuffer>> {
  const stream = new Blob([bytes]).stream().pipeThrough(new CompressionStream("deflate"));
  return new Uint8Array(await new Response(stream).arrayBuffer());
}

/** A `width`×`height` RGB PNG in `rgb`, with a white horizontal stripe across the middle third. */
export async function pngBanner(width: number, height: number, rgb: [number, number, number]): Promise<Uint8Array<ArrayBuffer>> {
  const raw = new Uint8Array(height * (1 + width * 3));
  for (let y = 0; y < height; y++) {
    const stripe = y >= height / 3 && y < (2 * height) / 3 && y % 4 !== 0;
    for (let x = 0; x < width; x++) {
      const o = y * (1 + width * 3) + 1 + x * 3;
      const white = stripe && x > width / 8 && x < (7 * width) / 8;
      raw.set(white ? [255, 255, 255] : rgb, o);
    }
  }
  const header = new Uint8Array(13);
  const view = new DataView(header.buffer);
  view.setUint32(0, width);
  view.setUint32(4, height);
  header.set([8, 2, 0, 0, 0], 8);
  const parts = [
    new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk("IHDR", header),
    chunk("IDAT", await deflate(raw)),
    chunk("IEND", new Uint8Array()),
  ];
  return new Uint8Array(await new Blob(parts).arrayBuffer());
}

/** A small valid PDF. */
export const PDF_BYTES = new TextEncoder().encode(
  "%PDF-1.4\n1 0 obj<</Type/Catalog/Pages 2 0 R>>endobj\n2 0 obj<</Type/Pages/Kids[3 0 R]/Count 1>>endobj\n" +
    "3 0 obj<</Type/Page/Parent 2 0 R/MediaBox[0 0 200 200]>>endobj\ntrailer<</Root 1 0 R>>\n%%EOF\n",
);

/** Bytes that start like a DER PKCS#12 file (SEQUENCE, two-byte length). */
export function p12Bytes(): Uint8Array<ArrayBuffer> {
  const body = new Uint8Array(300).fill(0x02);
  return new Uint8Array([0x30, 0x82, 0x01, 0x2c, ...body]);
}

/** A multipart body with `bytes` as the field `file` named `name`. */
export function fileForm(name: string, bytes: Uint8Array<ArrayBuffer>, type = "application/octet-stream"): FormData {
  const form = new FormData();
  form.append("file", new File([bytes], name, { type }));
  return form;
}
