/**
 * The carriers whose tracking page the shop knows: a shipped order's tracking number becomes a link
 * to it (the shipped mail, My Orders, Manage Orders). The admin types the carrier's name freely when
 * shipping (orders.ts, shipOrderSchema), so it is matched by its letters and digits only, in any
 * case ("UPS", "ups", "U.P.S.", "Fed Ex"); any other carrier is shown as text.
 */
const TRACKING_PAGES: Readonly<Record<string, (number: string) => string>> = {
  ups: (n) => `https://www.ups.com/track?tracknum=${n}`,
  usps: (n) => `https://tools.usps.com/go/TrackConfirmAction?tLabels=${n}`,
  fedex: (n) => `https://www.fedex.com/fedextrack/?trknbr=${n}`,
  dhl: (n) => `https://www.dhl.com/global-en/home/tracking/tracking-express.html?submit=1&tracking-id=${n}`,
  dhlexpress: (n) =>
    `https://www.dhl.com/global-en/home/tracking/tracking-express.html?submit=1&tracking-id=${n}`,
};

const carrierKey = (carrier: string) => carrier.toLowerCase().replace(/[^a-z0-9]/g, "");

/** The carriers known, as their keys (for tests and docs). */
export const KNOWN_CARRIERS = Object.keys(TRACKING_PAGES);

/**
 * The tracking page of `trackingNumber` at `carrier`, the number URL-encoded; undefined when either
 * is missing or the carrier is not known.
 */
export function trackingUrl(
  carrier: string | null | undefined,
  trackingNumber: string | null | undefined,
): string | undefined {
  const number = trackingNumber?.trim();
  if (!carrier || !number) return undefined;
  const key = carrierKey(carrier);
  // Own keys only: a carrier typed "constructor" is not a carrier.
  return Object.hasOwn(TRACKING_PAGES, key) ? TRACKING_PAGES[key]?.(encodeURIComponent(number)) : undefined;
}
