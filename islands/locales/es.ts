/** placeholder */
import pt, { type LocaleKey } from "./pt.ts";
const dict: Readonly<Record<LocaleKey, string>> = { ...pt };
export default dict;
