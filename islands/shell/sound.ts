/** The new-message sound: a short tone at the stored volume (0–1), no audio file needed. */
import { readVolume } from "../lib/storage.ts";

let context: AudioContext | undefined;

/** Plays the notification tone (silent when the volume is 0 or audio is blocked). */
export function playNotification(): void {
  const volume = readVolume();
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
