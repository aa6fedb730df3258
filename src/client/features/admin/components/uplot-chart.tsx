import { useEffect, useRef } from "react";
import uPlot from "uplot";
import "uplot/dist/uPlot.min.css";

/** The shop's dark theme as the canvas needs it: colours read from daisyUI's variables at draw time. */
export type ChartTheme = {
  text: string;
  grid: string;
  primary: string;
  secondary: string;
  accent: string;
  font: string;
};

function themeOf(element: HTMLElement): ChartTheme {
  const style = getComputedStyle(element);
  const color = (name: string) => style.getPropertyValue(name).trim();
  return {
    text: style.color,
    grid: "rgba(255, 255, 255, 0.08)",
    primary: color("--color-primary"),
    secondary: color("--color-secondary"),
    accent: color("--color-accent"),
    font: `12px ${style.fontFamily}`,
  };
}

type Props = {
  /** What the chart shows, in words: the canvas is an image to screen readers. */
  label: string;
  /** The plot's options for its size in pixels; memoise it, a new function draws the chart anew. */
  options: (size: { width: number; height: number }, theme: ChartTheme) => uPlot.Options;
  data: uPlot.AlignedData;
  /** Tailwind height class of the box; the plot fills it. */
  heightClass: string;
};

/**
 * A uPlot chart (canvas) sized to its box and redrawn at the box's width when it changes, so it
 * fits a 390 px phone as well as a wide screen. The box is role="img" with `label` as its name;
 * the figures themselves are in the table beside every chart.
 */
export function UPlotChart({ label, options, data, heightClass }: Props) {
  const box = useRef<HTMLDivElement>(null);
  useEffect(() => {
    const element = box.current;
    if (!element) return;
    const plot = new uPlot(
      options({ width: element.clientWidth, height: element.clientHeight }, themeOf(element)),
      data,
      element,
    );
    const observer = new ResizeObserver(() => {
      if (element.clientWidth !== plot.width)
        plot.setSize({ width: element.clientWidth, height: element.clientHeight });
    });
    observer.observe(element);
    return () => {
      observer.disconnect();
      plot.destroy();
    };
  }, [options, data]);
  return <div ref={box} role="img" aria-label={label} className={`w-full overflow-hidden ${heightClass}`} />;
}
