import { describe, expect, it } from "vitest";
import { isAddressOrNetwork, proxyTrust } from "./trusted-proxy.js";

describe("proxyTrust", () => {
  it("trusts no one when unset", () => {
    expect(proxyTrust(undefined)).toBeUndefined();
  });

  it("with a hop count, trusts that many hops nearest the shop and no further", () => {
    const two = proxyTrust({ hops: 2 });
    expect([0, 1, 2, 3].map((hop) => two?.("203.0.113.9", hop))).toEqual([true, true, false, false]);
  });

  it("with addresses, trusts those addresses and networks at any hop, IPv4 as a dual-stack socket shows it too", () => {
    const trust = proxyTrust({ addresses: ["10.0.0.5", "192.168.4.0/22", "fd00::/8"] });
    for (const address of ["10.0.0.5", "::ffff:10.0.0.5", "192.168.7.255", "fd12::1"])
      expect(trust?.(address, 0), address).toBe(true);
    for (const address of ["10.0.0.6", "192.168.8.0", "fe80::1", "::1", "not an address", undefined])
      expect(trust?.(address, 1), String(address)).toBe(false);
  });
});

describe("isAddressOrNetwork", () => {
  it("takes addresses and networks, nothing else", () => {
    for (const ok of ["10.0.0.5", "10.0.0.0/8", "::1", "2001:db8::/32", "0.0.0.0/0"])
      expect(isAddressOrNetwork(ok)).toBe(true);
    for (const bad of [
      "",
      "true",
      "any",
      "10.0.0.0/33",
      "::/129",
      "10.0.0.0/",
      "10.0.0/8",
      "10.0.0.1/8/8",
      "host.lan",
    ])
      expect(isAddressOrNetwork(bad), bad).toBe(false);
  });
});
