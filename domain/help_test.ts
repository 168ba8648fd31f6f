import assert from "node:assert/strict";
import { helpEmbedUrl, supportLink } from "./help.ts";

Deno.test("helpEmbedUrl() embeds YouTube and Vimeo codes or links and nothing else", () => {
  assert.equal(helpEmbedUrl("dQw4w9WgXcQ"), "https://www.youtube.com/embed/dQw4w9WgXcQ");
  assert.equal(helpEmbedUrl(" 76979871 "), "https://player.vimeo.com/video/76979871");
  assert.equal(helpEmbedUrl("https://youtu.be/dQw4w9WgXcQ"), "https://www.youtube.com/embed/dQw4w9WgXcQ");
  assert.equal(helpEmbedUrl(""), null);
  assert.equal(helpEmbedUrl("javascript:alert(1)"), null);
  assert.equal(helpEmbedUrl("https://evil.example/x"), null);
});

Deno.test("supportLink() keeps the digits and hides a missing number", () => {
  assert.equal(supportLink("+55 (11) 99999-0000"), "https://wa.me/5511999990000");
  assert.equal(supportLink(""), null);
  assert.equal(supportLink("123"), null);
});
