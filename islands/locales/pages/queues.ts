/** Texts of the queues page in pt (the spec's), en and es; spread into ../pt.ts, ../en.ts, ../es.ts. */
const pt = {
};

export default {
  pt,
  en: {} as Record<keyof typeof pt, string>,
  es: {} as Record<keyof typeof pt, string>,
};
