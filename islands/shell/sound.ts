/**
 * The new-message sound: a short tone at the volume (0–1) the top bar sets, no audio file
 * needed. The volume is an atom of the page's store (lib/page_store.ts), kept in localStorage
 * (spec 000 §2) when changed.
 */
import { atom } from "jotai";
import { readVolume, writeLocal } from "../lib/storage.ts";
import { pageStore } from "../lib/page_store.ts";

/** The volume once read from storage in this page (null before). */
const storedVolume = atom<number | null>(null);
storedVolume.onMount = (set) => set(readVolume());

/** The page's volume: read it to show it (1 until the stored one is read); write it to change and keep one. */
export const volumeAtom = atom(
  (get) => get(storedVolume) ?? 1,
  (_get, set, volume: number) => {
    writeLocal("volume", String(volume));
    set(storedVolume, volume);
  },
);

let context: AudioContext | undefined;

/** Plays the notification tone (silent when the volume is 0 or audio is blocked). */
export function playNotification(): void {
  const volume = pageStore().get(storedVolume) ?? readVolume();
  if (volume <= 0 || typeof AudioContext === "undefined") return;
  try {
    context ??= new AudioContext();
    const osc = context.createOscillator();
    const gain = context.createGain();
    osc.frequency.value = 880;
    gain.gain.setValueAtTime(0.2 * volume, context.currentTime);
    gain.gain.exponentialRampToValueAtTime(0.0001, context.currentTime + 0.3);
    osc.connect(gain).connect(context.destination);
    osc.start();
    osc.stop(context.currentTime + 0.3);
  } catch { /* autoplay blocked until the user interacts */ }
}
