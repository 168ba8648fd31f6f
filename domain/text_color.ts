/**
 * Text on a colour someone chose (a tag's, a queue's): black or white, whichever contrasts
 * more with it. One of the two always reaches WCAG AA's 4.5:1 (the worst case, a background
 * of luminance ≈ 0.18, still gives 4.58), which a fixed white misses on light colours
 * (#f59e0b: 2.15) and even on a mid indigo (#6366f1: 4.47).
 */

/** WCAG 2 relative luminance of `#rgb` or `#rrggbb`, or null for anything else. */
export function relativeLuminance(color: string | null | undefined): number | null {
  const hex = /^#([0-9a-f]{3}|[0-9a-f]{6})$/i.exec(color?.trim() ?? "")?.[1];
  if (!hex) return null;
  const full = hex.length === 3 ? [...hex].map((c) => c + c).join("") : hex;
  const [r, g, b] = [0, 2, 4].map((i) => {
    const v = parseInt(full.slice(i, i + 2), 16) / 255;
    return v <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4;
  });
  return 0.2126 * r + 0.7152 * g + 0.0722 * b;
}

/** The contrast ratio of two luminances (1 to 21). */
export const contrastRatio = (a: number, b: number): number => (Math.max(a, b) + 0.05) / (Math.min(a, b) + 0.05);

/** "#000000" or "#ffffff", whichever reads better on `background`; white when it is not a hex colour. */
export function textColorOn(background: string | null | undefined): "#000000" | "#ffffff" {
  const l = relativeLuminance(background);
  if (l === null) return "#ffffff";
  return contrastRatio(l, 0) > contrastRatio(l, 1) ? "#000000" : "#ffffff";
}
