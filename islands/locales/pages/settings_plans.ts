/** Texts of settings_plans (issue #16) in pt, en and es; spread into ../pt.ts, ../en.ts, ../es.ts. */
const pt = {
};

export default {
  pt,
  en: {} satisfies Record<keyof typeof pt, string>,
  es: {} satisfies Record<keyof typeof pt, string>,
};
