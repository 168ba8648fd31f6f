/** Initials for a contact without a photo: the first letters of the first two words, or "?". */
export function initials(name: string | undefined): string {
  return (name ?? "?").split(/\s+/).filter(Boolean).slice(0, 2).map((w) => w[0]!.toUpperCase()).join("") || "?";
}
