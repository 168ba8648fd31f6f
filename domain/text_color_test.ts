import assert from "node:assert/strict";
import { contrastRatio, relativeLuminance, textColorOn } from "./text_color.ts";

Deno.test("textColorOn picks the text that reaches WCAG AA on any chosen colour", () => {
  assert.equal(textColorOn("#f59e0b"), "#000000");
  assert.equal(textColorOn("#2563eb"), "#ffffff");
  assert.equal(textColorOn("#fff"), "#000000");
  assert.equal(textColorOn("var(--muted)"), "#ffffff");
  // Every grey level and the demo's tag colours: the chosen text always reaches 4.5:1.
  const levels = Array.from({ length: 256 }, (_, v) => `#${v.toString(16).padStart(2, "0").repeat(3)}`);
  for (const color of [...levels, "#6366f1", "#ef4444", "#22c55e", "#0ea5e9", "#eab308"]) {
    const l = relativeLuminance(color)!;
    const ratio = contrastRatio(l, relativeLuminance(textColorOn(color))!);
    assert.ok(ratio >= 4.5, `${color}: ${ratio}`);
  }
});
