import { type ReactNode, useCallback, useMemo } from "react";
import uPlot from "uplot";
import type { AdminSales } from "../../../../shared/admin.js";
import { adminMessages } from "../../../../shared/messages/admin.js";
import { formatCount, formatPrice } from "../../../lib/format.js";
import { type ChartTheme, UPlotChart } from "./uplot-chart.js";

const text = adminMessages.overview.charts;
const statusText = adminMessages.orders.statuses;

/** A UTC day (YYYY-MM-DD) as the charts name it, e.g. "Nov 24": the sums are per UTC day. */
const dayFormat = new Intl.DateTimeFormat("en-US", { month: "short", day: "numeric", timeZone: "UTC" });
const dayLabel = (day: string) => dayFormat.format(new Date(`${day}T00:00:00Z`));

/** At most this many characters of a product's name beside its bar; the table has it whole. */
const NAME_LENGTH = 18;
const shortName = (name: string) => (name.length > NAME_LENGTH ? `${name.slice(0, NAME_LENGTH - 1)}…` : name);

/** Whole steps of 1, 2 and 5 times a power of ten: counts and whole dollars have no fractions. */
const WHOLE_STEPS = Array.from({ length: 10 }, (_, power) =>
  [1, 2, 5].map((step) => step * 10 ** power),
).flat();

const axis = (theme: ChartTheme): uPlot.Axis => ({
  stroke: theme.text,
  font: theme.font,
  grid: { stroke: theme.grid, width: 1 },
  ticks: { stroke: theme.grid, width: 1 },
});

/** What every chart here leaves out: uPlot's legend table (each has its own table), zooming. */
const plain = {
  legend: { show: false },
  cursor: { show: false },
  select: { show: false, left: 0, top: 0, width: 0, height: 0 },
};

/** Horizontal bars, one per label, top down: long labels read beside their bar even at 390 px. */
function barOptions(labels: string[], color: (theme: ChartTheme) => string) {
  return ({ width, height }: { width: number; height: number }, theme: ChartTheme): uPlot.Options => ({
    width,
    height,
    ...plain,
    scales: {
      // Vertical, top down: the first label at the top.
      x: { time: false, ori: 1, dir: -1, range: [-0.5, labels.length - 0.5] },
      y: { ori: 0, dir: 1, range: (_u, _min, max) => [0, Math.max(1, max) * 1.05] },
    },
    axes: [
      {
        ...axis(theme),
        side: 3,
        size: Math.min(130, Math.round(width * 0.36)),
        grid: { show: false },
        ticks: { show: false },
        splits: () => labels.map((_, i) => i),
        values: (_u, splits) => splits.map((i) => shortName(labels[i] ?? "")),
      },
      {
        ...axis(theme),
        side: 2,
        incrs: WHOLE_STEPS,
        values: (_u, splits) => splits.map((v) => formatCount(v)),
      },
    ],
    series: [
      {},
      {
        fill: color(theme),
        stroke: color(theme),
        points: { show: false },
        paths: uPlot.paths.bars?.({ size: [0.7, 32] }),
      },
    ],
  });
}

function ChartCard({
  id,
  title,
  lead,
  children,
}: {
  id: string;
  title: string;
  lead?: string;
  children: ReactNode;
}) {
  return (
    <section aria-labelledby={id} className="card min-w-0 border border-base-content/10 bg-base-200">
      <div className="card-body gap-4 p-4 sm:p-6">
        <div>
          <h2 id={id} className="card-title text-lg">
            {title}
          </h2>
          {lead ? <p className="text-sm text-base-content/80">{lead}</p> : null}
        </div>
        {children}
      </div>
    </section>
  );
}

/** The chart's figures as a table, folded under it: the same numbers, for screen readers and anyone. */
function Figures({ caption, columns, rows }: { caption: string; columns: string[]; rows: ReactNode[][] }) {
  return (
    <details className="rounded-box border border-base-content/10">
      <summary className="cursor-pointer px-4 py-2 text-sm font-medium">{text.showTable}</summary>
      <table className="table table-sm w-full">
        <caption className="sr-only">{caption}</caption>
        <thead>
          <tr>
            {columns.map((column, i) => (
              <th key={column} scope="col" className={`whitespace-normal ${i > 0 ? "text-right" : ""}`}>
                {column}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {rows.map(([first, ...rest], r) => (
            // biome-ignore lint/suspicious/noArrayIndexKey: the rows are fixed for one answer
            <tr key={r}>
              <th scope="row" className="font-normal break-words">
                {first}
              </th>
              {rest.map((cell, c) => (
                // biome-ignore lint/suspicious/noArrayIndexKey: columns are fixed
                <td key={c} className="text-right whitespace-nowrap tabular-nums">
                  {cell}
                </td>
              ))}
            </tr>
          ))}
        </tbody>
      </table>
    </details>
  );
}

function SalesChart({ days }: { days: AdminSales["days"] }) {
  const data = useMemo<uPlot.AlignedData>(
    () => [
      days.map((_, i) => i),
      days.map((d) => d.revenue),
      days.map((d) => d.orders),
      days.map((d) => d.paid),
    ],
    [days],
  );
  const options = useCallback(
    ({ width, height }: { width: number; height: number }, theme: ChartTheme): uPlot.Options => ({
      width,
      height,
      ...plain,
      scales: {
        x: { time: false, range: [-0.5, days.length - 0.5] },
        usd: { range: (_u, min, max) => [Math.min(0, min), Math.max(1, max) * 1.1] },
        n: { range: (_u, _min, max) => [0, Math.max(1, max) * 1.1] },
      },
      axes: [
        {
          ...axis(theme),
          grid: { show: false },
          space: 48,
          incrs: [1, 2, 5, 7, 10, 14],
          values: (_u, splits) => splits.map((i) => (days[i] ? dayLabel(days[i].day) : "")),
        },
        {
          ...axis(theme),
          scale: "usd",
          size: 64,
          incrs: WHOLE_STEPS,
          values: (_u, splits) => splits.map((v) => formatPrice(v)),
        },
        {
          ...axis(theme),
          scale: "n",
          side: 1,
          size: 40,
          grid: { show: false },
          incrs: WHOLE_STEPS,
          values: (_u, splits) => splits.map((v) => formatCount(v)),
        },
      ],
      series: [
        {},
        {
          scale: "usd",
          fill: theme.primary,
          stroke: theme.primary,
          points: { show: false },
          paths: uPlot.paths.bars?.({ size: [0.7, 24] }),
        },
        {
          scale: "n",
          stroke: theme.secondary,
          width: 2,
          points: { show: true, size: 4, fill: theme.secondary },
        },
        { scale: "n", stroke: theme.accent, width: 2, dash: [6, 4], points: { show: false } },
      ],
    }),
    [days],
  );
  const revenue = days.reduce((sum, d) => sum + d.revenue, 0);
  const best = days.reduce<AdminSales["days"][number] | undefined>(
    (top, d) => (d.revenue > 0 && (!top || d.revenue > top.revenue) ? d : top),
    undefined,
  );
  const label = text.sales.summary(
    formatPrice(revenue),
    formatCount(days.reduce((sum, d) => sum + d.orders, 0)),
    formatCount(days.reduce((sum, d) => sum + d.paid, 0)),
    best ? text.sales.best(dayLabel(best.day), formatPrice(best.revenue)) : text.sales.noneYet,
  );
  return (
    <ChartCard id="chart-sales" title={text.sales.title} lead={text.sales.lead}>
      <ul className="flex flex-wrap gap-x-4 gap-y-1 text-sm" aria-hidden="true">
        <li className="flex items-center gap-2">
          <span className="inline-block size-3 rounded-sm bg-primary" />
          {text.sales.revenue}
        </li>
        <li className="flex items-center gap-2">
          <span className="inline-block h-0.5 w-4 bg-secondary" />
          {text.sales.orders}
        </li>
        <li className="flex items-center gap-2">
          <span className="inline-block h-0.5 w-4 border-t-2 border-dashed border-accent" />
          {text.sales.paid}
        </li>
      </ul>
      <UPlotChart label={label} options={options} data={data} heightClass="h-64" />
      <Figures
        caption={text.sales.caption}
        columns={[text.sales.day, text.sales.revenue, text.sales.orders, text.sales.paid]}
        rows={days.map((d) => [
          <time key="day" dateTime={d.day}>
            {dayLabel(d.day)}
          </time>,
          formatPrice(d.revenue),
          formatCount(d.orders),
          formatCount(d.paid),
        ])}
      />
    </ChartCard>
  );
}

function StatusChart({ statuses }: { statuses: AdminSales["statuses"] }) {
  const labels = useMemo(() => statuses.map((s) => statusText[s.status]), [statuses]);
  const data = useMemo<uPlot.AlignedData>(
    () => [statuses.map((_, i) => i), statuses.map((s) => s.orders)],
    [statuses],
  );
  const options = useMemo(() => barOptions(labels, (theme) => theme.secondary), [labels]);
  const label = text.statuses.summary(
    statuses.map((s) => `${statusText[s.status]}: ${formatCount(s.orders)}`).join("; "),
  );
  return (
    <ChartCard id="chart-statuses" title={text.statuses.title}>
      <UPlotChart label={label} options={options} data={data} heightClass="h-56" />
      <Figures
        caption={text.statuses.caption}
        columns={[text.statuses.status, text.statuses.orders]}
        rows={statuses.map((s) => [statusText[s.status], formatCount(s.orders)])}
      />
    </ChartCard>
  );
}

function TopProductsChart({ products }: { products: AdminSales["topProducts"] }) {
  const labels = useMemo(() => products.map((p) => p.name), [products]);
  const data = useMemo<uPlot.AlignedData>(
    () => [products.map((_, i) => i), products.map((p) => p.units)],
    [products],
  );
  const options = useMemo(() => barOptions(labels, (theme) => theme.primary), [labels]);
  const label = text.top.summary(products.map((p) => `${p.name}: ${formatCount(p.units)}`).join("; "));
  return (
    <ChartCard id="chart-top-products" title={text.top.title} lead={text.top.lead}>
      {products.length === 0 ? (
        <p className="text-base-content/80">{text.top.none}</p>
      ) : (
        <>
          <UPlotChart label={label} options={options} data={data} heightClass="h-80" />
          <Figures
            caption={text.top.caption}
            columns={[text.top.product, text.top.units]}
            rows={products.map((p) => [p.name, formatCount(p.units)])}
          />
        </>
      )}
    </ChartCard>
  );
}

/**
 * The overview's charts, drawn by uPlot (about 50 KB): this module and the library are a chunk
 * of their own that the overview page loads lazily, after its cards, and no other page asks for.
 */
export function SalesCharts({ sales }: { sales: AdminSales }) {
  return (
    <div className="flex flex-col gap-6">
      <SalesChart days={sales.days} />
      <div className="grid gap-6 lg:grid-cols-2">
        <StatusChart statuses={sales.statuses} />
        <TopProductsChart products={sales.topProducts} />
      </div>
    </div>
  );
}
