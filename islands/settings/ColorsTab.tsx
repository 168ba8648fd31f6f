/**
 * The Cores tab of /settings (spec 001 §2.10, super): main colour, scrollbar colour and top
 * bar background picked from the 49 presets, and the page background image. Each choice
 * saves at once (PUT /settings/{key}, 'Atualizando...' then 'Operação atualizada com
 * sucesso.') and repaints this page by rewriting the head's branding style with the same
 * rule the server uses (domain/branding.ts), so what the super sees is what every page's
 * first paint will carry.
 */
import { type FormEvent, useEffect, useId, useState } from "react";
import { Check } from "lucide-react";
import type { SettingsTabProps } from "../SettingsPage.tsx";
import { api, get } from "../lib/api.ts";
import { t } from "../lib/i18n.ts";
import { showToast, toastError } from "../lib/toast.ts";
import { ErrorState, Skeleton } from "../ui/States.tsx";
import {
  BRANDING_COLOR_KEYS,
  BRANDING_KEYS,
  type BrandingColorKey,
  brandingCss,
  COLOR_PALETTE,
  isBackgroundUrl,
} from "../../domain/branding.ts";

const PATH = "/settings/";

type Values = Record<string, string>;

/** The branding keys out of a GET /settings/ answer. */
function pick(list: unknown): Values {
  const rows = Array.isArray(list) ? list as { key: string; value: string }[] : [];
  return Object.fromEntries(rows.filter((r) => (BRANDING_KEYS as readonly string[]).includes(r.key)).map((r) => [r.key, r.value]));
}

/** Repaints the page with `values` (the head's `#branding-tokens`, server/pages/document.ts). */
function repaint(values: Values): void {
  const style = document.getElementById("branding-tokens");
  if (style) style.textContent = brandingCss(values);
}

/** The colours tab. */
export function ColorsTab({ initial }: SettingsTabProps) {
  const [values, setValues] = useState<Values | null>(initial?.[PATH] ? pick(initial[PATH]) : null);
  const [failed, setFailed] = useState(false);

  function load() {
    setFailed(false);
    get(PATH).then((list) => setValues(pick(list)), () => setFailed(true));
  }
  useEffect(() => {
    if (!values) load();
  }, []);

  async function save(key: string, value: string): Promise<boolean> {
    showToast("info", t("branding.updating"), "branding-save");
    try {
      await api("PUT", `/settings/${key}`, { value });
      const next = { ...values, [key]: value };
      setValues(next);
      repaint(next);
      showToast("success", t("branding.updated"), "branding-save");
      return true;
    } catch (error) {
      toastError(error);
      return false;
    }
  }

  if (failed) return <ErrorState onRetry={load} />;
  if (!values) return <Skeleton rows={6} />;
  return (
    <div className="branding-tab" data-testid="colors-tab">
      <p className="muted">{t("branding.colorsIntro")}</p>
      <div className="branding-palettes">
        {BRANDING_COLOR_KEYS.map((key) => (
          <Palette key={key} name={key} value={values[key] ?? ""} onPick={(v) => save(key, v)} />
        ))}
      </div>
      <BackgroundField value={values.backgroundPages ?? ""} onSave={(v) => save("backgroundPages", v)} />
    </div>
  );
}

/** One colour setting: its presets as a radio group of swatches. */
function Palette({ name, value, onPick }: { name: BrandingColorKey; value: string; onPick: (value: string) => void }) {
  const id = useId();
  const choices = name === "toolbarBackground" ? ["", ...COLOR_PALETTE] : COLOR_PALETTE;
  const current = value.toLowerCase();
  return (
    <section className="branding-palette" aria-labelledby={id} data-testid={`palette-${name}`}>
      <h3 id={id}>
        {t(`branding.${name}`)}
        <span className="muted branding-current">
          {t("branding.current", { value: value || t("branding.followMain") })}
          {value && <span className="branding-chip" style={{ background: value }} aria-hidden="true" />}
        </span>
      </h3>
      <div className="branding-swatches" role="radiogroup" aria-labelledby={id}>
        {choices.map((color) => {
          const checked = color === current;
          return (
            <button
              key={color || "main"}
              type="button"
              role="radio"
              aria-checked={checked}
              aria-label={color || t("branding.followMain")}
              title={color || t("branding.followMain")}
              className={color ? "branding-swatch" : "branding-swatch branding-swatch-main"}
              style={color ? { background: color } : undefined}
              onClick={() => !checked && onPick(color)}
            >
              {checked && <Check size={16} aria-hidden="true" />}
              {!color && <span aria-hidden="true">{t("branding.followMain")}</span>}
            </button>
          );
        })}
      </div>
    </section>
  );
}

/** The background image's address, saved on submit when it passes the server's own check. */
function BackgroundField({ value, onSave }: { value: string; onSave: (value: string) => Promise<boolean> }) {
  const id = useId();
  const [text, setText] = useState(value);
  const [error, setError] = useState("");
  const [busy, setBusy] = useState(false);

  async function submit(event: FormEvent) {
    event.preventDefault();
    const next = text.trim();
    if (!isBackgroundUrl(next)) return setError(t("branding.backgroundInvalid"));
    setError("");
    setBusy(true);
    await onSave(next);
    setBusy(false);
  }

  return (
    <form className="branding-background" onSubmit={submit} noValidate>
      <div className="field">
        <label htmlFor={id}>{t("branding.backgroundPages")}</label>
        <div className="branding-row">
          <input
            id={id}
            className="input"
            value={text}
            placeholder="https://"
            aria-invalid={error ? true : undefined}
            aria-describedby={`${id}-msg`}
            onChange={(e) => setText(e.target.value)}
          />
          <button type="submit" className="btn btn-primary" disabled={busy || text.trim() === value}>{t("branding.save")}</button>
        </div>
        {error
          ? <span className="field-error" id={`${id}-msg`} role="alert">{error}</span>
          : <span className="field-hint" id={`${id}-msg`}>{t("branding.backgroundHint")}</span>}
      </div>
    </form>
  );
}
