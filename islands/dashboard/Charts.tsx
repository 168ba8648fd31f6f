/**
 * The dashboard's charts (spec 000 §2): hourly lines (24 points, 01:00 … 00:00) and pies with
 * percentages in their legend. chart.js + react-chartjs-2 are imported here only, so only the
 * dashboard's bundle carries them (LIBRARIES.md). Colours come from the theme's tokens, read
 * once the page is mounted, so the dark theme gets readable text.
 *
 * A canvas is a picture to assistive technology (role="img"), so each chart says in words what
 * it draws (WCAG 1.1.1): its name carries the title and each series' total or each slice's
 * share, and a line chart's figures hour by hour are in a table only screen readers show.
 */
import { useEffect, useState } from "react";
import {
  ArcElement,
  CategoryScale,
  Chart as ChartJS,
  Legend,
  LinearScale,
  LineElement,
  PointElement,
  Tooltip,
} from "chart.js";
import { Line, Pie } from "react-chartjs-2";
import { HOUR_LABELS } from "../../domain/dashboard.ts";

ChartJS.register(ArcElement, CategoryScale, Legend, LinearScale, LineElement, PointElement, Tooltip);

/** A fallback palette for entries without a colour of their own (users). */
const PALETTE = ["#2563eb", "#db2777", "#16a34a", "#ea580c", "#7c3aed", "#0891b2", "#ca8a04", "#dc2626", "#4f46e5", "#65a30d"];

/** One series or slice. */
export interface Series {
  label: string;
  color?: string;
  values: number[];
}

/** The theme's text and border colours (re-read when the theme toggles). */
function useThemeColors(): { text: string; grid: string } {
  const [colors, setColors] = useState({ text: "#444", grid: "rgba(128,128,128,0.2)" });
  useEffect(() => {
    const read = () => {
      const style = getComputedStyle(document.documentElement);
      setColors({
        text: style.getPropertyValue("--text").trim() || "#444",
        grid: style.getPropertyValue("--border").trim() || "rgba(128,128,128,0.2)",
      });
    };
    read();
    const observer = new MutationObserver(read);
    observer.observe(document.documentElement, { attributes: true, attributeFilter: ["class", "data-theme", "style"] });
    return () => observer.disconnect();
  }, []);
  return colors;
}

const sum = (values: number[]) => values.reduce((a, n) => a + n, 0);

/** Hourly line chart of several series. */
export function HourlyChart({ title, series }: { title: string; series: Series[] }) {
  const c = useThemeColors();
  const name = `${title}: ${series.map((s) => `${s.label} ${sum(s.values)}`).join("; ")}`;
  return (
    <figure className="dash-chart">
      <figcaption>{title}</figcaption>
      <div className="dash-chart-box">
        <Line
          aria-label={name}
          data={{
            labels: [...HOUR_LABELS],
            datasets: series.map((s, i) => ({
              label: s.label,
              data: s.values,
              borderColor: s.color ?? PALETTE[i % PALETTE.length],
              backgroundColor: s.color ?? PALETTE[i % PALETTE.length],
              tension: 0.3,
              pointRadius: 2,
            })),
          }}
          options={{
            responsive: true,
            maintainAspectRatio: false,
            animation: false,
            plugins: { legend: { labels: { color: c.text, boxWidth: 12 } } },
            scales: {
              x: { ticks: { color: c.text, maxRotation: 0, autoSkip: true }, grid: { color: c.grid } },
              y: { beginAtZero: true, ticks: { color: c.text, precision: 0 }, grid: { color: c.grid } },
            },
          }}
        />
      </div>
      {/* In a box: a table is never narrower than its cells, so .sr-only's 1 px would not hold it. */}
      {series.length > 0 && (
        <div className="sr-only">
          <table>
            <caption>{title}</caption>
            <thead>
              <tr>
                <td />
                {series.map((s, i) => <th key={i} scope="col">{s.label}</th>)}
              </tr>
            </thead>
            <tbody>
              {HOUR_LABELS.map((hour, h) => (
                <tr key={hour}>
                  <th scope="row">{hour}</th>
                  {series.map((s, i) => <td key={i}>{s.values[h] ?? 0}</td>)}
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </figure>
  );
}

/** A pie whose legend says each slice's share. */
export function SharePie({ title, slices, empty }: { title: string; slices: Series[]; empty: string }) {
  const c = useThemeColors();
  const total = slices.reduce((a, s) => a + s.values[0], 0);
  const pct = (n: number) => (total ? Math.round((n / total) * 1000) / 10 : 0);
  const labels = slices.map((s) => `${s.label} (${pct(s.values[0])}%)`);
  return (
    <figure className="dash-chart dash-pie">
      <figcaption>{title}</figcaption>
      {total === 0 ? <p className="muted">{empty}</p> : (
        <div className="dash-chart-box">
          <Pie
            aria-label={`${title}: ${labels.join("; ")}`}
            data={{
              labels,
              datasets: [{
                data: slices.map((s) => s.values[0]),
                backgroundColor: slices.map((s, i) => s.color ?? PALETTE[i % PALETTE.length]),
                borderColor: c.grid,
              }],
            }}
            options={{
              responsive: true,
              maintainAspectRatio: false,
              animation: false,
              plugins: { legend: { position: "bottom", labels: { color: c.text, boxWidth: 12 } } },
            }}
          />
        </div>
      )}
    </figure>
  );
}
