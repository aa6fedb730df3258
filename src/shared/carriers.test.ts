import { describe, expect, it } from "vitest";
import { KNOWN_CARRIERS, trackingUrl } from "./carriers.js";

describe("the carriers' tracking pages", () => {
  it("links UPS, USPS, FedEx and DHL, whatever the case or punctuation of the name", () => {
    expect(trackingUrl("UPS", "1Z999AA10123456784")).toBe(
      "https://www.ups.com/track?tracknum=1Z999AA10123456784",
    );
    expect(trackingUrl("u.p.s.", "1Z9")).toBe("https://www.ups.com/track?tracknum=1Z9");
    expect(trackingUrl("USPS", "9400 1000")).toBe(
      "https://tools.usps.com/go/TrackConfirmAction?tLabels=9400%201000",
    );
    expect(trackingUrl("Fed Ex", "1234")).toBe("https://www.fedex.com/fedextrack/?trknbr=1234");
    expect(trackingUrl("FedEx", "1234")).toBe("https://www.fedex.com/fedextrack/?trknbr=1234");
    expect(trackingUrl("DHL", "JD0146")).toBe(
      "https://www.dhl.com/global-en/home/tracking/tracking-express.html?submit=1&tracking-id=JD0146",
    );
    expect(trackingUrl("DHL Express", "JD0146")).toContain("tracking-id=JD0146");
    expect(KNOWN_CARRIERS).toEqual(expect.arrayContaining(["ups", "usps", "fedex", "dhl"]));
  });

  it("URL-encodes the number, so it cannot add to or break out of the address", () => {
    expect(trackingUrl("UPS", "1Z&admin=1#x")).toBe("https://www.ups.com/track?tracknum=1Z%26admin%3D1%23x");
    expect(trackingUrl("UPS", "a/../b?c")).toBe("https://www.ups.com/track?tracknum=a%2F..%2Fb%3Fc");
    expect(trackingUrl("UPS", "  1Z9  ")).toBe("https://www.ups.com/track?tracknum=1Z9");
  });

  it("has no link for an unknown carrier, or without a carrier or a number", () => {
    expect(trackingUrl("Bob's Couriers", "123")).toBeUndefined();
    expect(trackingUrl("constructor", "123")).toBeUndefined();
    expect(trackingUrl("__proto__", "123")).toBeUndefined();
    expect(trackingUrl(null, "123")).toBeUndefined();
    expect(trackingUrl("UPS", null)).toBeUndefined();
    expect(trackingUrl("UPS", "   ")).toBeUndefined();
  });
});
