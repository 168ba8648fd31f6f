/** A numbered step indicator (the recovery's e-mail → code → new password). */
import { Check } from "lucide-react";

/** Props of Steps. */
export interface StepsProps {
  current: number;
  labels: string[];
}

/** The steps in a row: done ones ticked, the current one marked for screen readers too. */
export function Steps({ current, labels }: StepsProps) {
  return (
    <ol className="steps" data-testid="steps">
      {labels.map((label, i) => (
        <li key={label} className={i < current ? "step done" : i === current ? "step current" : "step"} aria-current={i === current ? "step" : undefined}>
          <span className="step-dot" aria-hidden="true">{i < current ? <Check size={14} /> : i + 1}</span>
          <span className="step-label">{label}</span>
        </li>
      ))}
    </ol>
  );
}
