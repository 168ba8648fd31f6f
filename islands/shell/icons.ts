/** The menu's icons by name (the set lives in menu_icon_set.ts: one list to edit). */
import type { LucideIcon } from "lucide-react";
import * as icons from "./menu_icon_set.ts";

/** Icon components by the names used in menu.ts. */
export const MENU_ICONS: Record<string, LucideIcon> = { ...icons };
